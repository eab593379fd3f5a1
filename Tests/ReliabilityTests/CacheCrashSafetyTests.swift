import EntitlementKit
import Foundation
import TestSupport
import Testing

/// A cache write interrupted at any point leaves the old entry or the new one — never a file that
/// grants anything else. The directory cache writes a temporary file, syncs it and renames it over the
/// old one; its own tests cover a damaged entry file. These cover the crash itself.
@Suite(.timeLimit(.minutes(5))) struct CacheCrashSafetyTests {
    static let base = Date(timeIntervalSince1970: 1_750_000_000)

    static func entry(_ number: Int, for id: String) -> EntitlementCacheEntry {
        let instant = base.addingTimeInterval(TimeInterval(number))
        let snapshot = EntitlementSnapshot(
            provider: .revenueCat, appUserId: id, requestDate: instant, evaluatedAt: instant,
            entitlements: [
                Entitlement(
                    id: "entitlement-\(number)", expirationDate: base.addingTimeInterval(TimeInterval(number) * 86_400),
                    at: instant)
            ])
        return EntitlementCacheEntry(snapshot: snapshot, writtenAt: instant, newestRequestDate: instant)
    }

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cache-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        return url
    }

    /// The bytes the cache writes for `entry`, taken from a cache of its own.
    static func fileBytes(of entry: EntitlementCacheEntry, for id: String) async throws -> Data {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DirectoryEntitlementCache(directory: directory).store(entry, for: id)
        return try Data(
            contentsOf: directory.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: id)))
    }

    @Test func aCrashBeforeTheRenameAtEveryLengthLeavesTheOldEntry() async throws {
        let id = "alice"
        let old = Self.entry(1, for: id)
        let new = try await Self.fileBytes(of: Self.entry(2, for: id), for: id)
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await DirectoryEntitlementCache(directory: directory).store(old, for: id)
        for length in 0...new.count {
            // The temporary file as a crash at this point of the write left it, beside the old entry.
            let torn = directory.appendingPathComponent(".tmp-crash")
            try new.prefix(length).write(to: torn)
            let reopened = try DirectoryEntitlementCache(directory: directory)
            #expect(await reopened.entry(for: id) == old, "torn temporary file of \(length) bytes")
        }
        // A temporary file whose writer cannot be told is left alone: it may be another process's write in
        // progress (the cache's own tests cover removing an ended writer's).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix(".tmp")
        }
        #expect(leftovers == [".tmp-crash"])
    }

    @Test func aTornFileAfterTheRenameIsTheNewEntryOrNothing() async throws {
        let id = "bob"
        let newEntry = Self.entry(2, for: id)
        let new = try await Self.fileBytes(of: newEntry, for: id)
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: id))
        for length in 0...new.count {
            // A file system that loses the data of a renamed file keeps any prefix of it.
            try new.prefix(length).write(to: path)
            let read = await (try DirectoryEntitlementCache(directory: directory)).entry(for: id)
            #expect(read == nil || (length == new.count && read == newEntry), "file cut at \(length) bytes")
        }
    }

    @Test func aWriterKilledMidWriteLeavesACompleteEntry() async throws {
        let id = "carol"
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try BuiltExecutable.url(named: "cache-writer-for-tests")
        var newestReported = 0
        for round in 0..<25 {
            let process = Process()
            process.executableURL = writer
            process.arguments = [directory.path, id]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Let it complete 1…5 stores (it says so after each), then kill it wherever it is.
            let wanted = round % 5 + 1
            var lines = 0
            var buffer = Data()
            while lines < wanted {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                lines = buffer.split(separator: UInt8(ascii: "\n")).count
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            let reported = buffer.split(separator: UInt8(ascii: "\n")).compactMap {
                Int(String(decoding: $0, as: UTF8.self).dropFirst("stored ".count))
            }
            newestReported = reported.max() ?? newestReported

            // The entry is one the writer completed: the last it reported, or the one after it if the
            // kill came between the store and the report. Its entitlement is that entry's own.
            let entry = try #require(await (try DirectoryEntitlementCache(directory: directory)).entry(for: id))
            let number = Int(entry.snapshot.requestDate?.timeIntervalSince(Self.base) ?? -1)
            #expect(number == newestReported || number == newestReported + 1, "round \(round): entry \(number)")
            #expect(entry == Self.entry(number, for: id), "round \(round): entry \(number) is not the one written")
        }
    }
}

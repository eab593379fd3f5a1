import EntitlementKitCrypto
import Foundation
import TestSupport
import Testing

@testable import EntitlementKit

@Suite("Directory cache: files, names, atomic writes, damage and relaunch", .timeLimit(.minutes(5)))
struct DirectoryCacheTests {
    private let start = instant("2025-01-01T00:00:00Z")

    private func sampleEntry(for appUserId: String = "alice") -> EntitlementCacheEntry {
        let snapshot = EntitlementSnapshot(
            provider: .revenueCat, appUserId: appUserId, requestDate: start, evaluatedAt: start,
            entitlements: [
                Entitlement(
                    id: "premium", productId: "monthly", renewState: .willRenew,
                    expirationDate: instant("2025-02-01T00:00:00Z"), at: start),
                Entitlement(id: "lifetime", productId: "unlock", at: start),
            ])
        return EntitlementCacheEntry(
            snapshot: snapshot, writtenAt: instant("2025-01-01T00:00:00.123Z"),
            newestRequestDate: instant("2025-01-01T00:00:01Z"))
    }

    @Test("SHA-256 matches the FIPS 180-4 examples")
    func sha256() {
        #expect(
            SHA256.hexDigest(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            SHA256.hexDigest(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("an entry, the stored id and the floor survive a new cache instance over the same directory")
    func roundTripAcrossInstances() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        #expect(await cache.entry(for: "alice") == nil)
        #expect(await cache.storedAppUserId() == nil)
        #expect(await cache.trustedFloor() == nil)
        let entry = sampleEntry()
        try await cache.store(entry, for: "alice")
        try await cache.storeAppUserId("alice")
        try await cache.storeTrustedFloor(instant("2025-01-01T00:00:02.5Z"))
        try await cache.store(sampleEntry(for: "bob").invalidated(), for: "bob")

        let reopened = try DirectoryEntitlementCache(directory: temporary.cache)
        #expect(await reopened.entry(for: "alice") == entry)
        #expect(await reopened.entry(for: "bob")?.isInvalidated == true)
        #expect(await reopened.storedAppUserId() == "alice")
        #expect(await reopened.trustedFloor() == instant("2025-01-01T00:00:02.5Z"))

        await reopened.removeEntry(for: "alice")
        #expect(await reopened.entry(for: "alice") == nil)
        #expect(try temporary.files(in: temporary.cache).count == 3)  // bob's entry, the device file, its lock
    }

    @Test("file names are safe for any app user id and never contain it")
    func safeFileNames() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        let ids = [
            "alice", "Alice", "../../etc/passwd", "a/b", ".", "..", "", "\u{0}", "日本語🙂", "with space\nnewline",
            String(repeating: "é", count: 100), String(repeating: "x", count: 10_000),
        ]
        for id in ids { try await cache.store(sampleEntry(for: id), for: id) }
        for id in ids { #expect(await cache.entry(for: id)?.snapshot.appUserId == (id.isEmpty ? nil : id)) }
        let names = try temporary.files(in: temporary.cache)
        #expect(names.count == ids.count)
        for name in names {
            #expect(name.hasPrefix("entry-") && name.hasSuffix(".cache") && name.count == 6 + 64 + 6)
            #expect(name.dropFirst(6).dropLast(6).allSatisfy { "0123456789abcdef".contains($0) })
        }
        #expect(
            DirectoryEntitlementCache.entryFileName(for: "abc")
                == "entry-ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad.cache")
    }

    @Test("an entry file truncated to any length reads as absent")
    func truncatedAtEveryLength() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        try await cache.store(sampleEntry(), for: "alice")
        let file = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        let intact = try Data(contentsOf: file)
        #expect(intact.count > 500)
        for length in 0..<intact.count {
            try overwrite(file, with: intact.prefix(length))
            #expect(await cache.entry(for: "alice") == nil, "truncated to \(length) bytes")
        }
        try intact.write(to: file)
        #expect(await cache.entry(for: "alice") == sampleEntry())
    }

    @Test("an entry file with any byte changed reads as absent")
    func flippedAtEveryOffset() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        try await cache.store(sampleEntry(), for: "alice")
        let file = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        let intact = [UInt8](try Data(contentsOf: file))
        for offset in intact.indices {
            // The lowest bit at every offset; a whole-byte flip at every 16th as well.
            for mask: UInt8 in offset % 16 == 0 ? [0x01, 0xFF] : [0x01] {
                var damaged = intact
                damaged[offset] ^= mask
                try overwrite(file, with: damaged)
                #expect(await cache.entry(for: "alice") == nil, "byte \(offset) xor \(mask)")
            }
        }
        var extended = intact
        extended.append(0x20)
        try Data(extended).write(to: file)
        #expect(await cache.entry(for: "alice") == nil, "a byte appended")
    }

    @Test("a damaged device file reads as no stored id and no floor")
    func damagedDeviceFile() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        try await cache.storeAppUserId("alice")
        try await cache.storeTrustedFloor(start)
        let file = temporary.cache.appendingPathComponent("device.cache")
        let intact = [UInt8](try Data(contentsOf: file))
        for offset in intact.indices {
            var damaged = intact
            damaged[offset] ^= 0x01
            try overwrite(file, with: damaged)
            let reopened = try DirectoryEntitlementCache(directory: temporary.cache)
            #expect(await reopened.storedAppUserId() == nil, "byte \(offset)")
            #expect(await reopened.trustedFloor() == nil, "byte \(offset)")
        }
    }

    /// A file sealed by hand: `header`, the digest line, `payload`.
    private func sealed(header: String, payload: String) -> Data {
        Data((header + "sha256 " + SHA256.hexDigest(of: Array(payload.utf8)) + "\n" + payload).utf8)
    }

    @Test("files of another schema read as absent: the header, the payload's or the snapshot's version")
    func wrongSchemas() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        let file = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        let snapshot = sampleEntry().snapshot.canonicalJSON()
        func payload(version: Int, snapshot: String) -> String {
            """
            {"appUserId": "alice", "isInvalidated": false, "newestRequestDate": null, "schemaVersion": \(version),
             "snapshot": \(snapshot), "writtenAt": "2025-01-01T00:00:00Z"}
            """
        }
        let good = sealed(
            header: "EntitlementKit cache entry, schema 3\n", payload: payload(version: 3, snapshot: snapshot))
        try good.write(to: file)
        #expect(await cache.entry(for: "alice")?.snapshot.activeEntitlementIds == ["lifetime", "premium"])

        let variants = [
            sealed(header: "EntitlementKit cache entry, schema 4\n", payload: payload(version: 4, snapshot: snapshot)),
            sealed(header: "EntitlementKit cache entry, schema 3\n", payload: payload(version: 1, snapshot: snapshot)),
            sealed(header: "EntitlementKit cache entry, schema 1\n", payload: payload(version: 3, snapshot: snapshot)),
            sealed(
                header: "EntitlementKit cache entry, schema 3\n",
                payload: payload(
                    version: 3,
                    snapshot: snapshot.replacingOccurrences(of: "\"schemaVersion\": 3", with: "\"schemaVersion\": 4"))),
            sealed(header: "EntitlementKit cache device, schema 3\n", payload: payload(version: 3, snapshot: snapshot)),
            sealed(header: "EntitlementKit cache entry, schema 3\n", payload: "{\"schemaVersion\": 3}"),
            sealed(header: "EntitlementKit cache entry, schema 3\n", payload: "[]"),
            Data(snapshot.utf8),  // a bare snapshot, as an older layout might have written
            Data(),
        ]
        for (index, variant) in variants.enumerated() {
            try variant.write(to: file)
            #expect(await cache.entry(for: "alice") == nil, "variant \(index)")
        }
    }

    @Test("an entry written before schema 2 (cache schema 1, unified schema 1 snapshot) is read, not refetched")
    func schemaOneEntryStillReads() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        let file = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        // The snapshot as wave 2 wrote it: no `verification`, no cancellation reasons, schemaVersion 1.
        var old = sampleEntry().snapshot.jsonValue
        old = old.removing("verification").setting("schemaVersion", to: .integer(1))
        if case .object(var entitlements) = old["entitlements"] {
            for (id, entitlement) in entitlements {
                entitlements[id] = entitlement.removing("cancellationReason").removing("cancellationReasonRaw")
                    .removing("denial")
            }
            old = old.setting("entitlements", to: .object(entitlements))
        }
        let payload = """
            {"appUserId": "alice", "isInvalidated": false, "newestRequestDate": null, "schemaVersion": 1,
             "snapshot": \(old.compactText), "writtenAt": "2025-01-01T00:00:00Z"}
            """
        try sealed(header: "EntitlementKit cache entry, schema 1\n", payload: payload).write(to: file)
        let entry = try #require(await cache.entry(for: "alice"), "the old entry must be read, not refetched")
        #expect(entry.snapshot.activeEntitlementIds == ["lifetime", "premium"])
        #expect(entry.snapshot.verification == .notRequested)
        #expect(entry.snapshot.all.allSatisfy { $0.cancellationReason == nil })
    }

    @Test("an entry written before schema 3 (cache schema 2, unified schema 2 snapshot) is read, not refetched")
    func schemaTwoEntryStillReads() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        let file = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        // The snapshot as wave 3 wrote it: no `denial`, schemaVersion 2.
        var old = sampleEntry().snapshot.jsonValue.setting("schemaVersion", to: .integer(2))
        if case .object(var entitlements) = old["entitlements"] {
            for (id, entitlement) in entitlements { entitlements[id] = entitlement.removing("denial") }
            old = old.setting("entitlements", to: .object(entitlements))
        }
        let payload = """
            {"appUserId": "alice", "isInvalidated": false, "newestRequestDate": null, "schemaVersion": 2,
             "snapshot": \(old.compactText), "writtenAt": "2025-01-01T00:00:00Z"}
            """
        try sealed(header: "EntitlementKit cache entry, schema 2\n", payload: payload).write(to: file)
        let entry = try #require(await cache.entry(for: "alice"), "the old entry must be read, not refetched")
        #expect(entry.snapshot.activeEntitlementIds == ["lifetime", "premium"])
        #expect(entry.snapshot.all.allSatisfy { $0.denial == nil })
    }

    @Test("another customer's file under this customer's name reads as absent")
    func foreignFile() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        try await cache.store(sampleEntry(for: "alice"), for: "alice")
        let alice = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        let bob = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "bob"))
        try FileManager.default.copyItem(at: alice, to: bob)
        #expect(await cache.entry(for: "bob") == nil)
        #expect(await cache.entry(for: "alice") != nil)

        // Canonically equivalent ids (== in Swift) are other bytes, so other customers and other files.
        try await cache.store(sampleEntry(for: "jos\u{E9}"), for: "jos\u{E9}")
        let composed = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "jos\u{E9}"))
        let decomposed = temporary.cache.appendingPathComponent(
            DirectoryEntitlementCache.entryFileName(for: "jose\u{301}"))
        #expect(composed != decomposed)
        #expect(await cache.entry(for: "jose\u{301}") == nil)
        try FileManager.default.copyItem(at: composed, to: decomposed)
        #expect(await cache.entry(for: "jose\u{301}") == nil)
    }

    @Test("an entry file that is a symbolic link, not a regular file, or oversized reads as absent")
    func untrustworthyFiles() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        try await cache.store(sampleEntry(for: "alice"), for: "alice")
        let alice = temporary.cache.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        let elsewhere = temporary.url.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: alice, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: alice, withDestinationURL: elsewhere)
        #expect(await cache.entry(for: "alice") == nil)

        try FileManager.default.removeItem(at: alice)
        try FileManager.default.createDirectory(at: alice, withIntermediateDirectories: false)
        #expect(await cache.entry(for: "alice") == nil)
        try FileManager.default.removeItem(at: alice)

        try Data(repeating: 0x20, count: DirectoryEntitlementCache.maximumFileSize + 1).write(to: alice)
        #expect(await cache.entry(for: "alice") == nil)
    }

    @Test("writes leave no temporary files")
    func atomicWrites() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        for index in 0..<5 { try await cache.store(sampleEntry(for: "user-\(index)"), for: "alice") }
        try await cache.storeAppUserId("alice")
        let names = try temporary.files(in: temporary.cache)
        #expect(names == [".lock", "device.cache", DirectoryEntitlementCache.entryFileName(for: "alice")].sorted())
        #expect(await cache.entry(for: "alice")?.snapshot.appUserId == "user-4")
    }

    @Test("files are created readable by the owner only, the directory (when created) by the owner only")
    func permissions() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache.appendingPathComponent("nested"))
        try await cache.store(sampleEntry(), for: "alice")
        let directory = temporary.cache.appendingPathComponent("nested")
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
        let file = directory.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: "alice"))
        let fileAttributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((fileAttributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test("a cache directory that is a symbolic link, world-writable or not a directory is refused")
    func unsafeDirectories() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let real = temporary.url.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
        let link = temporary.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let linked = #expect(throws: EntitlementCacheError.self) { try DirectoryEntitlementCache(directory: link) }
        #expect(linked?.code == .unsafeDirectory)
        #expect(linked?.message.contains("symbolic link") == true)
        #expect(throws: EntitlementCacheError.self) {
            try DirectoryEntitlementCache(directory: URL(fileURLWithPath: link.path + "/"))
        }

        let open = temporary.url.appendingPathComponent("open")
        try FileManager.default.createDirectory(
            at: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: open.path)
        let error = #expect(throws: EntitlementCacheError.self) { try DirectoryEntitlementCache(directory: open) }
        #expect(error?.code == .unsafeDirectory)

        let file = temporary.url.appendingPathComponent("file")
        try Data().write(to: file)
        #expect(throws: EntitlementCacheError.self) { try DirectoryEntitlementCache(directory: file) }

        _ = try DirectoryEntitlementCache(directory: real)
    }
}

extension JSONValue {
    /// This object without `key`.
    fileprivate func removing(_ key: String) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = nil
        return .object(members)
    }

    /// This object with `key` set to `value`.
    fileprivate func setting(_ key: String, to value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}

// fuzz-modules: EntitlementKit
// fuzz-seeds: Fuzz/Seeds/cache
import EntitlementKit
import Foundation

/// The directory cache's entry-file reader: whatever bytes sit in a customer's entry file, reading it
/// gives an entry the library can store again and read back the same, or nothing — never a crash.
///
/// An input that starts like an entry file (`EntitlementKit cache`) is the file as it is; any other input
/// is a payload, sealed with its correct SHA-256 first — a mutated file fails its seal, so without this
/// the payload reader beneath it would hardly be reached. Both are decoded in memory through the cache's
/// own decoding (`entry(fromFileBytes:for:)`); every 256th input also goes through a real file and a
/// real `DirectoryEntitlementCache`, which must answer the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Data(bytes: start, count: count)
    let file =
        input.starts(with: CacheFileFixture.headerStart)
        ? input : DirectoryEntitlementCache.sealedEntryFile(payload: input)
    let entry = DirectoryEntitlementCache.entry(fromFileBytes: file, for: CacheFileFixture.customer)
    if let entry {
        checkSnapshot(entry.snapshot)
        let stored = DirectoryEntitlementCache.fileBytes(of: entry, for: CacheFileFixture.customer)
        if DirectoryEntitlementCache.entry(fromFileBytes: stored, for: CacheFileFixture.customer) != entry {
            fatalError("an entry read from a file reads back different once stored")
        }
        if DirectoryEntitlementCache.entry(fromFileBytes: file, for: CacheFileFixture.otherCustomer) != nil {
            fatalError("an entry file was read as another customer's")
        }
    }
    CacheFileFixture.inputCount += 1
    if CacheFileFixture.inputCount % 256 == 0, CacheFileFixture.readThroughFile(file) != entry {
        fatalError("the cache read the file differently from its in-memory decoding")
    }
    return 0
}

/// One private directory for the whole run.
enum CacheFileFixture {
    static let customer = "fuzz-customer"
    static let otherCustomer = "fuzz-customer-2"
    /// An array, not `Data`: LeakSanitizer does not see through `Data`'s packed storage in a global.
    static let headerStart = Array("EntitlementKit cache".utf8)
    /// libFuzzer runs one input at a time on one thread.
    nonisolated(unsafe) static var inputCount = 0
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-cache-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o700)
        return url
    }()

    /// What a fresh `DirectoryEntitlementCache` reads when `data` is the customer's entry file.
    static func readThroughFile(_ data: Data) -> EntitlementCacheEntry? {
        let file = directory.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: customer))
        do {
            try data.write(to: file)
        } catch {
            fatalError("cannot write the entry file: \(error)")
        }
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Task {
            do {
                let cache = try DirectoryEntitlementCache(directory: directory)
                result.entry = await cache.entry(for: customer)
            } catch {
                fatalError("the cache directory was refused: \(error)")
            }
            done.signal()
        }
        done.wait()
        return result.entry
    }

    /// Carries the answer out of the task; the semaphore orders the write before the read.
    final class ResultBox: @unchecked Sendable {
        var entry: EntitlementCacheEntry?
    }
}

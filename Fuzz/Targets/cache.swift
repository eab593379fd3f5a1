// fuzz-modules: EntitlementKit
// fuzz-seeds: Fuzz/Seeds/cache
import EntitlementKit
import Foundation

/// The directory cache's file reader: whatever bytes sit in a customer's entry file, reading it is an
/// entry the library can store again, or nothing — never a crash. (Files are sealed with a SHA-256
/// digest, so a mutated file reads as absent; the snapshot inside goes through the decoder the
/// `unified` target fuzzes.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let file = CacheFileFixture.directory.appendingPathComponent(
        DirectoryEntitlementCache.entryFileName(for: CacheFileFixture.customer))
    do {
        try data.write(to: file)
    } catch {
        fatalError("cannot write the entry file: \(error)")
    }
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let cache = try DirectoryEntitlementCache(directory: CacheFileFixture.directory)
            if let entry = await cache.entry(for: CacheFileFixture.customer) {
                checkSnapshot(entry.snapshot)
            }
        } catch {
            fatalError("the cache directory was refused: \(error)")
        }
        done.signal()
    }
    done.wait()
    return 0
}

/// One private directory for the whole run.
enum CacheFileFixture {
    static let customer = "fuzz-customer"
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-cache-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        chmod(url.path, 0o700)
        return url
    }()
}

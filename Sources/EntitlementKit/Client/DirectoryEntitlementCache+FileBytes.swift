import EntitlementKitCrypto
import Foundation

// The entry file's decoding without the file system, for the `cache` fuzz target: reading a file and
// opening a cache per input runs at a few hundred inputs a second, decoding the bytes at thousands.
// `package`: a test hook, not API.

extension DirectoryEntitlementCache {
    /// The entry that an entry file holding `data` gives ``entry(for:)`` for `appUserId`: the same
    /// decoding, minus the file system (and the size cap on reading the file).
    package static func entry(fromFileBytes data: Data, for appUserId: String) -> EntitlementCacheEntry? {
        CacheFileFormat.entry(from: data, for: appUserId)
    }

    /// The bytes ``store(_:for:)`` writes for `entry`.
    package static func fileBytes(of entry: EntitlementCacheEntry, for appUserId: String) -> Data {
        CacheFileFormat.entryFile(entry, for: appUserId)
    }

    /// An entry file whose seal is correct for `payload`, whatever `payload` holds: the header, the
    /// SHA-256 line, then `payload`. A mutated file almost never passes its seal; sealing mutated payloads
    /// lets a fuzzer reach the payload reader beneath it.
    package static func sealedEntryFile(payload: Data) -> Data {
        var bytes = Array(CacheFileFormat.header(.entry).utf8)
        bytes += Array("sha256 \(SHA256.hexDigest(of: payload))\n".utf8)
        bytes += payload
        return Data(bytes)
    }
}

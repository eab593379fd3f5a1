import EntitlementKitCrypto
import Foundation

/// Certificate chains that verified, so the JWS signed under one chain — every JWS from Apple carries the
/// same two certificates for months — pay for the chain's two P-384 signature checks once.
///
/// An entry is found by the exact bytes of `x5c[0]` and `x5c[1]` as the header spells them (the base64 text
/// that decodes to the certificates; compared as UTF-8 bytes, never as canonically equivalent strings), and it belongs to one verifier, whose configured roots never change, so the root
/// it chained to is part of its key. It holds what the per-JWS checks need and nothing they could skip:
/// the leaf's key and the three certificates' validity windows (checked again at each payload's
/// `signedDate`). Only a chain that passed every check is stored, never a failure. Least recently used
/// entries go first once `capacity` is reached.
///
/// A lock, not an actor: verification is synchronous and a lookup is a few comparisons, which an actor
/// hop would cost more than. `NSLock` rather than `Mutex` (macOS 15; docs/Platforms.md).
final class VerifiedChainCache: @unchecked Sendable {
    /// What a verified chain leaves for the checks each JWS still makes.
    struct Chain: Sendable {
        /// The leaf's P-256 key, with its precomputed multiples.
        var leafKey: ECDSAPublicKey
        /// notBefore...notAfter of the leaf, the intermediate and the root, in that order.
        var validity: [ClosedRange<Date>]
    }

    private struct Entry {
        var leaf: [UInt8]
        var intermediate: [UInt8]
        var chain: Chain
        /// The header text this chain came in and a SHA-256 that has read it and the dot after it: a JWS
        /// whose header is byte for byte that text skips decoding it and hashes only its payload.
        var header: [UInt8]
        var hashedHeader: SHA256
    }

    let capacity: Int
    private let lock = NSLock()
    /// Least recently used first; a few dozen at most, so a scan is cheaper than a dictionary's hashing of
    /// two kilobytes of certificate text.
    private var entries: [Entry] = []

    init(capacity: Int = 32) {
        self.capacity = capacity
    }

    /// The verified chain of `leaf` and `intermediate` (x5c's exact bytes), marked as just used.
    func chain(leaf: [UInt8], intermediate: [UInt8]) -> Chain? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.lastIndex(where: { $0.leaf == leaf && $0.intermediate == intermediate }) else {
            return nil
        }
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.chain
    }

    /// The chain and the hashed header of the entry last seen with exactly `header`, marked as just used.
    func chain(header: ArraySlice<UInt8>) -> (Chain, SHA256)? {
        lock.lock()
        defer { lock.unlock() }
        guard let index = entries.lastIndex(where: { Self.equal($0.header, header) }) else { return nil }
        // The JWS of one chain come in runs: the entry found is usually the last already.
        if index != entries.count - 1 { entries.append(entries.remove(at: index)) }
        let entry = entries[entries.count - 1]
        return (entry.chain, entry.hashedHeader)
    }

    /// Whether two byte strings are equal, compared a block of memory at a time (a header is two
    /// kilobytes, looked up for every JWS).
    private static func equal(_ stored: [UInt8], _ candidate: ArraySlice<UInt8>) -> Bool {
        guard stored.count == candidate.count else { return false }
        return stored.withUnsafeBytes { stored in
            candidate.withUnsafeBytes { candidate in
                guard let left = stored.baseAddress, let right = candidate.baseAddress else { return true }
                return memcmp(left, right, stored.count) == 0
            }
        }
    }

    /// Stores a chain that passed every check, with the header it came in and its hash so far.
    func store(_ chain: Chain, leaf: [UInt8], intermediate: [UInt8], header: [UInt8], hashedHeader: SHA256) {
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll { $0.leaf == leaf && $0.intermediate == intermediate }
        if entries.count >= capacity { entries.removeFirst(entries.count - capacity + 1) }
        entries.append(
            Entry(leaf: leaf, intermediate: intermediate, chain: chain, header: header, hashedHeader: hashedHeader))
    }

    /// How many chains are held (tests).
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return entries.count
    }
}

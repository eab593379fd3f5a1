import Foundation

/// Makes anonymous app user ids in a backend's own form: a prefix and 32 lowercase hex digits from a
/// random number generator (the system's by default; tests inject a seeded one).
package final class AnonymousIdGenerator: @unchecked Sendable {
    // The generator is mutable state shared by concurrent callers: every draw happens under the lock.
    private let lock = NSLock()
    private var generator: any RandomNumberGenerator

    package init(_ generator: any RandomNumberGenerator) {
        self.generator = generator
    }

    /// `prefix` + 32 lowercase hex digits (128 random bits).
    package func make(prefix: String) -> String {
        let (high, low) = lock.withLock { (generator.next() as UInt64, generator.next() as UInt64) }
        return prefix + Self.hex(high) + Self.hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

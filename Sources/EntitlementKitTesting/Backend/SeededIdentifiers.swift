import EntitlementKit
import Foundation

/// Anonymous app user ids from a seeded generator (SplitMix64), so a scenario run is the same every
/// time. A lock rather than an actor because the provider protocol asks for ids synchronously.
final class SeededIdentifiers: @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// `$RCAnonymousID:` or `QON_` followed by 32 lowercase hex digits; for Adapty a lower-case UUID.
    func anonymousAppUserId(for flavour: ProviderID) -> String {
        let (high, low) = lock.withLock { (next(), next()) }
        if flavour == AdaptyProfileIdForm.flavour { return AdaptyProfileIdForm.uuid(high: high, low: low) }
        let prefix = flavour == .qonversion ? "QON_" : "$RCAnonymousID:"
        return prefix + hex(high) + hex(low)
    }

    private func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    private func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// SplitMix64 (Steele, Lea and Flood): a tiny deterministic generator, so a test's "random" inputs, ids and
/// jitter are the same on every run and a failure names the same values again.
///
/// The sequence is part of what tests see (seeded ids, the values a failure prints): keep it as it is.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose first output mixes `seed` plus the golden-ratio increment.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 pseudo-random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// SplitMix64: a tiny, fast, deterministic generator, so every run of the benchmark measures the same
/// corpus on every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// True with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ choices: [T]) -> T {
        choices[below(choices.count)]
    }

    /// `count` lowercase hexadecimal digits.
    mutating func hex(_ count: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<count).map { _ in digits[below(16)] })
    }

    /// `count` decimal digits, the first non-zero.
    mutating func decimal(_ count: Int) -> String {
        String(1 + below(9)) + String((1..<count).map { _ in Character(String(below(10))) })
    }
}

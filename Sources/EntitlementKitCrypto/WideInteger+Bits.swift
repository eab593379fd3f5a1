extension WideInteger {
    /// Bit `index`, false past the top limb.
    package func bitIfPresent(_ index: Int) -> Bool {
        index < 64 * Self.limbCapacity && bit(index)
    }

    /// The `count` bits (at most 32) starting at bit `start`, zeros past the top limb.
    package func bits(from start: Int, count: Int) -> UInt64 {
        let limb = start >> 6
        guard limb < Self.limbCapacity else { return 0 }
        let shift = UInt64(start & 63)
        var value = self[limb] >> shift
        if shift != 0, limb + 1 < Self.limbCapacity { value |= self[limb + 1] << (64 - shift) }
        return value & ((1 << UInt64(count)) - 1)
    }

    /// Shifts right by one bit; `carryIn` becomes the top bit (the 385th bit of a sum that carried out).
    package mutating func shiftRight(carryIn: Bool) {
        limbs.0 = limbs.0 >> 1 | limbs.1 << 63
        limbs.1 = limbs.1 >> 1 | limbs.2 << 63
        limbs.2 = limbs.2 >> 1 | limbs.3 << 63
        limbs.3 = limbs.3 >> 1 | limbs.4 << 63
        limbs.4 = limbs.4 >> 1 | limbs.5 << 63
        limbs.5 = limbs.5 >> 1 | (carryIn ? 1 << 63 : 0)
    }
}

extension WideInteger {
    /// A constant written in hex (spaces allowed). The curve constants are fixed literals, so a typo traps at
    /// once in every test rather than failing quietly.
    package init(hex: String) {
        self.init()
        for character in hex where character != " " {
            guard let digit = character.hexDigitValue else { preconditionFailure("constant is not hex: \(hex)") }
            // self = self · 16 + digit, by four doublings (the constants fit in 384 bits).
            for _ in 0..<4 { add(self) }
            add(WideInteger(UInt64(digit)))
        }
    }
}

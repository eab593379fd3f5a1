/// Byte comparison whose time depends on the lengths only, never on where the bytes differ: for secrets
/// and codes derived from them (an HMAC), where `==` would stop at the first difference and leak it.
public enum ConstantTimeComparison {
    /// Whether `left` and `right` hold the same bytes. Lengths are not secret: different lengths answer
    /// false at once; equal lengths are compared to the last byte.
    public static func isEqual(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) { difference |= a ^ b }
        return difference == 0
    }
}

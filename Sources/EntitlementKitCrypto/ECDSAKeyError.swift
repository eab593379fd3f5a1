/// Why bytes are not a usable ECDSA public key.
public enum ECDSAKeyError: Error, Sendable, Hashable {
    /// Not `0x04‖X‖Y` of the curve's length (compressed points and the infinity byte included).
    case notUncompressedPoint
    /// A coordinate is not below the field prime p.
    case coordinateOutOfRange
    /// (X, Y) does not satisfy the curve equation.
    case notOnCurve
}

/// The NIST prime curves App Store verification meets: P-256 signs the JWS (ES256); P-384 signs Apple's
/// certificates (ecdsa-with-SHA384).
public enum ECDSACurve: Sendable, Hashable {
    /// P-256 (secp256r1, prime256v1).
    case p256
    /// P-384 (secp384r1).
    case p384

    /// The length in bytes of a coordinate, a scalar and each half of a raw (`r‖s`) signature: 32 or 48.
    public var coordinateByteCount: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        }
    }
}

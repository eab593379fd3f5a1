/// Whether the backend's answer was checked cryptographically before it was mapped (new in schema 2).
///
/// Only the App Store adapter verifies anything today: StoreKit 2 JWS, signed by Apple, checked up to a
/// trusted root. Every other source — a vendor's REST answer over HTTPS, a decoded payload, Google Play's
/// authenticated API — is ``notRequested``: the transport is trusted, the document is not signed.
public enum SnapshotVerification: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Every signed item of the document was verified (App Store JWS up to a configured root).
    case verified
    /// The document carries no signature this package checks.
    case notRequested

    /// The raw value written in snapshots.
    public var description: String { rawValue }
}

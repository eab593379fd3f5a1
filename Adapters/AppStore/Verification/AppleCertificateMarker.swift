/// The extensions by which Apple marks the certificates of its App Store signing chain; Apple's own
/// server library refuses a chain without them, and so does ``AppStoreJWSVerifier``.
enum AppleCertificateMarker {
    /// On the App Store receipt-signing leaf certificate.
    static let receiptSigning = "1.2.840.113635.100.6.11.1"
    /// On the WWDR intermediate certificate.
    static let wwdrIntermediate = "1.2.840.113635.100.6.2.1"
}

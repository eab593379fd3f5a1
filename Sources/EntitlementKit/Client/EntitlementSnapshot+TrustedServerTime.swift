import Foundation

extension EntitlementSnapshot {
    /// The server time this answer vouches for, which may raise the client's trusted instant: its
    /// ``requestDate`` — except from the App Store unless ``verification`` is ``SnapshotVerification/verified``.
    /// An App Store `requestDate` is the newest `signedDate` in the document, and only Apple's signature makes
    /// it Apple's time; a decoded or test-data payload's dates are whatever its sender wrote (store-direct.md).
    var trustedServerTime: Date? {
        guard provider != .appStore || verification == .verified else { return nil }
        return requestDate
    }
}

import EntitlementKit
import Foundation

/// Remembers the payloads of the JWS that verified, so the on-device provider checks each transaction's
/// signature and chain once, not at every `checkEntitlements` (StoreKit hands over the same JWS until the
/// App Store changes the transaction). Sound because whether a JWS verifies depends only on its bytes and
/// the configured roots, which never change for one provider. Failures are not remembered: each is
/// checked, and refused, again.
///
/// A class with a lock: the adapter's signature check is synchronous.
final class VerifiedJWSMemo: AppStoreSignatureChecking, @unchecked Sendable {
    /// Past this many, the memo starts again (a device holds a few dozen transactions at most).
    private static let limit = 1024
    private let base: any AppStoreSignatureChecking
    // Guards `payloads`.
    private let lock = NSLock()
    private var payloads: [String: Data] = [:]

    init(base: any AppStoreSignatureChecking) {
        self.base = base
    }

    func verifiedPayload(of jws: String, path: JSONPath) throws(DocumentError) -> Data {
        if let known = lock.withLock({ payloads[jws] }) { return known }
        let payload = try base.verifiedPayload(of: jws, path: path)
        lock.withLock {
            if payloads.count >= Self.limit { payloads.removeAll() }
            payloads[jws] = payload
        }
        return payload
    }

    func unverifiedPayload(of jws: String, path: JSONPath) throws(DocumentError) -> Data {
        try base.unverifiedPayload(of: jws, path: path)
    }
}

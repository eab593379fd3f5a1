import EntitlementKit
import EntitlementKitLedger
import Foundation

/// The App Store as a source of an ``EntitlementLedger``: App Store Server Notifications V2 and the
/// App Store's documents (statuses, history, the app's StoreKit 2 JWS array) read into records, and the
/// records of a customer's purchases mapped by ``AppStoreAdapter``'s own mapping.
///
/// ```swift
/// let appStore = AppStoreLedgerSource(catalog: catalog, bundleId: "com.acme.app")
/// let ledger = EntitlementLedger(sources: [appStore])
/// let outcome = try await ledger.apply(
///     LedgerNotification(source: .appStore, body: requestBody, receivedAt: .now))
/// ```
///
/// A notification's `signedPayload` and both JWS inside it are verified as the adapter verifies a JWS
/// (a chain to a configured root at the payload's `signedDate`, Apple's marker extensions, ES256);
/// `bundleId` must be the configured one. `TEST` notifications and consumption requests store nothing.
/// Every item of a document or of what the app posts is a JWS that verifies, each transaction carrying
/// the configured `bundleId`; an item given decoded is refused ``LedgerRefusal/Kind/unsigned``. A
/// statement signed more than five minutes after the input was received refuses the whole input
/// (``LedgerRefusal/Kind/signedInFuture``). StoreKit test data (`Xcode`, `LocalTesting`), which Apple
/// never signs, is refused.
public struct AppStoreLedgerSource: LedgerSource {
    /// Which products unlock which entitlements.
    public var catalog: EntitlementCatalog
    /// The app's bundle id: every notification and transaction must carry it.
    public var bundleId: String
    let verifier: AppStoreJWSVerifier
    /// Told the path of every JWS a notification's reading verifies (a test's count: each once).
    private let verificationObserver: (@Sendable (JSONPath) -> Void)?

    /// A source for the app `bundleId`, trusting `rootCertificates` (DER; `nil`: the bundled Apple Root
    /// CA - G3 only).
    public init(catalog: EntitlementCatalog = .identity, bundleId: String, rootCertificates: [Data]? = nil) {
        self.init(catalog: catalog, bundleId: bundleId, rootCertificates: rootCertificates, verificationObserver: nil)
    }

    /// A source whose notification readings report each JWS they verify (tests only).
    package init(
        catalog: EntitlementCatalog, bundleId: String, rootCertificates: [Data]?,
        verificationObserver: (@Sendable (JSONPath) -> Void)?
    ) {
        self.catalog = catalog
        self.bundleId = bundleId
        self.verifier = AppStoreJWSVerifier(
            rootCertificates: rootCertificates ?? AppStoreJWSVerifier.appleRootCertificates)
        self.verificationObserver = verificationObserver
    }

    /// `jws` verified (its chain from the verifier's cache after the first JWS of a chain).
    func verify(_ jws: String, path: JSONPath) throws(DocumentError) -> AppStoreJWSVerifier.VerifiedJWS {
        verificationObserver?(path)
        return try verifier.verify(jws, path: path)
    }

    /// `appStore`.
    public var id: LedgerSourceID { .appStore }

    var items: AppStoreItemReader {
        AppStoreItemReader(signatures: verifier, allowsUnverifiedTestData: false, bundleId: bundleId)
    }

    public func read(_ notification: LedgerNotification) throws(LedgerRefusal) -> LedgerReading {
        try AppStoreNotificationReader(source: self).read(notification.body, receivedAt: notification.receivedAt)
    }

    /// What the app posts: one StoreKit 2 `jwsRepresentation`, or a JSON array of them, each verified.
    public func read(_ claim: LedgerClaim) throws(LedgerRefusal) -> LedgerReading {
        let records = try AppStoreLedgerDocumentReader(source: self, receivedAt: claim.receivedAt).records(
            ofClaim: claim.token)
        return LedgerReading(notificationId: nil, environment: nil, effect: .records(records))
    }

    public func read(_ document: LedgerDocument) throws(LedgerRefusal) -> LedgerReading {
        let records = try AppStoreLedgerDocumentReader(source: self, receivedAt: document.receivedAt).records(
            of: document.body)
        return LedgerReading(notificationId: nil, environment: nil, effect: .records(records))
    }

    public func snapshot(of threads: [LedgerThread], at instant: Date) throws(LedgerRefusal) -> EntitlementSnapshot {
        let document = try AppStoreLedgerRecords.document(of: threads)
        return AppStoreSnapshotMapping(catalog: catalog, document: document).snapshot(provider: .appStore, at: instant)
    }
}

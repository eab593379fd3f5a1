import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Google Play as a source of an ``EntitlementLedger``: real-time developer notifications (the Pub/Sub
/// push body) and the Play Developer API's documents with their purchase tokens, mapped by
/// ``GooglePlayAdapter``'s own mapping.
///
/// ```swift
/// let play = GooglePlayLedgerSource(catalog: catalog, packageName: "com.acme.app")
/// let ledger = EntitlementLedger(sources: [play])
/// if case .refreshNeeded(let token, let productId) = try await ledger.apply(notification) {
///     // fetch purchases.subscriptionsv2 (or products) for the token, then apply the document
/// }
/// ```
///
/// A notification says only that a purchase changed (Google's rule), so a subscription or one-time
/// notification is answered ``LedgerOutcome/refreshNeeded(purchaseToken:productId:)``; a voided purchase
/// is recorded as voided for good when the push is authenticated (``pushAuthentication``), and asks for a
/// refresh otherwise (as does a quantity-based partial refund); a test notification changes nothing. Play's documents are not signed: a snapshot from them is never
/// `verified`.
public struct GooglePlayLedgerSource: LedgerSource {
    /// Which products unlock which entitlements.
    public var catalog: EntitlementCatalog
    /// The app's package name: every notification must carry it.
    public var packageName: String

    /// How Pub/Sub pushes are authenticated; `nil` takes no push as fact (a void asks for a refresh).
    public var pushAuthentication: GooglePlayPushAuthentication?

    /// A source for the app `packageName`, authenticating pushes with `pushAuthentication` when given.
    public init(
        catalog: EntitlementCatalog = .identity, packageName: String,
        pushAuthentication: GooglePlayPushAuthentication? = nil
    ) {
        self.catalog = catalog
        self.packageName = packageName
        self.pushAuthentication = pushAuthentication
    }

    /// `googlePlay`.
    public var id: LedgerSourceID { .googlePlay }

    public func read(_ notification: LedgerNotification) throws(LedgerRefusal) -> LedgerReading {
        try GooglePlayNotificationReader(packageName: packageName, pushAuthentication: pushAuthentication)
            .read(notification)
    }

    public func read(_ document: LedgerDocument) throws(LedgerRefusal) -> LedgerReading {
        let records = try GooglePlayLedgerRecords.records(
            of: document.body, purchaseToken: document.purchaseToken, receivedAt: document.receivedAt)
        return LedgerReading(notificationId: nil, environment: nil, effect: .records(records))
    }

    public func snapshot(of threads: [LedgerThread], at instant: Date) throws(LedgerRefusal) -> EntitlementSnapshot {
        let purchases = try GooglePlayLedgerRecords.purchases(of: threads)
        do {
            return try purchases.snapshot(provider: .googlePlay, catalog: catalog, at: instant)
        } catch {
            throw LedgerRefusal(.storage, "kept Play records do not map: \(error)", documentError: error)
        }
    }
}

import EntitlementKit
import Foundation

/// Maps what Apple's App Store says about one customer — StoreKit 2 signed transactions and the App
/// Store Server API's answers — into the unified model, with a catalog of which products unlock which
/// entitlements.
///
/// Reads four documents: a Get All Subscription Statuses response (`data[].lastTransactions[]`), a Get
/// Transaction History response (`signedTransactions[]`), a JSON array of signed transactions (what an
/// app sends from `Transaction.currentEntitlements`), and an object combining them,
/// `{"statuses": …, "history": …, "transactions": […]}`. Each signed item may be given as its JWS or as
/// its decoded payload (a JSON object).
///
/// ```swift
/// let catalog = EntitlementCatalog(products: [
///     "com.acme.pro.monthly": .init(entitlementIds: ["pro"]),
///     "com.acme.pro.season": .init(entitlementIds: ["pro"], duration: ISODuration("P3M")),
/// ])
/// let adapter = AppStoreAdapter(catalog: catalog, bundleId: "com.acme.app")
/// let snapshot = try adapter.snapshot(from: data, at: .now)
/// if snapshot.isActive("pro"), snapshot.verification == .verified { unlockPro() }
/// ```
///
/// The snapshot says `verification: verified` only when every item was a JWS whose chain and signature
/// were checked. A document is refused with a located `DocumentError` — never partly mapped — when a JWS
/// does not verify, an item is StoreKit test data (`Xcode`, `LocalTesting`) and test data is not
/// allowed, a transaction's `bundleId` is not the configured one, a key it reads has the wrong JSON
/// type, a date is not a number of milliseconds, or a transaction that could unlock an entitlement lacks
/// its ids, product, purchase date or (auto-renewable) `expiresDate`. See <doc:AppStoreMapping>.
public struct AppStoreAdapter: EntitlementAdapter {
    /// Which products unlock which entitlements (``EntitlementCatalog/identity`` when not given: every
    /// product is its own entitlement).
    public var catalog: EntitlementCatalog
    /// Whether items from StoreKit testing (`environment` `Xcode` or `LocalTesting`) are read, unverified.
    public var allowsUnverifiedTestData: Bool
    /// The app's bundle id; when set, every transaction must carry it.
    public var bundleId: String?
    /// Opens JWS items: verifies them, or decodes test data.
    var signatures: any AppStoreSignatureChecking

    /// Creates the adapter.
    ///
    /// - Parameters:
    ///   - catalog: which products unlock which entitlements, with the durations of non-renewing products.
    ///   - allowsUnverifiedTestData: read `Xcode` and `LocalTesting` items (never verified).
    ///   - bundleId: the app's bundle id, which every transaction must carry.
    ///   - rootCertificates: the DER root certificates a JWS must chain to; `nil` trusts the bundled Apple
    ///     Root CA - G3 only (another root is for test chains).
    public init(
        catalog: EntitlementCatalog = .identity, allowsUnverifiedTestData: Bool = false, bundleId: String? = nil,
        rootCertificates: [Data]? = nil
    ) {
        self.catalog = catalog
        self.allowsUnverifiedTestData = allowsUnverifiedTestData
        self.bundleId = bundleId
        self.signatures = AppStoreJWSVerifier(
            rootCertificates: rootCertificates ?? AppStoreJWSVerifier.appleRootCertificates)
    }

    /// `appstore`.
    public var provider: ProviderID { .appStore }

    /// The members of the responses and of the combined object; arrays.
    public var formatMarkers: FormatMarkers { AppStoreDocumentShape.markers }

    /// A statuses response with subscription groups, a history response, a non-empty array of JWS
    /// strings or decoded transactions, or the combined object. Statuses with an empty `data` are left
    /// unclaimed (that shape is also an empty Qonversion list): name the format for them.
    public func recognizes(_ document: JSONValue) -> Bool {
        AppStoreDocumentShape.detect(document) != nil
    }

    /// The snapshot of `document` evaluated at `instant`.
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        let shape = try AppStoreDocumentShape.shape(of: document)
        var reader = AppStoreDocumentReader(
            items: AppStoreItemReader(
                signatures: signatures, allowsUnverifiedTestData: allowsUnverifiedTestData, bundleId: bundleId))
        try reader.read(document, as: shape)
        return AppStoreSnapshotMapping(catalog: catalog, document: reader.document).snapshot(
            provider: provider, at: instant)
    }
}

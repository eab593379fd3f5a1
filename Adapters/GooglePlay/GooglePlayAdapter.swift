import EntitlementKit
import Foundation

/// Maps Google Play Developer API purchase resources into the unified model.
///
/// Reads, as a server that asks Google directly has them:
/// - a `purchases.subscriptionsv2.get` response (`SubscriptionPurchaseV2`);
/// - a `purchases.products.get` response (`ProductPurchase`) that carries its `productId` (Google sends
///   the product id only in the request path, so most stored responses need the listing form);
/// - the per-customer listing `{"subscriptions": [{"purchaseToken", "purchase"}], "products":
///   [{"productId", "purchaseToken", "purchase"}]}`.
///
/// Play answers with products, not entitlements: an ``EntitlementCatalog`` says which products unlock
/// which entitlements (without one, every product is its own entitlement).
///
/// ```swift
/// let catalog = try EntitlementCatalog(json: catalogData)
/// let snapshot = try GooglePlayAdapter(catalog: catalog).snapshot(from: listingData, at: .now)
/// if snapshot["pro"]?.isActive == true { unlockPro() }
/// ```
///
/// The responses are not signed (they come over an authenticated API), so every snapshot says
/// `verification: notRequested`. A document is refused with a located `DocumentError` — never partly
/// mapped — when a member it reads has the wrong JSON type, a timestamp is unreadable, a line item that
/// would grant access has no `expiryTime`, a listing repeats a token with a different purchase or its
/// `linkedPurchaseToken`s form a loop, or the body is a Google API error. Unknown states and phases
/// never fail a document: they grant nothing / map to `unknown`. See <doc:GooglePlayMapping>.
public struct GooglePlayAdapter: EntitlementAdapter {
    /// Which products unlock which entitlements.
    public let catalog: EntitlementCatalog

    /// Creates the adapter; without a catalog every product is its own entitlement.
    public init(catalog: EntitlementCatalog = .identity) {
        self.catalog = catalog
    }

    /// `googleplay`.
    public var provider: ProviderID { .googlePlay }

    /// `kind`, `lineItems`, `purchaseTimeMillis`, `subscriptions` or `products`.
    public var formatMarkers: FormatMarkers { GooglePlayDocumentForm.markers }

    /// A `SubscriptionPurchaseV2` (`kind`, or `lineItems` with `subscriptionState`), a `ProductPurchase`
    /// (`kind`, or `purchaseTimeMillis` with `purchaseState`), or a listing whose `subscriptions` /
    /// `products` are arrays of `{…, "purchase": …}`.
    public func recognizes(_ document: JSONValue) -> Bool {
        GooglePlayDocumentForm.recognized(document) != nil
    }

    /// The snapshot of `document` evaluated at `instant`: a subscription's line item grants access while
    /// its state is active, in grace period or canceled **and** `instant <= expiryTime`.
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        let form = try GooglePlayDocumentForm.assumed(document)
        return try PlayPurchases(reading: document, form: form).snapshot(
            provider: provider, catalog: catalog, at: instant)
    }
}

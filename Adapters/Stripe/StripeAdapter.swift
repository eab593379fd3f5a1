import EntitlementKit
import Foundation

/// Maps Stripe Billing objects — subscriptions and one-time Checkout purchases — into the unified model.
///
/// Reads, as a server that stores Stripe's objects (or fetches them with its secret key) has them:
/// - a Subscription, in either API-version shape (the period on the items from `2025-03-31.basil`, on the
///   subscription before);
/// - a list object of Subscriptions and Checkout Sessions (every page: a partial list is refused);
/// - a Checkout Session retrieved with `expand[]=line_items`;
/// - an Event carrying a subscription or a session (a webhook body);
/// - the combined per-customer object `{"subscriptions": […], "checkoutSessions": […], "charges": […],
///   "events": […]}`.
///
/// Stripe sells prices of products, not entitlements: an ``EntitlementCatalog`` keyed by price id, price
/// `lookup_key` or product id says what each unlocks (without one, every product is its own entitlement).
///
/// ```swift
/// let catalog = try EntitlementCatalog(json: catalogData)
/// let adapter = StripeAdapter(configuration: .init(catalog: catalog))
/// let snapshot = try adapter.snapshot(from: customerData, at: .now)
/// if snapshot["pro"]?.isActive == true { unlockPro() }
/// ```
///
/// A document is refused with a located `DocumentError` — never partly mapped — when a member it reads has
/// the wrong JSON type, a timestamp is not an integer in range, a list says `has_more: true`, a subscription
/// that grants access states no period end, a payment-mode session lacks its `line_items`, an id appears
/// twice, or an event does not carry what its type says. Unknown statuses never fail a document: they grant
/// nothing. See <doc:StripeMapping>.
public struct StripeAdapter: EntitlementAdapter {
    /// How the adapter reads a customer's objects.
    public struct Configuration: Sendable, Hashable {
        /// Which prices (by id or lookup key) or products unlock which entitlements.
        public var catalog: EntitlementCatalog
        /// The metadata key whose value names the app user id: `app_user_id` by default (RevenueCat's
        /// convention), set on a Subscription's or a Checkout Session's `metadata`.
        public var appUserIdMetadataKey: String

        /// A configuration; without a catalog every product is its own entitlement.
        public init(catalog: EntitlementCatalog = .identity, appUserIdMetadataKey: String = "app_user_id") {
            self.catalog = catalog
            self.appUserIdMetadataKey = appUserIdMetadataKey
        }
    }

    /// How documents are read.
    public let configuration: Configuration

    /// Creates the adapter.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// `stripe`.
    public var provider: ProviderID { .stripe }

    /// `object`, `subscriptions`, `checkoutSessions`, `charges` or `events`.
    public var formatMarkers: FormatMarkers { StripeDocumentForm.markers }

    /// A top-level `object` of `subscription`, `checkout.session` or `event`; a `list` of Subscriptions and
    /// Checkout Sessions; or a combined object whose first element says it is a Stripe object.
    public func recognizes(_ document: JSONValue) -> Bool {
        StripeDocumentForm.recognized(document) != nil
    }

    /// The snapshot of `document` evaluated at `instant` (`verification: notRequested`: the objects came
    /// over Stripe's authenticated API).
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        let form = try StripeDocumentForm.assumed(document)
        return try objects(in: document, form: form).snapshot(
            provider: provider, catalog: configuration.catalog, verification: .notRequested, at: instant)
    }

    /// The snapshot of a webhook event whose signature ``StripeWebhookVerifier`` checked
    /// (`verification: verified`).
    public func snapshot(from event: StripeVerifiedEvent, at instant: Date) throws(DocumentError)
        -> EntitlementSnapshot
    {
        try objects(in: event.document, form: .event).snapshot(
            provider: provider, catalog: configuration.catalog, verification: .verified, at: instant)
    }

    func objects(in document: JSONNode, form: StripeDocumentForm) throws(DocumentError) -> StripeObjects {
        try StripeWireReader(appUserIdKey: configuration.appUserIdMetadataKey).read(document, as: form)
    }
}

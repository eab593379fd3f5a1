import Foundation

/// What one backend says about one entitlement of one customer, evaluated at one instant.
///
/// An entitlement (`premium`, `pro`) is a level of access that one or more products unlock. The same
/// type describes RevenueCat's and Qonversion's entitlements; fields a backend does not send are `nil`
/// or `.unknown`.
///
/// Access is not stored: ``isActive`` is computed from the facts the entitlement holds — its
/// ``expirationDate``, whether the backend grants nothing whatever the dates say (``denial``) and the
/// instant it is judged at (``evaluatedAt``) — by the unified rule, ``isActive(expirationDate:denial:at:)``.
/// Changing any of them changes the answer, so the answer can never disagree with the facts; the same
/// facts say why (``accessReason``). ``evaluated(at:)`` judges them at another instant, earlier or later.
public struct Entitlement: Sendable, Hashable, Identifiable {
    /// The entitlement identifier (`premium`).
    public var id: String
    /// The instant ``isActive`` answers for. Inside a snapshot it is always the snapshot's
    /// ``EntitlementSnapshot/evaluatedAt``; ``evaluated(at:)`` moves it.
    public internal(set) var evaluatedAt: Date
    /// Why the backend grants nothing whatever the dates say (a refund, a revoke, a store state, its own
    /// "inactive" flag), or `nil` when ``expirationDate`` decides: while set, there is no access at any
    /// instant.
    public var denial: Denial?
    /// The product that unlocked it (bare, without a Google base plan).
    public var productId: String?
    /// The Google Play base plan of ``productId``.
    public var productPlanId: String?
    /// Whether and how it renews.
    public var renewState: RenewState
    /// The kind of period the customer is in.
    public var periodType: PeriodType
    /// Where it was bought.
    public var store: Store
    /// The backend's own name for ``store`` (`app_store`, `appstore`, `roku`); `nil` when it sent none
    /// (an empty string is none).
    public var storeRaw: String?
    /// Bought in a sandbox / test environment.
    public var isSandbox: Bool
    /// How the customer came to hold it.
    public var grantType: GrantType
    /// Purchased or family-shared.
    public var ownershipType: OwnershipType
    /// The first start of this entitlement.
    public var originalPurchaseDate: Date?
    /// The first paid purchase.
    public var firstPurchaseDate: Date?
    /// The latest purchase or renewal.
    public var latestPurchaseDate: Date?
    /// When a free trial started.
    public var trialStartDate: Date?
    /// The end of access; `nil` means lifetime (no expiry).
    public var expirationDate: Date?
    /// The end of a store billing grace period, as reported (access already follows ``expirationDate``).
    public var gracePeriodExpirationDate: Date?
    /// When auto-renew was switched off.
    public var unsubscribeDetectedAt: Date?
    /// When the store reported a billing problem.
    public var billingIssueDetectedAt: Date?
    /// When it was refunded.
    public var refundedAt: Date?
    /// Why the subscription ended or will end, when the backend says (schema 2); `nil` when it does not.
    public var cancellationReason: CancellationReason?
    /// The backend's own spelling of the cancellation reason, when it gave one (`voluntarily_cancelled`,
    /// `REFUND_FULL`); kept beside ``cancellationReason`` so an unknown value is not lost.
    public var cancellationReasonRaw: String?
    /// How many times it renewed, when the backend counts.
    public var renewsCount: Int?
    /// The last offer code the customer activated.
    public var lastActivatedOfferCode: String?
    /// The transactions that unlocked it, oldest first.
    public var transactions: [Transaction]

    /// Whether it is set to renew: exactly `renewState == .willRenew`.
    public var willRenew: Bool { renewState == .willRenew }

    /// Whether the customer has access at ``evaluatedAt``: no ``denial``, and no ``expirationDate`` or
    /// ``evaluatedAt`` at or before it (``isActive(expirationDate:denial:at:)``).
    public var isActive: Bool {
        Self.isActive(expirationDate: expirationDate, denial: denial, at: evaluatedAt)
    }

    /// Creates an entitlement evaluated at `instant`.
    ///
    /// Each argument sets the property of the same name. ``isActive`` is not an argument: it is computed
    /// from `expirationDate`, `denial` and `instant` by the unified rule,
    /// ``isActive(expirationDate:denial:at:)``. Pass a `denial` where the backend grants nothing whatever
    /// the dates say (Qonversion's `active: 0` is ``Denial/Code/vendorInactive``), and `nil` when access
    /// is decided by the expiration date alone.
    public init(
        id: String,
        productId: String? = nil,
        productPlanId: String? = nil,
        renewState: RenewState = .unknown,
        periodType: PeriodType = .unknown,
        store: Store = .unknown,
        storeRaw: String? = nil,
        isSandbox: Bool = false,
        grantType: GrantType = .unknown,
        ownershipType: OwnershipType = .unknown,
        originalPurchaseDate: Date? = nil,
        firstPurchaseDate: Date? = nil,
        latestPurchaseDate: Date? = nil,
        trialStartDate: Date? = nil,
        expirationDate: Date? = nil,
        gracePeriodExpirationDate: Date? = nil,
        unsubscribeDetectedAt: Date? = nil,
        billingIssueDetectedAt: Date? = nil,
        refundedAt: Date? = nil,
        cancellationReason: CancellationReason? = nil,
        cancellationReasonRaw: String? = nil,
        renewsCount: Int? = nil,
        lastActivatedOfferCode: String? = nil,
        transactions: [Transaction] = [],
        denial: Denial? = nil,
        at instant: Date
    ) {
        self.id = id
        self.evaluatedAt = instant
        self.denial = denial
        self.productId = productId.nonEmpty
        self.productPlanId = productPlanId.nonEmpty
        self.renewState = renewState
        self.periodType = periodType
        self.store = store
        self.storeRaw = storeRaw.nonEmpty
        self.isSandbox = isSandbox
        self.grantType = grantType
        self.ownershipType = ownershipType
        self.originalPurchaseDate = originalPurchaseDate
        self.firstPurchaseDate = firstPurchaseDate
        self.latestPurchaseDate = latestPurchaseDate
        self.trialStartDate = trialStartDate
        self.expirationDate = expirationDate
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
        self.unsubscribeDetectedAt = unsubscribeDetectedAt
        self.billingIssueDetectedAt = billingIssueDetectedAt
        self.refundedAt = refundedAt
        self.cancellationReason = cancellationReason
        self.cancellationReasonRaw = cancellationReasonRaw.nonEmpty
        self.renewsCount = renewsCount
        self.lastActivatedOfferCode = lastActivatedOfferCode
        self.transactions = transactions
    }
}

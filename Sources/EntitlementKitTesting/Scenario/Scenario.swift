import EntitlementKit
import Foundation

/// A customer's story over time — installs, purchases, logins, restores, store events, the clock, the
/// network — and what the app must see at each step. Read from a scenario file with
/// ``init(json:)`` or ``init(contentsOf:)``, run with ``ScenarioRunner``. See <doc:ScenarioFormat>.
public struct Scenario: Sendable, Hashable {
    /// The story's title (`scenario`), if given.
    public var title: String?
    /// True time when the story starts.
    public var start: Date
    /// How the simulated backend treats a receipt owned by another identified customer.
    public var restoreBehavior: RestoreBehavior
    /// How long a cached answer is fresh (`freshFor`, default `PT5M`).
    public var freshFor: Duration
    /// The products the stores sell, by product id.
    public var products: [String: ScenarioProduct]
    /// The steps, in order.
    public var steps: [ScenarioStep]

    /// Creates a scenario from its parts (files are read with ``init(json:)``).
    public init(
        title: String? = nil, start: Date, restoreBehavior: RestoreBehavior = .transferToNewAppUserId,
        freshFor: Duration = .seconds(300), products: [String: ScenarioProduct] = [:], steps: [ScenarioStep]
    ) {
        self.title = title
        self.start = start
        self.restoreBehavior = restoreBehavior
        self.freshFor = freshFor
        self.products = products
        self.steps = steps
    }
}

/// What the backend does when a receipt already owned by another identified customer is posted
/// (RevenueCat's project setting; the simulated backend applies it for every provider).
public enum RestoreBehavior: String, Sendable, Hashable, CaseIterable {
    /// The receipt moves to the customer posting it (the default).
    case transferToNewAppUserId
    /// The receipt moves unless it holds an active auto-renewable subscription.
    case transferIfNoActiveSubscriptions
    /// Nothing moves; the poster gets `receiptInUseByOtherUser`.
    case keepWithOriginalAppUserId
    /// The two customers are merged (legacy).
    case shareBetweenAppUserIds
}

/// A product a store sells in a scenario.
public struct ScenarioProduct: Sendable, Hashable {
    /// What kind of product it is.
    public enum Kind: Sendable, Hashable {
        /// A subscription that renews every `period` while auto-renew is on and billing works; `trial`
        /// first when the receipt never held the product; access lasts `gracePeriod` past a failed renewal.
        case autoRenewable(period: ISODuration, trial: ISODuration?, gracePeriod: ISODuration?)
        /// Access for one `period`, credited to the buyer (never on a receipt).
        case nonRenewing(period: ISODuration)
        /// Lifetime access, on the store account's receipt.
        case nonConsumable
        /// Grants nothing; credited to the buyer.
        case consumable

        /// The scenario file's name for it.
        public var name: String {
            switch self {
            case .autoRenewable: "autoRenewable"
            case .nonRenewing: "nonRenewing"
            case .nonConsumable: "nonConsumable"
            case .consumable: "consumable"
            }
        }

        /// Whether a purchase of it sits on the store account's receipt.
        public var isOnReceipt: Bool {
            switch self {
            case .autoRenewable, .nonConsumable: true
            case .nonRenewing, .consumable: false
            }
        }
    }

    /// The product id.
    public var id: String
    /// Its kind.
    public var kind: Kind
    /// The entitlements it unlocks (none for a consumable).
    public var entitlements: [String]

    /// Describes a product.
    public init(id: String, kind: Kind, entitlements: [String] = []) {
        self.id = id
        self.kind = kind
        self.entitlements = entitlements
    }
}

/// An app user id as a scenario writes it: a literal id, or `"@label"` naming an id a step produced.
public enum AppUserIdReference: Sendable, Hashable, CustomStringConvertible {
    /// The id itself.
    case literal(String)
    /// The id a `configure` or `logOut` labelled.
    case label(String)

    /// `"@label"` or the literal.
    public var description: String {
        switch self {
        case .literal(let id): id
        case .label(let label): "@" + label
        }
    }
}

/// One step of a story: exactly one action and what the app must see after it.
public struct ScenarioStep: Sendable, Hashable {
    /// Counted from 1.
    public var number: Int
    /// What happens.
    public var action: ScenarioAction
    /// What must hold afterwards (only the keys given).
    public var expectations: ScenarioExpectations

    /// Creates a step.
    public init(number: Int, action: ScenarioAction, expectations: ScenarioExpectations = ScenarioExpectations()) {
        self.number = number
        self.action = action
        self.expectations = expectations
    }
}

/// A store-side event on a store account's latest purchase of a product.
public enum StoreEvent: String, Sendable, Hashable, CaseIterable {
    /// Auto-renew turned off now: access to the end of the current period.
    case cancel
    /// Auto-renew turned back on (while the period lasts).
    case resume
    /// Renewals fail from now; access lasts to the period end plus the grace period.
    case billingIssue
    /// Billing works again; within the grace time the subscription renews from the failed renewal's date.
    case billingRecovered
    /// The latest transaction is revoked now.
    case refund
}

/// The one action of a step.
public enum ScenarioAction: Sendable, Hashable {
    /// Starts the app on a device (a relaunch when already configured).
    case configure(
        device: String, appUserId: AppUserIdReference?, storeAccount: String, store: Store, label: String?)
    /// Wipes the device's storage.
    case reinstall(device: String)
    /// Client logIn.
    case logIn(device: String, appUserId: AppUserIdReference)
    /// Client logOut; `label` names the new anonymous id.
    case logOut(device: String, label: String?)
    /// The device's store account buys a product now.
    case purchase(device: String, product: String)
    /// The device's store account's receipt is posted (a user-initiated restore).
    case restore(device: String)
    /// The device's store account's receipt is posted (a programmatic sync).
    case syncPurchases(device: String)
    /// checkEntitlements with a fetch policy.
    case check(device: String, policy: FetchPolicy)
    /// A store-side event.
    case store(storeAccount: String, product: String, event: StoreEvent)
    /// True time moves forward.
    case advance(ISODuration)
    /// The device's clock is set to true time + offset.
    case deviceClock(device: String, offset: ISODuration)
    /// The device goes off or back on the network.
    case network(device: String, online: Bool)
    /// The backend's own view of a customer.
    case lookup(appUserId: AppUserIdReference)

    /// The action's name in the file.
    public var name: String {
        switch self {
        case .configure: "configure"
        case .reinstall: "reinstall"
        case .logIn: "logIn"
        case .logOut: "logOut"
        case .purchase: "purchase"
        case .restore: "restore"
        case .syncPurchases: "syncPurchases"
        case .check: "check"
        case .store: "store"
        case .advance: "advance"
        case .deviceClock: "deviceClock"
        case .network: "network"
        case .lookup: "lookup"
        }
    }

    /// The device it acts on, if any.
    public var device: String? {
        switch self {
        case .configure(let device, _, _, _, _), .reinstall(let device), .logIn(let device, _),
            .logOut(let device, _), .purchase(let device, _), .restore(let device), .syncPurchases(let device),
            .check(let device, _), .deviceClock(let device, _), .network(let device, _):
            device
        case .store, .advance, .lookup:
            nil
        }
    }
}

/// What a step expects. `nil` means "not compared".
public struct ScenarioExpectations: Sendable, Hashable {
    /// The set of active entitlement ids.
    public var active: Set<String>?
    /// Renew state per entitlement id.
    public var renewState: [String: RenewState]?
    /// Expiration date per entitlement id (`.some(nil)`: no expiry).
    public var expirationDate: [String: Date?]?
    /// The error code reported with the answer; `.some(nil)`: none.
    public var error: EntitlementClientError.Code??
    /// Where the answer came from.
    public var source: String?
    /// The device's current app user id after the step.
    public var appUserId: AppUserIdReference?
    /// Whether the device's current id is anonymous.
    public var isAnonymous: Bool?
    /// logIn's `created`.
    public var created: Bool?
    /// The ids that resolve to the looked-up customer.
    public var aliases: [AppUserIdReference]?
    /// How many snapshots the device's update stream has yielded since its last configure.
    public var updates: Int?

    /// No expectations.
    public init() {}

    /// Whether nothing is expected.
    public var isEmpty: Bool { self == ScenarioExpectations() }
}

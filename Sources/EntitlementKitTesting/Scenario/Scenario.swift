import EntitlementKit
import Foundation

/// A customer's story over time — installs, purchases, logins, restores, store events, the clock, the
/// network — and what the app must see at each step. Read from a scenario file with
/// ``init(json:)-(Data)`` or ``init(contentsOf:)``, run with ``ScenarioRunner``. See <doc:ScenarioFormat>.
public struct Scenario: Sendable, Hashable {
    /// The story's title (`scenario`), if given.
    public var title: String?
    /// True time when the story starts.
    public var start: Date
    /// How the simulated backend treats a receipt owned by another identified customer.
    public var restoreBehavior: RestoreBehavior
    /// How long a cached answer is fresh (`freshFor`, default `PT5M`); calendar months and years take
    /// their length from `start` (`P1M` from Jan 1 is 31 days), one length for the whole story.
    public var freshFor: Duration
    /// The products the stores sell, by product id.
    public var products: [String: ScenarioProduct]
    /// The steps, in order.
    public var steps: [ScenarioStep]

    /// Creates a scenario from its parts (files are read with ``init(json:)-(Data)``).
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

extension Scenario {
    /// The scenario's products as a store adapter's catalog: each product unlocks its entitlements (a
    /// non-renewing one for its period); consumables unlock nothing.
    public var storeCatalog: EntitlementCatalog {
        var products: [String: EntitlementCatalog.Product] = [:]
        for product in self.products.values {
            switch product.kind {
            case .consumable: continue
            case .nonRenewing(let period):
                products[product.id] = .init(entitlementIds: product.entitlements, duration: period)
            case .autoRenewable, .nonConsumable: products[product.id] = .init(entitlementIds: product.entitlements)
            }
        }
        return EntitlementCatalog(products: products)
    }
}

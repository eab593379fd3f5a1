/// The identity rules of a subscription backend, as RevenueCat documents them (scenario seeds 002 and
/// 004): what posting a receipt and logging in do to customers. Pure decisions over the facts a backend
/// holds; the backend applies them to its own state (the test kit's simulated backend, the ledger).
public enum IdentityRules {
    /// Who owns a receipt when a customer posts it.
    public enum ReceiptOwner: Sendable, Hashable {
        /// No one, or the poster's customer.
        case noneOrPoster
        /// A customer whose ids are all anonymous.
        case anonymous
        /// A customer with an identified id.
        case identified
    }

    /// What posting a receipt does.
    public enum Posting: Sendable, Hashable {
        /// The poster's customer owns the receipt (it had no owner, or already was the poster's).
        case keep
        /// The receipt moves to the poster's customer; the owner loses it.
        case transfer
        /// The owner's and the poster's customers become one (aliased).
        case merge
        /// Nothing moves; the poster is answered `receiptInUseByOtherUser`.
        case receiptInUseByOtherUser
    }

    /// Posting a receipt owned by `owner` under `behavior`; `heldActiveSubscription` is whether the owner
    /// held an auto-renewable subscription active at the posting instant, in **any** purchase it owns (not
    /// only the posted ones), before anything was added.
    public static func posting(
        owner: ReceiptOwner, behavior: RestoreBehavior, heldActiveSubscription: Bool
    ) -> Posting {
        switch owner {
        case .noneOrPoster: return .keep
        case .anonymous: return .merge
        case .identified:
            switch behavior {
            case .transferToNewAppUserId: return .transfer
            case .transferIfNoActiveSubscriptions: return heldActiveSubscription ? .receiptInUseByOtherUser : .transfer
            case .keepWithOriginalAppUserId: return .receiptInUseByOtherUser
            case .shareBetweenAppUserIds: return .merge
            }
        }
    }

    /// The customer a logIn goes to.
    public enum LogInTarget: Sendable, Hashable {
        /// No customer has the new id.
        case unknown
        /// The current id's own customer already has it.
        case sameCustomer
        /// Another customer has it; `hasAnonymousId` says whether one of its ids is anonymous.
        case otherCustomer(hasAnonymousId: Bool)
    }

    /// What a logIn does.
    public enum LogIn: Sendable, Hashable {
        /// Nothing changes (the ids are equal, or the customers stay apart).
        case none
        /// The new id becomes an alias of the current id's customer.
        case aliasNewId
        /// The current id's customer is merged into the new id's.
        case mergeIntoNewIdsCustomer
    }

    /// logIn from an id to a different id whose customer is `target`. `currentCustomerIsAnonymous` is
    /// whether the **customer** the current id belongs to holds no identified id: an anonymous id already
    /// logged in to an identified customer is that customer's, and a logIn from it never gives that
    /// customer (or its purchases) to the new id.
    public static func logIn(currentCustomerIsAnonymous: Bool, target: LogInTarget) -> LogIn {
        guard currentCustomerIsAnonymous else { return .none }
        switch target {
        case .unknown: return .aliasNewId
        case .sameCustomer: return .none
        case .otherCustomer(let hasAnonymousId): return hasAnonymousId ? .none : .mergeIntoNewIdsCustomer
        }
    }
}

/// What a backend does when a receipt already owned by another identified customer is posted
/// (RevenueCat's project setting; the simulated backend and the ledger apply it for every store).
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

import Foundation

/// One store transaction: a purchase, a renewal, a trial start.
///
/// `originalTransactionId` names the store's subscription chain, which both backends see when a customer
/// moves between them: the key to match one purchase across backends.
public struct Transaction: Sendable, Hashable {
    /// The store's transaction id.
    public var transactionId: String?
    /// The store's original transaction id: the first transaction of the subscription chain.
    public var originalTransactionId: String?
    /// The product bought.
    public var productId: String?
    /// What the transaction did.
    public var type: TransactionType
    /// When it happened.
    public var transactionDate: Date?
    /// When the period it paid for ends; `nil` for one-time purchases.
    public var expirationDate: Date?
    /// When it was refunded or its Family Sharing access revoked.
    public var revocationDate: Date?
    /// Production or sandbox.
    public var environment: Environment
    /// Bought by the customer or shared with them.
    public var ownershipType: OwnershipType
    /// The offer code redeemed with it.
    public var offerCode: String?
    /// Where it was made.
    public var store: Store

    /// Creates a transaction; every field but the type defaults to "not said".
    public init(
        transactionId: String? = nil,
        originalTransactionId: String? = nil,
        productId: String? = nil,
        type: TransactionType = .unknown,
        transactionDate: Date? = nil,
        expirationDate: Date? = nil,
        revocationDate: Date? = nil,
        environment: Environment = .unknown,
        ownershipType: OwnershipType = .unknown,
        offerCode: String? = nil,
        store: Store = .unknown
    ) {
        self.transactionId = transactionId.nonEmpty
        self.originalTransactionId = originalTransactionId.nonEmpty
        self.productId = productId.nonEmpty
        self.type = type
        self.transactionDate = transactionDate
        self.expirationDate = expirationDate
        self.revocationDate = revocationDate
        self.environment = environment
        self.ownershipType = ownershipType
        self.offerCode = offerCode
        self.store = store
    }
}

extension Optional where Wrapped == String {
    /// `nil` for an empty string: an empty identifier means "not said".
    var nonEmpty: String? {
        switch self {
        case .some(let text) where !text.isEmpty: text
        default: nil
        }
    }
}

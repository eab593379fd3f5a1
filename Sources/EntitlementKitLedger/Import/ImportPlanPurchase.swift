import EntitlementKit
import Foundation

/// One purchase of an import plan, named by its store id.
///
/// In the plan's JSON form: `{"store": "appStore", "originalTransactionId": "…"}`, `{"store": "googlePlay",
/// "purchaseToken": "…"}` or `{"store": "googlePlay", "orderId": "GPA.…"}`, `{"store": "stripe",
/// "subscription": "sub_…"}` or `{"store": "stripe", "checkoutSession": "cs_…"}`, each with an optional
/// `productId`.
public struct ImportPlanPurchase: Sendable, Hashable {
    /// The store id that names the purchase (the thread it becomes in the ledger).
    public enum Reference: Sendable, Hashable {
        /// An App Store purchase: its `originalTransactionId` (decimal digits).
        case appStore(originalTransactionId: String)
        /// A Google Play purchase: its purchase token.
        case googlePlay(purchaseToken: String)
        /// A Google Play purchase known only by its first order id (`GPA.` and dash-grouped digits, no `..N`
        /// renewal suffix): it cannot be linked until Google's Orders API gives its purchase token.
        case googlePlayOrder(orderId: String)
        /// A Stripe subscription: its `sub_` id.
        case stripeSubscription(String)
        /// A Stripe one-time purchase: its Checkout Session's `cs_` id.
        case stripeCheckoutSession(String)
    }

    /// The purchase's store id.
    public var reference: Reference
    /// The product, when the source named one.
    public var productId: String?

    /// A purchase named by `reference`; an empty `productId` counts as none.
    public init(_ reference: Reference, productId: String? = nil) {
        self.reference = reference
        self.productId = productId?.isEmpty == false ? productId : nil
    }
}

extension ImportPlanPurchase.Reference {
    /// `appStore`, `googlePlay` or `stripe`: the plan's `store`.
    public var store: String {
        switch self {
        case .appStore: "appStore"
        case .googlePlay, .googlePlayOrder: "googlePlay"
        case .stripeSubscription, .stripeCheckoutSession: "stripe"
        }
    }

    /// The member holding the id (`originalTransactionId`, `purchaseToken`, `orderId`, `subscription`,
    /// `checkoutSession`) and the id.
    public var member: (key: String, id: String) {
        switch self {
        case .appStore(let id): ("originalTransactionId", id)
        case .googlePlay(let token): ("purchaseToken", token)
        case .googlePlayOrder(let id): ("orderId", id)
        case .stripeSubscription(let id): ("subscription", id)
        case .stripeCheckoutSession(let id): ("checkoutSession", id)
        }
    }

    /// The reference of `id` under the plan's `store` and `key`, when the id has that kind's form; else why
    /// not. Forms: App Store — decimal digits; Play — a token of letters, digits, `.`, `-`, `_`, or an order id
    /// ``ImportPlanPurchase/playOrderId(_:)`` accepts without a renewal suffix; Stripe — `sub_` or `cs_`
    /// followed by letters, digits and `_`.
    static func reading(store: String, key: String, id: String) -> Result<Self, ImportIdError> {
        switch (store, key) {
        case ("appStore", "originalTransactionId"):
            guard !id.isEmpty, id.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return .failure(ImportIdError("is not an App Store original transaction id (decimal digits)"))
            }
            return .success(.appStore(originalTransactionId: id))
        case ("googlePlay", "purchaseToken"):
            guard !id.isEmpty, id.utf8.allSatisfy(Self.isTokenByte) else {
                return .failure(ImportIdError("is not a Play purchase token"))
            }
            return .success(.googlePlay(purchaseToken: id))
        case ("googlePlay", "orderId"):
            guard ImportPlanPurchase.isFirstOrderId(id) else {
                return .failure(
                    ImportIdError("is not a Play order id (GPA. and dash-grouped digits, without a ..N renewal suffix)")
                )
            }
            return .success(.googlePlayOrder(orderId: id))
        case ("stripe", "subscription"):
            guard Self.isStripeId(id, prefix: "sub_") else {
                return .failure(ImportIdError("is not a Stripe subscription id (sub_…)"))
            }
            return .success(.stripeSubscription(id))
        case ("stripe", "checkoutSession"):
            guard Self.isStripeId(id, prefix: "cs_") else {
                return .failure(ImportIdError("is not a Stripe Checkout Session id (cs_…)"))
            }
            return .success(.stripeCheckoutSession(id))
        default:
            return .failure(ImportIdError("is not an id of store \(store)"))
        }
    }

    /// The id members each store takes in a plan.
    static func keys(ofStore store: String) -> [String]? {
        switch store {
        case "appStore": ["originalTransactionId"]
        case "googlePlay": ["purchaseToken", "orderId"]
        case "stripe": ["subscription", "checkoutSession"]
        default: nil
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }

    private static func isStripeId(_ id: String, prefix: String) -> Bool {
        guard id.hasPrefix(prefix), id.utf8.count > prefix.utf8.count else { return false }
        return id.utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "_"): true
            default: false
            }
        }
    }
}

extension ImportPlanPurchase {
    /// Whether `id` is a Play order id as Google writes a purchase's first order: `GPA.` then groups of
    /// digits joined by single dashes (`GPA.1234-5678-9012-34567`), without a renewal suffix.
    public static func isFirstOrderId(_ id: String) -> Bool {
        guard id.hasPrefix("GPA.") else { return false }
        let groups = id.utf8.dropFirst(4).split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        return groups.count >= 2 && groups.allSatisfy { !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } }
    }

    /// The purchase's first order id of a Play order id: a renewal's `..N` suffix (N decimal digits) removed,
    /// so a subscription's renewals (`GPA.1234-5678-9012-34567..3`) name one purchase; `nil` when the result
    /// is not an order id (``isFirstOrderId(_:)``).
    public static func playOrderId(_ id: String) -> String? {
        var first = Substring(id)
        if let marker = id.range(of: "..", options: .backwards) {
            let suffix = id[marker.upperBound...]
            guard !suffix.isEmpty, suffix.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            first = id[..<marker.lowerBound]
        }
        let order = String(first)
        return isFirstOrderId(order) ? order : nil
    }

    /// `{"store", <id member>, "productId"?}`.
    public var jsonValue: JSONValue {
        let (key, id) = reference.member
        var members: [String: JSONValue] = ["store": .string(reference.store), key: .string(id)]
        if let productId { members["productId"] = .string(productId) }
        return .object(members)
    }

    /// Reads one purchase of a plan strictly: `store` one of `appStore`, `googlePlay`, `stripe`; exactly one id
    /// member of that store, in its form; an optional non-empty `productId`; no other member.
    public init(json node: JSONNode) throws(DocumentError) {
        let members = try node.members()
        let storeNode = try node.required("store")
        let store = try storeNode.string()
        guard let keys = Reference.keys(ofStore: store) else {
            throw storeNode.invalid("is not a store of an import plan (appStore, googlePlay or stripe)")
        }
        for key in members.keys.sorted() where key != "store" && key != "productId" && !keys.contains(key) {
            throw DocumentError(
                kind: .inconsistent, path: node.path.appending(key),
                reason: "is not a member of a \(store) purchase (\(keys.joined(separator: " or ")), productId)")
        }
        let given = keys.filter { members[$0] != nil }
        guard given.count == 1, let key = given.first else {
            throw DocumentError(
                kind: given.isEmpty ? .missingField : .inconsistent, path: node.path,
                reason: "must name the purchase by exactly one of \(keys.joined(separator: ", "))")
        }
        let idNode = try node.required(key)
        switch Reference.reading(store: store, key: key, id: try idNode.string()) {
        case .success(let reference): self.reference = reference
        case .failure(let error): throw idNode.invalid(error.reason)
        }
        productId = nil
        if let productNode = try node.optional("productId") {
            let product = try productNode.string()
            guard !product.isEmpty else { throw productNode.invalid("is empty (leave productId out)") }
            productId = product
        }
    }
}

/// Why an id does not have its kind's form.
struct ImportIdError: Error, Sendable {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

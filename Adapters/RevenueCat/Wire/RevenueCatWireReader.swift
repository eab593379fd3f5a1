import EntitlementKit
import Foundation

// Reading the v1 subscriber body through `JSONNode`, so every refusal names its path and value.
//
// Strict and lenient exactly where RevenueCat's iOS SDK (the reference decoder) is: `store`,
// `period_type`, `ownership_type` and the subscriber's `management_url` never fail a document; every
// other field that is read must have its documented type, and every date must be an RFC 3339 string with
// a time-zone designator. Members are visited in sorted key order so that, when a document has several
// problems, the one reported is always the same.

extension RevenueCatResponse {
    /// Reads a whole response. Unknown members (`schema_version`, `request_date_ms`, `other_purchases`,
    /// `subscriber_attributes`, `price`, …) are ignored.
    init(reading root: JSONNode) throws(DocumentError) {
        let subscriber = try root.required(Field.subscriber)
        requestDate = try root.required(Field.requestDate).date()
        self.subscriber = try RevenueCatSubscriber(reading: subscriber)
    }
}

extension RevenueCatSubscriber {
    init(reading node: JSONNode) throws(DocumentError) {
        originalAppUserId = try node.required(Field.originalAppUserId).string()
        firstSeen = try node.required(Field.firstSeen).date()
        managementURL = ManagementURL.parse(node.member(Field.managementURL))
        originalApplicationVersion = try node.optional(Field.originalApplicationVersion)?.string()
        originalPurchaseDate = try node.optional(Field.originalPurchaseDate)?.date()

        let subscriptionMembers = try node.optional(Field.subscriptions)?.membersInKeyOrder() ?? []
        var subscriptions: [String: RevenueCatSubscription] = Dictionary(minimumCapacity: subscriptionMembers.count)
        for (productId, member) in subscriptionMembers {
            subscriptions[productId] = try RevenueCatSubscription(reading: member, productId: productId)
        }
        self.subscriptions = subscriptions

        var nonSubscriptions: [String: [RevenueCatNonSubscription]] = [:]
        for (productId, member) in try node.optional(Field.nonSubscriptions)?.membersInKeyOrder() ?? [] {
            nonSubscriptions[productId] = try member.elements().enumerated().map {
                (index, element) throws(DocumentError) in
                try RevenueCatNonSubscription(reading: element, productId: productId, index: index)
            }
        }
        self.nonSubscriptions = nonSubscriptions

        let entitlementMembers = try node.optional(Field.entitlements)?.membersInKeyOrder() ?? []
        var entitlements: [String: RevenueCatEntitlementRecord] = Dictionary(minimumCapacity: entitlementMembers.count)
        for (id, member) in entitlementMembers {
            entitlements[id] = try RevenueCatEntitlementRecord(reading: member, id: id)
        }
        self.entitlements = entitlements
    }
}

extension RevenueCatSubscription {
    init(reading node: JSONNode, productId: String) throws(DocumentError) {
        self.productId = productId
        purchaseDate = try node.required(Field.purchaseDate).date()
        originalPurchaseDate = try node.optional(Field.originalPurchaseDate)?.date()
        expiresDate = try node.optional(Field.expiresDate)?.date()
        periodType = LenientRawValue(node.member(Field.periodType))
        store = LenientRawValue(node.member(Field.store))
        isSandbox = try node.optional(Field.isSandbox)?.bool() ?? false
        unsubscribeDetectedAt = try node.optional(Field.unsubscribeDetectedAt)?.date()
        billingIssuesDetectedAt = try node.optional(Field.billingIssuesDetectedAt)?.date()
        gracePeriodExpiresDate = try node.optional(Field.gracePeriodExpiresDate)?.date()
        refundedAt = try node.optional(Field.refundedAt)?.date()
        ownershipType = LenientRawValue(node.member(Field.ownershipType))
        productPlanIdentifier = try node.optional(Field.productPlanIdentifier)?.identifier()
        storeTransactionId = try node.optional(Field.storeTransactionId)?.identifier()
    }
}

extension RevenueCatNonSubscription {
    init(reading node: JSONNode, productId: String, index: Int) throws(DocumentError) {
        self.productId = productId
        self.index = index
        storeTransactionId = try node.optional(Field.storeTransactionId)?.identifier()
        purchaseDate = try node.required(Field.purchaseDate).date()
        originalPurchaseDate = try node.optional(Field.originalPurchaseDate)?.date()
        store = LenientRawValue(node.member(Field.store))
        isSandbox = try node.required(Field.isSandbox).bool()
    }
}

extension RevenueCatEntitlementRecord {
    init(reading node: JSONNode, id: String) throws(DocumentError) {
        self.id = id
        productIdentifier = try node.required(Field.productIdentifier).string()
        // An absent expiry would read as lifetime access. RevenueCat always sends the key (`null` for
        // lifetime), so a document without it is malformed and must not grant anything.
        guard let expiry = node.member(Field.expiresDate) else {
            throw DocumentError(
                kind: .missingField, path: node.path.appending(Field.expiresDate),
                reason: "is required (null for lifetime access) but missing")
        }
        expiresDate = expiry.isNull ? nil : try expiry.date()
        purchaseDate = try node.optional(Field.purchaseDate)?.date()
        gracePeriodExpiresDate = try node.optional(Field.gracePeriodExpiresDate)?.date()
    }
}

extension LenientRawValue {
    /// Classifies a tolerant member without ever failing.
    init(_ node: JSONNode?) {
        guard let node, !node.isNull else {
            self = .absent
            return
        }
        if let text = node.stringValue {
            self = .text(text)
        } else {
            self = .unreadable
        }
    }
}

/// The subscriber's `management_url`, which RevenueCat's SDK decodes as "a URL or nothing".
enum ManagementURL {
    /// An absolute URL with a scheme and a host, or `nil` for anything else: absent, `null`, `""`, a
    /// number or boolean, a relative reference, text with spaces.
    static func parse(_ node: JSONNode?) -> URL? {
        // Checked first: the refusal of anything but a string would make a located error only to drop it.
        guard let node, node.kind == .string else { return nil }
        return try? node.absoluteURL()
    }
}

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
        let subscriber = try root.required("subscriber")
        requestDate = try root.required("request_date").date()
        self.subscriber = try RevenueCatSubscriber(reading: subscriber)
    }
}

extension RevenueCatSubscriber {
    init(reading node: JSONNode) throws(DocumentError) {
        originalAppUserId = try node.required("original_app_user_id").string()
        firstSeen = try node.required("first_seen").date()
        managementURL = ManagementURL.parse(node.member("management_url"))
        originalApplicationVersion = try node.optional("original_application_version")?.string()
        originalPurchaseDate = try node.optional("original_purchase_date")?.date()

        let subscriptionMembers = try node.optional("subscriptions")?.membersInKeyOrder() ?? []
        var subscriptions: [String: RevenueCatSubscription] = Dictionary(minimumCapacity: subscriptionMembers.count)
        for (productId, member) in subscriptionMembers {
            subscriptions[productId] = try RevenueCatSubscription(reading: member, productId: productId)
        }
        self.subscriptions = subscriptions

        var nonSubscriptions: [String: [RevenueCatNonSubscription]] = [:]
        for (productId, member) in try node.optional("non_subscriptions")?.membersInKeyOrder() ?? [] {
            nonSubscriptions[productId] = try member.elements().enumerated().map {
                (index, element) throws(DocumentError) in
                try RevenueCatNonSubscription(reading: element, productId: productId, index: index)
            }
        }
        self.nonSubscriptions = nonSubscriptions

        let entitlementMembers = try node.optional("entitlements")?.membersInKeyOrder() ?? []
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
        purchaseDate = try node.required("purchase_date").date()
        originalPurchaseDate = try node.optional("original_purchase_date")?.date()
        expiresDate = try node.optional("expires_date")?.date()
        periodType = LenientRawValue(node.member("period_type"))
        store = LenientRawValue(node.member("store"))
        isSandbox = try node.optional("is_sandbox")?.bool() ?? false
        unsubscribeDetectedAt = try node.optional("unsubscribe_detected_at")?.date()
        billingIssuesDetectedAt = try node.optional("billing_issues_detected_at")?.date()
        gracePeriodExpiresDate = try node.optional("grace_period_expires_date")?.date()
        refundedAt = try node.optional("refunded_at")?.date()
        ownershipType = LenientRawValue(node.member("ownership_type"))
        productPlanIdentifier = try node.optional("product_plan_identifier")?.identifier()
        storeTransactionId = try node.optional("store_transaction_id")?.identifier()
    }
}

extension RevenueCatNonSubscription {
    init(reading node: JSONNode, productId: String, index: Int) throws(DocumentError) {
        self.productId = productId
        self.index = index
        storeTransactionId = try node.optional("store_transaction_id")?.identifier()
        purchaseDate = try node.required("purchase_date").date()
        originalPurchaseDate = try node.optional("original_purchase_date")?.date()
        store = LenientRawValue(node.member("store"))
        isSandbox = try node.required("is_sandbox").bool()
    }
}

extension RevenueCatEntitlementRecord {
    init(reading node: JSONNode, id: String) throws(DocumentError) {
        self.id = id
        productIdentifier = try node.required("product_identifier").string()
        // An absent expiry would read as lifetime access. RevenueCat always sends the key (`null` for
        // lifetime), so a document without it is malformed and must not grant anything.
        guard let expiry = node.member("expires_date") else {
            throw DocumentError(
                kind: .missingField, path: node.path.appending("expires_date"),
                reason: "is required (null for lifetime access) but missing")
        }
        expiresDate = expiry.isNull ? nil : try expiry.date()
        purchaseDate = try node.optional("purchase_date")?.date()
        gracePeriodExpiresDate = try node.optional("grace_period_expires_date")?.date()
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

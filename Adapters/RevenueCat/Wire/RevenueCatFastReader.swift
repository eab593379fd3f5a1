import EntitlementKit
import Foundation

// The fast path of the v1 subscriber body: the same wire values as `RevenueCatWireReader.swift`, read in
// one pass straight from the bytes. Anything the general reader would refuse — and anything unusual
// that it would accept — is a miss (`JSONFastPathMiss`), and the document is read again through
// `JSONNode`, which gives the answer or the located error. So the two readers never disagree: the fast
// one only answers for documents on which it gives exactly the general reader's values
// (`FastPathDifferentialTests` checks it on every fixture and on mutated documents).

extension RevenueCatResponse {
    init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var requestDate: Date?
        var subscriber: RevenueCatSubscriber?
        var fields = KnownFields()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            reader.recordTopLevelKey(key)
            if reader.key(key, is: "request_date") {
                try fields.mark(0)
                requestDate = try reader.requiredDate()
            } else if reader.key(key, is: "subscriber") {
                try fields.mark(1)
                subscriber = try RevenueCatSubscriber(fastReading: &reader)
            } else if Self.foreignTopLevelKeys.contains(where: { reader.key(key, is: $0) }) {
                // Another format's document, an envelope, an error body, or both RevenueCat and unified:
                // the general reader decides (and this gives up at once on other vendors' documents).
                throw JSONFastPathMiss()
            } else {
                try fields.skip(key, &reader)
            }
        }
        guard let requestDate, let subscriber else { throw JSONFastPathMiss() }
        self.init(requestDate: requestDate, subscriber: subscriber)
    }

    private static let foreignTopLevelKeys: [StaticString] = [
        "schemaVersion", "response", "success", "data", "object", "code", "message", "error",
    ]
}

extension RevenueCatSubscriber {
    fileprivate init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var originalAppUserId: String?
        var firstSeen: Date?
        var managementURL: URL?
        var originalApplicationVersion: String?
        var originalPurchaseDate: Date?
        var subscriptions: [String: RevenueCatSubscription] = [:]
        var nonSubscriptions: [String: [RevenueCatNonSubscription]] = [:]
        var entitlements: [String: RevenueCatEntitlementRecord] = [:]
        var fields = KnownFields()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "original_app_user_id") {
                try fields.mark(0)
                guard !(try reader.consumeNull()) else { throw JSONFastPathMiss() }
                originalAppUserId = try reader.string()
            } else if reader.key(key, is: "first_seen") {
                try fields.mark(1)
                firstSeen = try reader.requiredDate()
            } else if reader.key(key, is: "management_url") {
                try fields.mark(2)
                if try reader.isString() {
                    managementURL = ManagementURL.parse(JSONNode(.string(try reader.string())))
                } else {
                    try reader.skipValue()
                }
            } else if reader.key(key, is: "original_application_version") {
                try fields.mark(3)
                originalApplicationVersion = try reader.consumeNull() ? nil : try reader.string()
            } else if reader.key(key, is: "original_purchase_date") {
                try fields.mark(4)
                originalPurchaseDate = try reader.optionalDate()
            } else if reader.key(key, is: "subscriptions") {
                try fields.mark(5)
                try reader.forEachMember { productId, reader throws(JSONFastPathMiss) in
                    subscriptions[productId] = try RevenueCatSubscription(fastReading: &reader, productId: productId)
                }
            } else if reader.key(key, is: "non_subscriptions") {
                try fields.mark(6)
                try reader.forEachMember { productId, reader throws(JSONFastPathMiss) in
                    var purchases: [RevenueCatNonSubscription] = []
                    try reader.beginArray()
                    var isFirstElement = true
                    while try reader.nextElement(&isFirstElement) {
                        purchases.append(
                            try RevenueCatNonSubscription(
                                fastReading: &reader, productId: productId, index: purchases.count))
                    }
                    nonSubscriptions[productId] = purchases
                }
            } else if reader.key(key, is: "entitlements") {
                try fields.mark(7)
                try reader.forEachMember { id, reader throws(JSONFastPathMiss) in
                    entitlements[id] = try RevenueCatEntitlementRecord(fastReading: &reader, id: id)
                }
            } else {
                try fields.skip(key, &reader)
            }
        }
        guard let originalAppUserId, let firstSeen else { throw JSONFastPathMiss() }
        self.init(
            originalAppUserId: originalAppUserId, firstSeen: firstSeen, managementURL: managementURL,
            originalApplicationVersion: originalApplicationVersion, originalPurchaseDate: originalPurchaseDate,
            subscriptions: subscriptions, nonSubscriptions: nonSubscriptions, entitlements: entitlements)
    }
}

extension RevenueCatSubscription {
    fileprivate init(fastReading reader: inout JSONByteReader, productId: String) throws(JSONFastPathMiss) {
        var purchaseDate: Date?
        var value = RevenueCatSubscription(
            productId: productId, purchaseDate: Date(millisecondsSince1970: 0), originalPurchaseDate: nil,
            expiresDate: nil, periodType: .absent, store: .absent, isSandbox: false, unsubscribeDetectedAt: nil,
            billingIssuesDetectedAt: nil, gracePeriodExpiresDate: nil, refundedAt: nil, ownershipType: .absent,
            productPlanIdentifier: nil, storeTransactionId: nil)
        var fields = KnownFields()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "purchase_date") {
                try fields.mark(0)
                purchaseDate = try reader.requiredDate()
            } else if reader.key(key, is: "original_purchase_date") {
                try fields.mark(1)
                value.originalPurchaseDate = try reader.optionalDate()
            } else if reader.key(key, is: "expires_date") {
                try fields.mark(2)
                value.expiresDate = try reader.optionalDate()
            } else if reader.key(key, is: "period_type") {
                try fields.mark(3)
                value.periodType = try reader.lenientRawValue()
            } else if reader.key(key, is: "store") {
                try fields.mark(4)
                value.store = try reader.lenientRawValue()
            } else if reader.key(key, is: "is_sandbox") {
                try fields.mark(5)
                value.isSandbox = try reader.consumeNull() ? false : try reader.bool()
            } else if reader.key(key, is: "unsubscribe_detected_at") {
                try fields.mark(6)
                value.unsubscribeDetectedAt = try reader.optionalDate()
            } else if reader.key(key, is: "billing_issues_detected_at") {
                try fields.mark(7)
                value.billingIssuesDetectedAt = try reader.optionalDate()
            } else if reader.key(key, is: "grace_period_expires_date") {
                try fields.mark(8)
                value.gracePeriodExpiresDate = try reader.optionalDate()
            } else if reader.key(key, is: "refunded_at") {
                try fields.mark(9)
                value.refundedAt = try reader.optionalDate()
            } else if reader.key(key, is: "ownership_type") {
                try fields.mark(10)
                value.ownershipType = try reader.lenientRawValue()
            } else if reader.key(key, is: "product_plan_identifier") {
                try fields.mark(11)
                value.productPlanIdentifier = try reader.optionalIdentifier()
            } else if reader.key(key, is: "store_transaction_id") {
                try fields.mark(12)
                value.storeTransactionId = try reader.optionalIdentifier()
            } else {
                try fields.skip(key, &reader)
            }
        }
        guard let purchaseDate else { throw JSONFastPathMiss() }
        value.purchaseDate = purchaseDate
        self = value
    }
}

extension RevenueCatNonSubscription {
    fileprivate init(fastReading reader: inout JSONByteReader, productId: String, index: Int)
        throws(JSONFastPathMiss)
    {
        var storeTransactionId: String?
        var purchaseDate: Date?
        var originalPurchaseDate: Date?
        var store = LenientRawValue.absent
        var isSandbox: Bool?
        var fields = KnownFields()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "store_transaction_id") {
                try fields.mark(0)
                storeTransactionId = try reader.optionalIdentifier()
            } else if reader.key(key, is: "purchase_date") {
                try fields.mark(1)
                purchaseDate = try reader.requiredDate()
            } else if reader.key(key, is: "original_purchase_date") {
                try fields.mark(2)
                originalPurchaseDate = try reader.optionalDate()
            } else if reader.key(key, is: "store") {
                try fields.mark(3)
                store = try reader.lenientRawValue()
            } else if reader.key(key, is: "is_sandbox") {
                try fields.mark(4)
                guard !(try reader.consumeNull()) else { throw JSONFastPathMiss() }
                isSandbox = try reader.bool()
            } else {
                try fields.skip(key, &reader)
            }
        }
        guard let purchaseDate, let isSandbox else { throw JSONFastPathMiss() }
        self.init(
            productId: productId, index: index, storeTransactionId: storeTransactionId, purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate, store: store, isSandbox: isSandbox)
    }
}

extension RevenueCatEntitlementRecord {
    fileprivate init(fastReading reader: inout JSONByteReader, id: String) throws(JSONFastPathMiss) {
        var productIdentifier: String?
        var expiresDate: Date??
        var purchaseDate: Date?
        var gracePeriodExpiresDate: Date?
        var fields = KnownFields()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "product_identifier") {
                try fields.mark(0)
                guard !(try reader.consumeNull()) else { throw JSONFastPathMiss() }
                productIdentifier = try reader.string()
            } else if reader.key(key, is: "expires_date") {
                try fields.mark(1)
                expiresDate = .some(try reader.optionalDate())
            } else if reader.key(key, is: "purchase_date") {
                try fields.mark(2)
                purchaseDate = try reader.optionalDate()
            } else if reader.key(key, is: "grace_period_expires_date") {
                try fields.mark(3)
                gracePeriodExpiresDate = try reader.optionalDate()
            } else {
                try fields.skip(key, &reader)
            }
        }
        // The expiry key is required even when null (see the general reader).
        guard let productIdentifier, let expiresDate else { throw JSONFastPathMiss() }
        self.init(
            id: id, productIdentifier: productIdentifier, expiresDate: expiresDate, purchaseDate: purchaseDate,
            gracePeriodExpiresDate: gracePeriodExpiresDate)
    }
}

/// The keys of one object seen so far: a bit per key the reader knows, a list for the others, so a
/// repeated key (a syntax error) is a miss.
private struct KnownFields {
    private var mask: UInt32 = 0
    private var others: [JSONKeySpan] = []

    mutating func mark(_ bit: Int) throws(JSONFastPathMiss) {
        let flag: UInt32 = 1 << bit
        guard mask & flag == 0 else { throw JSONFastPathMiss() }
        mask |= flag
    }

    /// An unknown member: its key must be new among the unknown ones, its value valid JSON.
    mutating func skip(_ key: JSONKeySpan, _ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        try reader.checkUnique(key, among: &others)
        try reader.skipValue()
    }
}

extension JSONByteReader {
    /// A date that must be present and not null.
    fileprivate mutating func requiredDate() throws(JSONFastPathMiss) -> Date {
        guard !(try consumeNull()) else { throw JSONFastPathMiss() }
        return try date()
    }

    fileprivate mutating func optionalDate() throws(JSONFastPathMiss) -> Date? {
        try consumeNull() ? nil : try date()
    }

    /// A string where empty means absent; `null` is absent.
    fileprivate mutating func optionalIdentifier() throws(JSONFastPathMiss) -> String? {
        if try consumeNull() { return nil }
        let text = try string()
        return text.isEmpty ? nil : text
    }

    /// A tolerant member: a string, absent for `null`, unreadable for any other (valid) value.
    fileprivate mutating func lenientRawValue() throws(JSONFastPathMiss) -> LenientRawValue {
        if try consumeNull() { return .absent }
        if try isString() { return .text(try string()) }
        try skipValue()
        return .unreadable
    }

    /// Calls `body` with each member of an object (or nothing for `null`) whose key is data; keys must be
    /// unique.
    fileprivate mutating func forEachMember(
        _ body: (String, inout JSONByteReader) throws(JSONFastPathMiss) -> Void
    ) throws(JSONFastPathMiss) {
        if try consumeNull() { return }
        try beginObject()
        var isFirst = true
        var seen: [JSONKeySpan] = []
        while let key = try nextKey(&isFirst) {
            try checkUnique(key, among: &seen)
            try body(string(of: key), &self)
        }
    }
}

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
            switch Field(key, reader.bytes) {
            case .requestDate:
                try fields.mark(Field.requestDate.rawValue)
                requestDate = try reader.requiredDate()
            case .subscriber:
                try fields.mark(Field.subscriber.rawValue)
                subscriber = try RevenueCatSubscriber(fastReading: &reader)
            case .foreign:
                // Another format's document, an envelope, an error body, or both RevenueCat and unified:
                // the general reader decides (and this gives up at once on other vendors' documents).
                throw JSONFastPathMiss()
            case nil:
                try fields.skip(key, &reader)
            }
        }
        guard let requestDate, let subscriber else { throw JSONFastPathMiss() }
        self.init(requestDate: requestDate, subscriber: subscriber)
    }

    /// The top-level keys, found by length first: one comparison per key instead of a chain of them.
    private enum Field: Int {
        case requestDate, subscriber
        /// `schemaVersion`, `response`, `success`, `data`, `object`, `code`, `message`, `error`.
        case foreign

        init?(_ key: JSONKeySpan, _ bytes: UnsafeBufferPointer<UInt8>) {
            let field: Self? =
                switch key.count {
                case 4:
                    JSONByteReader.key(key, in: bytes, is: "data") || JSONByteReader.key(key, in: bytes, is: "code")
                        ? .foreign : nil
                case 5: JSONByteReader.key(key, in: bytes, is: "error") ? .foreign : nil
                case 6: JSONByteReader.key(key, in: bytes, is: "object") ? .foreign : nil
                case 7:
                    JSONByteReader.key(key, in: bytes, is: "success")
                        || JSONByteReader.key(key, in: bytes, is: "message") ? .foreign : nil
                case 8: JSONByteReader.key(key, in: bytes, is: "response") ? .foreign : nil
                case 10: JSONByteReader.key(key, in: bytes, is: "subscriber") ? .subscriber : nil
                case 12: JSONByteReader.key(key, in: bytes, is: "request_date") ? .requestDate : nil
                case 13: JSONByteReader.key(key, in: bytes, is: "schemaVersion") ? .foreign : nil
                default: nil
                }
            guard let field else { return nil }
            self = field
        }
    }
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
            guard let field = Field(key, reader.bytes) else {
                try fields.skip(key, &reader)
                continue
            }
            try fields.mark(field.rawValue)
            switch field {
            case .originalAppUserId:
                guard !(try reader.consumeNull()) else { throw JSONFastPathMiss() }
                originalAppUserId = try reader.string()
            case .firstSeen:
                firstSeen = try reader.requiredDate()
            case .managementURL:
                if try reader.isString() {
                    managementURL = ManagementURL.parse(JSONNode(.string(try reader.string())))
                } else {
                    try reader.skipValue()
                }
            case .originalApplicationVersion:
                originalApplicationVersion = try reader.consumeNull() ? nil : try reader.string()
            case .originalPurchaseDate:
                originalPurchaseDate = try reader.optionalDate()
            case .subscriptions:
                try reader.forEachMember { productId, reader throws(JSONFastPathMiss) in
                    subscriptions[productId] = try RevenueCatSubscription(fastReading: &reader, productId: productId)
                }
            case .nonSubscriptions:
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
            case .entitlements:
                try reader.forEachMember { id, reader throws(JSONFastPathMiss) in
                    entitlements[id] = try RevenueCatEntitlementRecord(fastReading: &reader, id: id)
                }
            }
        }
        guard let originalAppUserId, let firstSeen else { throw JSONFastPathMiss() }
        self.init(
            originalAppUserId: originalAppUserId, firstSeen: firstSeen, managementURL: managementURL,
            originalApplicationVersion: originalApplicationVersion, originalPurchaseDate: originalPurchaseDate,
            subscriptions: subscriptions, nonSubscriptions: nonSubscriptions, entitlements: entitlements)
    }

    private enum Field: Int {
        case originalAppUserId, firstSeen, managementURL, originalApplicationVersion, originalPurchaseDate
        case subscriptions, nonSubscriptions, entitlements

        init?(_ key: JSONKeySpan, _ bytes: UnsafeBufferPointer<UInt8>) {
            let field: Self? =
                switch key.count {
                case 10: JSONByteReader.key(key, in: bytes, is: "first_seen") ? .firstSeen : nil
                case 12: JSONByteReader.key(key, in: bytes, is: "entitlements") ? .entitlements : nil
                case 13: JSONByteReader.key(key, in: bytes, is: "subscriptions") ? .subscriptions : nil
                case 14: JSONByteReader.key(key, in: bytes, is: "management_url") ? .managementURL : nil
                case 17: JSONByteReader.key(key, in: bytes, is: "non_subscriptions") ? .nonSubscriptions : nil
                case 20: JSONByteReader.key(key, in: bytes, is: "original_app_user_id") ? .originalAppUserId : nil
                case 22: JSONByteReader.key(key, in: bytes, is: "original_purchase_date") ? .originalPurchaseDate : nil
                case 28:
                    JSONByteReader.key(key, in: bytes, is: "original_application_version")
                        ? .originalApplicationVersion : nil
                default: nil
                }
            guard let field else { return nil }
            self = field
        }
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
            guard let field = Field(key, reader.bytes) else {
                try fields.skip(key, &reader)
                continue
            }
            try fields.mark(field.rawValue)
            switch field {
            case .purchaseDate: purchaseDate = try reader.requiredDate()
            case .originalPurchaseDate: value.originalPurchaseDate = try reader.optionalDate()
            case .expiresDate: value.expiresDate = try reader.optionalDate()
            case .periodType: value.periodType = try reader.lenientRawValue()
            case .store: value.store = try reader.lenientRawValue()
            case .isSandbox: value.isSandbox = try reader.consumeNull() ? false : try reader.bool()
            case .unsubscribeDetectedAt: value.unsubscribeDetectedAt = try reader.optionalDate()
            case .billingIssuesDetectedAt: value.billingIssuesDetectedAt = try reader.optionalDate()
            case .gracePeriodExpiresDate: value.gracePeriodExpiresDate = try reader.optionalDate()
            case .refundedAt: value.refundedAt = try reader.optionalDate()
            case .ownershipType: value.ownershipType = try reader.lenientRawValue()
            case .productPlanIdentifier: value.productPlanIdentifier = try reader.optionalIdentifier()
            case .storeTransactionId: value.storeTransactionId = try reader.optionalIdentifier()
            }
        }
        guard let purchaseDate else { throw JSONFastPathMiss() }
        value.purchaseDate = purchaseDate
        self = value
    }

    private enum Field: Int {
        case purchaseDate, originalPurchaseDate, expiresDate, periodType, store, isSandbox, unsubscribeDetectedAt
        case billingIssuesDetectedAt, gracePeriodExpiresDate, refundedAt, ownershipType, productPlanIdentifier
        case storeTransactionId

        init?(_ key: JSONKeySpan, _ bytes: UnsafeBufferPointer<UInt8>) {
            let field: Self? =
                switch key.count {
                case 5: JSONByteReader.key(key, in: bytes, is: "store") ? .store : nil
                case 10: JSONByteReader.key(key, in: bytes, is: "is_sandbox") ? .isSandbox : nil
                case 11:
                    JSONByteReader.key(key, in: bytes, is: "period_type")
                        ? .periodType : JSONByteReader.key(key, in: bytes, is: "refunded_at") ? .refundedAt : nil
                case 12: JSONByteReader.key(key, in: bytes, is: "expires_date") ? .expiresDate : nil
                case 13: JSONByteReader.key(key, in: bytes, is: "purchase_date") ? .purchaseDate : nil
                case 14: JSONByteReader.key(key, in: bytes, is: "ownership_type") ? .ownershipType : nil
                case 20: JSONByteReader.key(key, in: bytes, is: "store_transaction_id") ? .storeTransactionId : nil
                case 22: JSONByteReader.key(key, in: bytes, is: "original_purchase_date") ? .originalPurchaseDate : nil
                case 23:
                    JSONByteReader.key(key, in: bytes, is: "unsubscribe_detected_at")
                        ? .unsubscribeDetectedAt
                        : JSONByteReader.key(key, in: bytes, is: "product_plan_identifier")
                            ? .productPlanIdentifier : nil
                case 25:
                    JSONByteReader.key(key, in: bytes, is: "grace_period_expires_date") ? .gracePeriodExpiresDate : nil
                case 26:
                    JSONByteReader.key(key, in: bytes, is: "billing_issues_detected_at")
                        ? .billingIssuesDetectedAt : nil
                default: nil
                }
            guard let field else { return nil }
            self = field
        }
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
            guard let field = Field(key, reader.bytes) else {
                try fields.skip(key, &reader)
                continue
            }
            try fields.mark(field.rawValue)
            switch field {
            case .storeTransactionId: storeTransactionId = try reader.optionalIdentifier()
            case .purchaseDate: purchaseDate = try reader.requiredDate()
            case .originalPurchaseDate: originalPurchaseDate = try reader.optionalDate()
            case .store: store = try reader.lenientRawValue()
            case .isSandbox:
                guard !(try reader.consumeNull()) else { throw JSONFastPathMiss() }
                isSandbox = try reader.bool()
            }
        }
        guard let purchaseDate, let isSandbox else { throw JSONFastPathMiss() }
        self.init(
            productId: productId, index: index, storeTransactionId: storeTransactionId, purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate, store: store, isSandbox: isSandbox)
    }

    private enum Field: Int {
        case storeTransactionId, purchaseDate, originalPurchaseDate, store, isSandbox

        init?(_ key: JSONKeySpan, _ bytes: UnsafeBufferPointer<UInt8>) {
            let field: Self? =
                switch key.count {
                case 5: JSONByteReader.key(key, in: bytes, is: "store") ? .store : nil
                case 10: JSONByteReader.key(key, in: bytes, is: "is_sandbox") ? .isSandbox : nil
                case 13: JSONByteReader.key(key, in: bytes, is: "purchase_date") ? .purchaseDate : nil
                case 20: JSONByteReader.key(key, in: bytes, is: "store_transaction_id") ? .storeTransactionId : nil
                case 22: JSONByteReader.key(key, in: bytes, is: "original_purchase_date") ? .originalPurchaseDate : nil
                default: nil
                }
            guard let field else { return nil }
            self = field
        }
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
            guard let field = Field(key, reader.bytes) else {
                try fields.skip(key, &reader)
                continue
            }
            try fields.mark(field.rawValue)
            switch field {
            case .productIdentifier:
                guard !(try reader.consumeNull()) else { throw JSONFastPathMiss() }
                productIdentifier = try reader.string()
            case .expiresDate: expiresDate = .some(try reader.optionalDate())
            case .purchaseDate: purchaseDate = try reader.optionalDate()
            case .gracePeriodExpiresDate: gracePeriodExpiresDate = try reader.optionalDate()
            }
        }
        // The expiry key is required even when null (see the general reader).
        guard let productIdentifier, let expiresDate else { throw JSONFastPathMiss() }
        self.init(
            id: id, productIdentifier: productIdentifier, expiresDate: expiresDate, purchaseDate: purchaseDate,
            gracePeriodExpiresDate: gracePeriodExpiresDate)
    }

    private enum Field: Int {
        case productIdentifier, expiresDate, purchaseDate, gracePeriodExpiresDate

        init?(_ key: JSONKeySpan, _ bytes: UnsafeBufferPointer<UInt8>) {
            let field: Self? =
                switch key.count {
                case 12: JSONByteReader.key(key, in: bytes, is: "expires_date") ? .expiresDate : nil
                case 13: JSONByteReader.key(key, in: bytes, is: "purchase_date") ? .purchaseDate : nil
                case 18: JSONByteReader.key(key, in: bytes, is: "product_identifier") ? .productIdentifier : nil
                case 25:
                    JSONByteReader.key(key, in: bytes, is: "grace_period_expires_date") ? .gracePeriodExpiresDate : nil
                default: nil
                }
            guard let field else { return nil }
            self = field
        }
    }
}

/// The keys of one object seen so far: a bit per key the reader knows, a list for the others, so a
/// repeated key (a syntax error) is a miss.
private struct KnownFields {
    private var mask: UInt32 = 0
    private var others = JSONSeenKeys()

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
        var seen = JSONSeenKeys()
        while let key = try nextKey(&isFirst) {
            try checkUnique(key, among: &seen)
            try body(string(of: key), &self)
        }
    }
}

import EntitlementKit
import Foundation

// The fast path of server API v2: the same `AdaptyV2Profile` as `AdaptyV2Reader`, read in one pass from
// the bytes, answering only where the general reader would read the same values and missing on the rest.

/// Which profile layout a `data` object holds, decided from its keys the way `AdaptyWireFormat.shape(ofData:)`
/// decides it: a probe skims the object's members by structure only, and the reader that follows checks
/// every byte.
enum AdaptyFastDataShape {
    case objects
    case serverV2

    /// The layout of the `data` object at `reader` (not moved), or a miss for a `data` not claimed.
    static func probe(_ reader: JSONByteReader) throws(JSONFastPathMiss) -> AdaptyFastDataShape {
        var probe = reader
        var hasAttributes = false
        // Whether each container's key is there, and whether it is sent (not `null`): as in
        // `AdaptyWireFormat`, a `null` container decides the layout only when no container is sent.
        var paidAccessLevels: (isPresent: Bool, isSent: Bool) = (false, false)
        var accessLevels: (isPresent: Bool, isSent: Bool) = (false, false)
        var hasArrayContainer = false
        var hasProfileId = false
        try probe.beginObject()
        var isFirst = true
        while let key = try probe.nextKey(&isFirst) {
            if probe.key(key, is: "uid") || probe.key(key, is: "permissions") { throw JSONFastPathMiss() }
            hasAttributes = hasAttributes || probe.key(key, is: "attributes")
            hasProfileId = hasProfileId || probe.key(key, is: "profile_id")
            // A value that starts with `n` is `null` or a syntax error, which the reader that follows finds.
            let isSent = try probe.peek() != UInt8(ascii: "n")
            if probe.key(key, is: "paid_access_levels") { paidAccessLevels = (true, isSent) }
            if probe.key(key, is: "access_levels") { accessLevels = (true, isSent) }
            if probe.key(key, is: "subscriptions") || probe.key(key, is: "non_subscriptions") {
                let isArray = try probe.peek() == UInt8(ascii: "[")
                hasArrayContainer = hasArrayContainer || isArray
            }
            _ = try probe.structuralSkip()
        }
        if hasAttributes || paidAccessLevels.isSent { return .objects }
        if accessLevels.isSent || hasArrayContainer { return .serverV2 }
        if paidAccessLevels.isPresent { return .objects }
        if accessLevels.isPresent { return .serverV2 }
        guard hasProfileId else { throw JSONFastPathMiss() }
        return .objects
    }
}

extension AdaptyV2Profile {
    private static let keys: [StaticString] = [
        "profile_id", "customer_user_id", "timestamp", "access_levels", "subscriptions", "non_subscriptions",
        "paid_access_levels",
    ]

    /// Reads a v2 `data` object.
    init(fastReadingData reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var profileId: String?
        var customerUserId: String?
        var serverTime: Date?
        var accessLevels: [AdaptyV2AccessLevel] = []
        var subscriptions: [AdaptyV2Subscription] = []
        var nonSubscriptions: [AdaptyV2NonSubscription] = []
        var seen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(key, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: profileId = try reader.adaptyOptionalIdentifier()
            case 1: customerUserId = try reader.adaptyOptionalIdentifier()
            case 2: serverTime = try reader.adaptyTimestamp()
            case 3:
                try Self.elements(&reader) { (reader) throws(JSONFastPathMiss) in
                    accessLevels.append(try AdaptyV2AccessLevel(fastReading: &reader))
                }
            case 4:
                try Self.elements(&reader) { (reader) throws(JSONFastPathMiss) in
                    subscriptions.append(try AdaptyV2Subscription(fastReading: &reader))
                }
            case 5:
                try Self.elements(&reader) { (reader) throws(JSONFastPathMiss) in
                    nonSubscriptions.append(try AdaptyV2NonSubscription(fastReading: &reader))
                }
            case 6:
                // A v1 container in a v2 profile: the general reader's error (or `null`, which it skips).
                guard try reader.consumeNull() else { throw JSONFastPathMiss() }
            default: try seen.skip(key, &reader)
            }
        }
        guard let profileId else { throw JSONFastPathMiss() }
        // Two levels with one id: the general reader's `inconsistent` error.
        for index in accessLevels.indices.dropFirst() {
            let id = accessLevels[index].id
            for earlier in 0..<index where accessLevels[earlier].id == id { throw JSONFastPathMiss() }
        }
        self.init(
            profileId: profileId, customerUserId: customerUserId, serverTime: serverTime, accessLevels: accessLevels,
            subscriptions: subscriptions, nonSubscriptions: nonSubscriptions)
    }

    /// The objects of a container array (`null` is none).
    private static func elements(
        _ reader: inout JSONByteReader, _ body: (inout JSONByteReader) throws(JSONFastPathMiss) -> Void
    ) throws(JSONFastPathMiss) {
        if try reader.consumeNull() { return }
        try reader.beginArray()
        var isFirst = true
        while try reader.nextElement(&isFirst) {
            guard try reader.peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
            try body(&reader)
        }
    }
}

/// `offer`: both spellings, as the general reader takes them.
private struct AdaptyFastOffer {
    var category: String?
    var offerCategory: String?
    var type: String?
    var offerType: String?

    /// `null` is no offer; an object is read; anything else is a miss.
    static func read(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) -> AdaptyV2Offer? {
        guard try reader.adaptyOptionalObjectFollows() else { return nil }
        var offer = AdaptyFastOffer()
        var seen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(key, in: ["category", "offer_category", "type", "offer_type"])
            if let field { try seen.mark(field) }
            switch field {
            case 0: offer.category = try reader.adaptyOptionalString()
            case 1: offer.offerCategory = try reader.adaptyOptionalString()
            case 2: offer.type = try reader.adaptyOptionalString()
            case 3: offer.offerType = try reader.adaptyOptionalString()
            default: try seen.skip(key, &reader)
            }
        }
        return AdaptyV2Offer(category: offer.category ?? offer.offerCategory, type: offer.type ?? offer.offerType)
    }
}

extension AdaptyV2AccessLevel {
    private static let keys: [StaticString] = [
        "access_level_id", "store", "store_product_id", "store_base_plan_id", "store_transaction_id", "offer",
        "environment", "purchased_at", "originally_purchased_at", "expires_at", "renewal_cancelled_at",
        "renew_cancelled_at", "billing_issue_detected_at", "is_in_grace_period", "grace_period_expires_at",
        "cancellation_reason", "starts_at", "store_original_transaction_id",
    ]

    fileprivate init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var id: String?
        var productId: String?
        var renewalCancelledAt: Date?
        var renewCancelledAt: Date?
        var value = AdaptyV2AccessLevel(id: "", idPath: .root, storeProductId: "", isInGracePeriod: false)
        var seen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(key, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: id = try reader.adaptyOptionalIdentifier()
            case 1: value.store = try reader.adaptyOptionalString()
            case 2: productId = try reader.adaptyOptionalIdentifier()
            case 3: value.storeBasePlanId = try reader.adaptyOptionalIdentifier()
            case 4: value.storeTransactionId = try reader.adaptyOptionalIdentifier()
            case 5: value.offer = try AdaptyFastOffer.read(&reader)
            case 6: value.environment = try reader.adaptyOptionalString()
            case 7: value.purchasedAt = try reader.adaptyOptionalDate()
            case 8: value.originallyPurchasedAt = try reader.adaptyOptionalDate()
            case 9: value.expiresAt = try reader.adaptyOptionalDate()
            case 10: renewalCancelledAt = try reader.adaptyOptionalDate()
            case 11: renewCancelledAt = try reader.adaptyOptionalDate()
            case 12: value.billingIssueDetectedAt = try reader.adaptyOptionalDate()
            case 13: value.isInGracePeriod = try reader.adaptyOptionalBool() ?? false
            case 14: value.gracePeriodExpiresAt = try reader.adaptyOptionalDate()
            case 15: value.cancellationReason = try reader.adaptyEnumerationValue()
            case 16: _ = try reader.adaptyOptionalDate()
            case 17: _ = try reader.adaptyOptionalIdentifier()
            default: try seen.skip(key, &reader)
            }
        }
        // A level without an id or a product: the general reader's errors. Its id path is not built: a
        // duplicate id, the only error that names it, is a miss.
        guard let id, let productId else { throw JSONFastPathMiss() }
        value.id = id
        value.storeProductId = productId
        value.renewalCancelledAt = renewalCancelledAt ?? renewCancelledAt
        self = value
    }
}

extension AdaptyV2Subscription {
    private static let keys: [StaticString] = [
        "store", "environment", "store_product_id", "store_transaction_id", "store_original_transaction_id",
        "purchased_at", "originally_purchased_at", "expires_at", "refunded_at", "grace_period_expires_at",
        "is_in_grace_period", "is_family_shared", "billing_issue_detected_at", "renewal_cancelled_at",
        "renew_cancelled_at",
    ]

    fileprivate init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        self.init()
        var seen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(key, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: store = try reader.adaptyOptionalString()
            case 1: environment = try reader.adaptyOptionalString()
            case 2: storeProductId = try reader.adaptyOptionalIdentifier()
            case 3: storeTransactionId = try reader.adaptyOptionalIdentifier()
            case 4: storeOriginalTransactionId = try reader.adaptyOptionalIdentifier()
            case 5: purchasedAt = try reader.adaptyOptionalDate()
            case 6: originallyPurchasedAt = try reader.adaptyOptionalDate()
            case 7: expiresAt = try reader.adaptyOptionalDate()
            case 8: refundedAt = try reader.adaptyOptionalDate()
            case 9: gracePeriodExpiresAt = try reader.adaptyOptionalDate()
            case 10, 11: _ = try reader.adaptyOptionalBool()
            case 12, 13, 14: _ = try reader.adaptyOptionalDate()
            default: try seen.skip(key, &reader)
            }
        }
    }
}

extension AdaptyV2NonSubscription {
    private static let keys: [StaticString] = [
        "store", "environment", "store_product_id", "store_transaction_id", "store_original_transaction_id",
        "purchased_at", "is_consumable", "is_refund",
    ]

    fileprivate init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        self.init(isConsumable: false)
        var seen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(key, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: store = try reader.adaptyOptionalString()
            case 1: environment = try reader.adaptyOptionalString()
            case 2: storeProductId = try reader.adaptyOptionalIdentifier()
            case 3: storeTransactionId = try reader.adaptyOptionalIdentifier()
            case 4: storeOriginalTransactionId = try reader.adaptyOptionalIdentifier()
            case 5: purchasedAt = try reader.adaptyOptionalDate()
            case 6: isConsumable = try reader.adaptyOptionalBool() ?? false
            case 7: _ = try reader.adaptyOptionalBool()
            default: try seen.skip(key, &reader)
            }
        }
    }
}

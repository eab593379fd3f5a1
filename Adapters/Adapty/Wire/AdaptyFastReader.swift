import EntitlementKit
import Foundation

// The fast path of Adapty's four shapes: the same `AdaptyProfile` as `AdaptyProfileReader` (shapes A, B,
// D) or `AdaptyV2Profile` as `AdaptyV2Reader` (shape C), read in one pass straight from the bytes. It
// answers only for documents that `AdaptyWireFormat.detect` claims and that the general reader reads in
// the common spelling; anything it would refuse — and anything unusual it would accept (a wrong type in a
// tolerant field such as `store`, a fraction in `timestamp`, duplicate or escaped keys, another format's
// keys) — is a miss (`JSONFastPathMiss`), and the document is read again through `JSONNode`, which gives
// the answer or the located error. `AdaptyFastPathTests` holds the two readers to the same answers.

/// What the fast reader read: a profile of shapes A, B or D, or a server API v2 profile.
enum AdaptyFastDocument {
    case profile(AdaptyProfile)
    case serverV2(AdaptyV2Profile)

    /// Reads a whole document. Every top-level key is recorded for format detection.
    init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var bare = AdaptyFastProfileParts()
        var data: AdaptyFastProfileParts?
        var dataV2: AdaptyV2Profile?
        var success: AdaptyFastProfileParts?
        // The envelope's keys and a bare profile's keys, each against its own key table.
        var seen = AdaptySeenKeys()
        var bareSeen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            reader.recordTopLevelKey(key)
            switch reader.adaptyField(key, in: Self.topLevelKeys) {
            case 0:  // data: an envelope (A), a v1 profile (B) or a v2 profile (C); anything else is not claimed
                try seen.mark(0)
                guard try reader.peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
                switch try AdaptyFastDataShape.probe(reader) {
                case .objects: data = try AdaptyFastProfileParts(fastReadingData: &reader)
                case .serverV2: dataV2 = try AdaptyV2Profile(fastReadingData: &reader)
                }
            case 1:  // success: a bridge reply carries the profile in an object
                try seen.mark(1)
                guard try reader.peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
                var parts = AdaptyFastProfileParts()
                try parts.read(&reader, isDataObject: false)
                success = parts
            case 2, 3:  // another format's document (RevenueCat, a unified snapshot)
                throw JSONFastPathMiss()
            default:
                try bare.member(key, &reader, seen: &bareSeen, isDataObject: false)
            }
        }
        // The order of `AdaptyWireFormat.detect`: an object `success`, then `data`, then a bare profile.
        if let success {
            self = .profile(try success.profile())
        } else if let data {
            self = .profile(try data.profile())
        } else if let dataV2 {
            self = .serverV2(dataV2)
        } else if bare.claimsBareProfile {
            self = .profile(try bare.profile())
        } else {
            throw JSONFastPathMiss()
        }
    }

    private static let topLevelKeys: [StaticString] = ["data", "success", "subscriber", "schemaVersion"]
}

/// The members of one profile object as they are read, before it is known which of them count.
struct AdaptyFastProfileParts {
    var profileId: String?
    var hasProfileIdKey = false
    var hasPaidAccessLevelsKey = false
    var customerUserId: String?
    var serverTime: Date?
    var accessLevels: [AdaptyAccessLevel] = []
    var subscriptions: [String: AdaptySubscription] = [:]
    /// `(key, element)` in wire order.
    var nonSubscriptions: [(key: String, purchase: AdaptyNonSubscription)] = []
    /// In a `data` object: the envelope's `attributes`, and its `id`.
    var attributes: AdaptyProfile?
    var envelopeId: String?

    private static let profileKeys: [StaticString] = [
        "profile_id", "customer_user_id", "timestamp", "paid_access_levels", "subscriptions", "non_subscriptions",
        "access_levels", "attributes", "id", "uid", "permissions",
    ]

    /// A `data` object: the SDK backend envelope or a server API v1 profile.
    init(fastReadingData reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        try read(&reader, isDataObject: true)
    }

    init() {}

    /// Reads a whole profile object.
    mutating func read(_ reader: inout JSONByteReader, isDataObject: Bool) throws(JSONFastPathMiss) {
        var seen = AdaptySeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            try member(key, &reader, seen: &seen, isDataObject: isDataObject)
        }
    }

    /// Reads one member of a profile object (or of the document itself, for a bare profile).
    mutating func member(
        _ key: JSONKeySpan, _ reader: inout JSONByteReader, seen: inout AdaptySeenKeys, isDataObject: Bool
    ) throws(JSONFastPathMiss) {
        let field = reader.adaptyField(key, in: Self.profileKeys)
        if let field { try seen.mark(field) }
        switch field {
        case 0:
            hasProfileIdKey = true
            profileId = try reader.adaptyOptionalIdentifier()
        case 1: customerUserId = try reader.adaptyOptionalIdentifier()
        case 2: serverTime = try reader.adaptyTimestamp()
        case 3:
            hasPaidAccessLevelsKey = true
            if try reader.adaptyOptionalObjectFollows() { try readAccessLevels(&reader) }
        case 4:
            if try reader.adaptyOptionalObjectFollows() { try readSubscriptions(&reader) }
        case 5:
            if try reader.adaptyOptionalObjectFollows() { try readNonSubscriptions(&reader) }
        case 6:
            // Server API v2 (in `data`), or a v2 container in a v1 profile (an error): the general reader.
            throw JSONFastPathMiss()
        case 7 where isDataObject:
            guard try reader.peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
            var parts = AdaptyFastProfileParts()
            try parts.read(&reader, isDataObject: false)
            attributes = try parts.profile()
        case 8 where isDataObject:
            envelopeId = try reader.adaptyOptionalString()
        case 9 where isDataObject, 10 where isDataObject:
            // Qonversion's launch result: never claimed.
            throw JSONFastPathMiss()
        default:
            try seen.skip(key, &reader)
        }
    }

    /// Whether a document whose top level is this object is claimed as a bare bridge profile.
    var claimsBareProfile: Bool { hasProfileIdKey || hasPaidAccessLevelsKey }

    /// The profile this object holds: a `data` object's `attributes` when it has them (checked against the
    /// envelope's `id`), else the object's own members.
    func profile() throws(JSONFastPathMiss) -> AdaptyProfile {
        if let attributes {
            // A mismatch is the general reader's error.
            if let envelopeId, !AdaptyId.same(envelopeId, attributes.profileId) { throw JSONFastPathMiss() }
            return attributes
        }
        guard let profileId else { throw JSONFastPathMiss() }
        // The general reader lists one-time purchases by key, then in wire order.
        let ordered = nonSubscriptions.enumerated().sorted { lhs, rhs in
            lhs.element.key == rhs.element.key
                ? lhs.offset < rhs.offset : lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
        }
        return AdaptyProfile(
            profileId: profileId, customerUserId: customerUserId, serverTime: serverTime, accessLevels: accessLevels,
            subscriptions: subscriptions, nonSubscriptions: ordered.map(\.element.purchase))
    }

    // MARK: Containers

    private mutating func readAccessLevels(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var keys = JSONSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            try reader.checkUnique(key, among: &keys)
            accessLevels.append(try AdaptyAccessLevel(fastReading: &reader, key: reader.string(of: key)))
        }
    }

    private mutating func readSubscriptions(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var keys = JSONSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            try reader.checkUnique(key, among: &keys)
            let name = reader.string(of: key)
            subscriptions[name] = try AdaptySubscription(fastReading: &reader, key: name)
        }
    }

    private mutating func readNonSubscriptions(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var keys = JSONSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            try reader.checkUnique(key, among: &keys)
            let name = reader.string(of: key)
            if try reader.consumeNull() { continue }
            try reader.beginArray()
            var isFirstElement = true
            while try reader.nextElement(&isFirstElement) {
                nonSubscriptions.append((name, try AdaptyNonSubscription(fastReading: &reader, key: name)))
            }
        }
    }
}

extension AdaptyAccessLevel {
    private static let keys: [StaticString] = [
        "id", "is_active", "vendor_product_id", "base_plan_id", "store", "activated_at", "renewed_at", "expires_at",
        "is_lifetime", "will_renew", "is_in_grace_period", "is_refund", "unsubscribed_at",
        "billing_issue_detected_at", "active_introductory_offer_type", "active_promotional_offer_type",
        "cancellation_reason", "starts_at",
    ]

    /// One `paid_access_levels` member; everything the general reader would refuse is a miss.
    fileprivate init(fastReading reader: inout JSONByteReader, key: String) throws(JSONFastPathMiss) {
        var isActive: Bool?
        var vendorProductId: String?
        var value = AdaptyAccessLevel(
            id: key, isActive: false, vendorProductId: "", isLifetime: false, isInGracePeriod: false, isRefund: false,
            introductoryOffer: .none, promotionalOffer: .none)
        var seen = AdaptySeenKeys()
        guard try reader.adaptyOptionalObjectFollows() else { throw JSONFastPathMiss() }
        try reader.beginObject()
        var isFirst = true
        while let member = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(member, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0:
                // A mismatch is the general reader's error.
                if let id = try reader.adaptyOptionalString(), !AdaptyId.same(id, key) { throw JSONFastPathMiss() }
            case 1: isActive = try reader.adaptyOptionalBool()
            case 2: vendorProductId = try reader.adaptyOptionalIdentifier()
            case 3: value.basePlanId = try reader.adaptyOptionalIdentifier()
            case 4: value.store = try reader.adaptyOptionalString()
            case 5: value.activatedAt = try reader.adaptyOptionalDate()
            case 6: value.renewedAt = try reader.adaptyOptionalDate()
            case 7: value.expiresAt = try reader.adaptyOptionalDate()
            case 8: value.isLifetime = try reader.adaptyOptionalBool() ?? false
            case 9: value.willRenew = try reader.adaptyOptionalBool()
            case 10: value.isInGracePeriod = try reader.adaptyOptionalBool() ?? false
            case 11: value.isRefund = try reader.adaptyOptionalBool() ?? false
            case 12: value.unsubscribedAt = try reader.adaptyOptionalDate()
            case 13: value.billingIssueDetectedAt = try reader.adaptyOptionalDate()
            case 14: value.introductoryOffer = try reader.adaptyEnumerationValue()
            case 15: value.promotionalOffer = try reader.adaptyEnumerationValue()
            case 16: value.cancellationReason = try reader.adaptyEnumerationValue()
            case 17: _ = try reader.adaptyOptionalDate()
            default: try seen.skip(member, &reader)
            }
        }
        // An empty key, a missing flag or product, a lifetime level with an expiry: the general reader's errors.
        guard !key.isEmpty, let isActive, let vendorProductId, !(value.isLifetime && value.expiresAt != nil) else {
            throw JSONFastPathMiss()
        }
        value.isActive = isActive
        value.vendorProductId = vendorProductId
        self = value
    }
}

extension AdaptySubscription {
    private static let keys: [StaticString] = [
        "vendor_product_id", "store", "vendor_transaction_id", "vendor_original_transaction_id", "activated_at",
        "renewed_at", "expires_at", "is_sandbox", "is_active", "is_lifetime", "will_renew", "is_in_grace_period",
        "is_refund", "starts_at", "unsubscribed_at", "billing_issue_detected_at",
    ]

    /// One `subscriptions` member.
    fileprivate init(fastReading reader: inout JSONByteReader, key: String) throws(JSONFastPathMiss) {
        self.init(vendorProductId: key)
        var seen = AdaptySeenKeys()
        guard try reader.adaptyOptionalObjectFollows() else { throw JSONFastPathMiss() }
        try reader.beginObject()
        var isFirst = true
        while let member = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(member, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: vendorProductId = try reader.adaptyOptionalIdentifier() ?? key
            case 1: store = try reader.adaptyOptionalString()
            case 2: vendorTransactionId = try reader.adaptyOptionalIdentifier()
            case 3: vendorOriginalTransactionId = try reader.adaptyOptionalIdentifier()
            case 4: activatedAt = try reader.adaptyOptionalDate()
            case 5: renewedAt = try reader.adaptyOptionalDate()
            case 6: expiresAt = try reader.adaptyOptionalDate()
            case 7: isSandbox = try reader.adaptyOptionalBool()
            case 8, 9, 10, 11, 12: _ = try reader.adaptyOptionalBool()
            case 13, 14, 15: _ = try reader.adaptyOptionalDate()
            default: try seen.skip(member, &reader)
            }
        }
    }
}

extension AdaptyNonSubscription {
    private static let keys: [StaticString] = [
        "vendor_product_id", "store", "vendor_transaction_id", "vendor_original_transaction_id", "purchased_at",
        "is_sandbox", "is_consumable", "is_one_time", "is_refund", "purchase_id",
    ]

    /// One element of a `non_subscriptions` list.
    fileprivate init(fastReading reader: inout JSONByteReader, key: String) throws(JSONFastPathMiss) {
        self.init(vendorProductId: key, productKey: key, isConsumable: false)
        var isConsumableFlag = false
        var isOneTime = false
        var seen = AdaptySeenKeys()
        guard try reader.peek() == UInt8(ascii: "{") else { throw JSONFastPathMiss() }
        try reader.beginObject()
        var isFirst = true
        while let member = try reader.nextKey(&isFirst) {
            let field = reader.adaptyField(member, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: vendorProductId = try reader.adaptyOptionalIdentifier() ?? key
            case 1: store = try reader.adaptyOptionalString()
            case 2: vendorTransactionId = try reader.adaptyOptionalIdentifier()
            case 3: vendorOriginalTransactionId = try reader.adaptyOptionalIdentifier()
            case 4: purchasedAt = try reader.adaptyOptionalDate()
            case 5: isSandbox = try reader.adaptyOptionalBool()
            case 6: isConsumableFlag = try reader.adaptyOptionalBool() ?? false
            case 7: isOneTime = try reader.adaptyOptionalBool() ?? false
            case 8: _ = try reader.adaptyOptionalBool()
            case 9: _ = try reader.adaptyOptionalString()
            default: try seen.skip(member, &reader)
            }
        }
        isConsumable = isConsumableFlag || isOneTime
    }
}

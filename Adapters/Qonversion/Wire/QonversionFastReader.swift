import EntitlementKit
import Foundation

// The fast path of all three shapes: the same wire values as `QonversionLaunchResultReader` and
// `QonversionRESTListReader`, read in one pass straight from the bytes. It answers only for documents
// that `QonversionWireFormat.detect` claims and that its reader reads in the common spelling; anything
// the general reader would refuse — and anything unusual it would accept (a failed envelope, a reply
// without entitlements, integer transaction ids, fractional or negative timestamps, `1.0` as a flag,
// odd types for tolerant fields, duplicate entitlement ids, duplicate keys, escaped keys) — is a miss
// (`JSONFastPathMiss`), and the document is read again through `JSONNode`, which gives the answer or
// the located error. `QonversionFastPathTests` holds the two readers to the same answers.

extension QonversionWireDocument {
    /// Reads a whole Qonversion response. Every top-level key is recorded for format detection.
    init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var launchData: QonversionWireDocument?
        var listItems: [QonversionFastListItem]?
        var isList = false
        var hasMore: Bool?
        var hasURL = false
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            reader.recordTopLevelKey(key)
            switch reader.qonversionField(key, in: Self.topLevelKeys) {
            case 0:  // success: only `true` is the common case; `false` is a failure the general reader reports.
                try seen.mark(0)
                guard try reader.bool() else { throw JSONFastPathMiss() }
            case 1:  // data: an object (v1 launch result) or an array (v3/v4 list)
                try seen.mark(1)
                if try reader.peek() == UInt8(ascii: "[") {
                    listItems = try Self.listItems(&reader)
                } else {
                    launchData = try Self.launchData(&reader)
                }
            case 2:  // object
                try seen.mark(2)
                isList = try reader.string() == "list"
            case 3:  // has_more (`null` counts as present for detection but not for the reader: left to it)
                try seen.mark(3)
                hasMore = try reader.bool()
            case 4:  // url: only its presence matters
                try seen.mark(4)
                try reader.skipValue()
                hasURL = true
            case .some:
                // Another format's document, or a JSON Lines envelope: the general reader decides.
                throw JSONFastPathMiss()
            case nil:
                try seen.skip(key, &reader)
            }
        }
        if let launchData {
            self = launchData
        } else if let listItems {
            self = try Self.list(listItems, isList: isList, hasMore: hasMore, hasURL: hasURL)
        } else {
            throw JSONFastPathMiss()
        }
        try Self.requireUniqueIds(entitlements)
    }

    private static let topLevelKeys: [StaticString] = [
        "success", "data", "object", "has_more", "url", "subscriber", "schemaVersion", "response",
    ]

    // MARK: v1 launch result

    private static let launchDataKeys: [StaticString] = ["uid", "timestamp", "apple_extra", "permissions"]

    /// `data` of a launch result: claimed (see `QonversionWireFormat.isLaunchResult`) only with a
    /// non-null `uid` or a `permissions` list.
    private static func launchData(_ reader: inout JSONByteReader) throws(JSONFastPathMiss)
        -> QonversionWireDocument
    {
        var document = QonversionWireDocument(entitlements: [])
        var hasUserId = false
        var hasPermissions = false
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            switch reader.qonversionField(key, in: launchDataKeys) {
            case 0:
                try seen.mark(0)
                if try !reader.consumeNull() {
                    hasUserId = true
                    let uid = try reader.string()
                    document.userId = uid.isEmpty ? nil : uid
                }
            case 1:
                try seen.mark(1)
                document.serverTime = try reader.qonversionEpochSeconds()
            case 2:
                try seen.mark(2)
                if try reader.qonversionOptionalObjectFollows() {
                    document.originalApplicationVersion = try appleExtraVersion(&reader)
                }
            case 3:
                try seen.mark(3)
                hasPermissions = true
                try reader.beginArray()
                var isFirstElement = true
                while try reader.nextElement(&isFirstElement) {
                    document.entitlements.append(try QonversionWireEntitlement(fastReadingPermission: &reader))
                }
            default:
                try seen.skip(key, &reader)
            }
        }
        // Attribution, eligibility and other replies in the same envelope: the general reader refuses them.
        guard hasUserId || hasPermissions else { throw JSONFastPathMiss() }
        return document
    }

    /// `apple_extra.original_application_version` (an empty string is kept, as the general reader does).
    private static func appleExtraVersion(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) -> String? {
        var version: String?
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "original_application_version") {
                try seen.mark(0)
                version = try reader.qonversionOptionalString()
            } else {
                try seen.skip(key, &reader)
            }
        }
        return version
    }

    // MARK: v3/v4 lists

    private static func listItems(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) -> [QonversionFastListItem] {
        var items: [QonversionFastListItem] = []
        try reader.beginArray()
        var isFirst = true
        while try reader.nextElement(&isFirst) {
            items.append(try QonversionFastListItem(fastReading: &reader))
        }
        return items
    }

    /// The list's entitlements in the version `QonversionWireFormat.listFormat` detects.
    private static func list(_ items: [QonversionFastListItem], isList: Bool, hasMore: Bool?, hasURL: Bool)
        throws(JSONFastPathMiss) -> QonversionWireDocument
    {
        // An empty list with a `url` may be Stripe's (`/v1/…`), which the general reader declines.
        if items.isEmpty, hasURL { throw JSONFastPathMiss() }
        let isV4: Bool
        if isList, hasMore != nil || hasURL {
            isV4 = true
        } else if let first = items.first {
            if first.isActive != nil || first.isUserEntitlementObject {
                isV4 = true
            } else if first.active != nil || isList {
                isV4 = false
            } else {
                throw JSONFastPathMiss()  // not claimed as a list
            }
        } else {
            isV4 = false
        }
        // A partial v4 list is refused by the general reader.
        if isV4, hasMore == true { throw JSONFastPathMiss() }
        var entitlements: [QonversionWireEntitlement] = []
        entitlements.reserveCapacity(items.count)
        for item in items {
            guard let flag = isV4 ? item.isActive : item.active else { throw JSONFastPathMiss() }
            entitlements.append(
                QonversionWireEntitlement(
                    id: item.id, idPath: .root, activeFlag: flag, productId: item.productId,
                    renewState: item.renewState, source: item.source, currentPeriodType: item.currentPeriodType,
                    startedDate: isV4 ? item.startedAt : item.started,
                    expirationDate: isV4 ? item.expiresAt : item.expires))
        }
        return QonversionWireDocument(entitlements: entitlements)
    }

    /// Two elements with one id fail the document in the general reader (with the path of the second),
    /// so they are a miss here. Ids compare as `String`s, as the general reader's dictionary compares them.
    private static func requireUniqueIds(_ entitlements: [QonversionWireEntitlement]) throws(JSONFastPathMiss) {
        if entitlements.count <= 16 {
            for index in entitlements.indices.dropFirst() {
                let id = entitlements[index].id
                for earlier in 0..<index where entitlements[earlier].id == id { throw JSONFastPathMiss() }
            }
        } else {
            var ids = Set<String>(minimumCapacity: entitlements.count)
            for entitlement in entitlements where !ids.insert(entitlement.id).inserted { throw JSONFastPathMiss() }
        }
    }
}

extension QonversionWireEntitlement {
    private static let permissionKeys: [StaticString] = [
        "id", "active", "associated_product", "renew_state", "source", "current_period_type", "grant_type",
        "started_timestamp", "expiration_timestamp", "trial_start_timestamp", "first_purchase_timestamp",
        "last_purchase_timestamp", "auto_renew_disable_timestamp", "renews_count", "last_activated_offer_code",
        "store_transactions",
    ]

    /// One `data.permissions` element of a launch result. Its id path is not built: a duplicate id,
    /// the only error that names it, is a miss.
    fileprivate init(fastReadingPermission reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var id: String?
        var flag: QonversionActiveFlag?
        var value = QonversionWireEntitlement(id: "", idPath: .root, activeFlag: .zero)
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.qonversionField(key, in: Self.permissionKeys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: id = try reader.qonversionOptionalIdentifier()
            case 1: flag = try reader.qonversionFlag()
            case 2: value.productId = try reader.qonversionOptionalIdentifier()
            case 3: value.renewState = try reader.qonversionRenewState()
            case 4: value.source = try reader.qonversionOptionalString()
            case 5: value.currentPeriodType = try reader.qonversionOptionalString()
            case 6: value.grantType = try reader.qonversionOptionalString()
            case 7: value.startedDate = try reader.qonversionEpochSeconds()
            case 8: value.expirationDate = try reader.qonversionEpochSeconds()
            case 9: value.trialStartDate = try reader.qonversionEpochSeconds()
            case 10: value.firstPurchaseDate = try reader.qonversionEpochSeconds()
            case 11: value.lastPurchaseDate = try reader.qonversionEpochSeconds()
            case 12: value.autoRenewDisableDate = try reader.qonversionEpochSeconds()
            case 13: value.renewsCount = try reader.qonversionCount()
            case 14: value.lastActivatedOfferCode = try reader.qonversionOptionalIdentifier()
            case 15:
                if try !reader.consumeNull() {
                    try reader.beginArray()
                    var isFirstElement = true
                    while try reader.nextElement(&isFirstElement) {
                        value.transactions.append(try QonversionWireTransaction(fastReading: &reader))
                    }
                }
            default: try seen.skip(key, &reader)
            }
        }
        // A missing, `null` or empty id and a missing flag fail the document in the general reader.
        guard let id, let flag else { throw JSONFastPathMiss() }
        value.id = id
        value.activeFlag = flag
        self = value
    }
}

extension QonversionWireTransaction {
    private static let keys: [StaticString] = [
        "transaction_id", "original_transaction_id", "offer_code", "transaction_timestamp", "expiration_timestamp",
        "transaction_revoke_timestamp", "environment", "ownership_type", "type",
    ]

    /// One `store_transactions` element. Integer ids (which the general reader turns into strings) are
    /// a miss.
    fileprivate init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        self.init()
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.qonversionField(key, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: transactionId = try reader.qonversionOptionalIdentifier()
            case 1: originalTransactionId = try reader.qonversionOptionalIdentifier()
            case 2: offerCode = try reader.qonversionOptionalIdentifier()
            case 3: transactionDate = try reader.qonversionEpochSeconds()
            case 4: expirationDate = try reader.qonversionEpochSeconds()
            case 5: revokeDate = try reader.qonversionEpochSeconds()
            case 6: environment = try reader.qonversionOptionalString()
            case 7: ownershipType = try reader.qonversionOptionalString()
            case 8: type = try reader.qonversionOptionalString()
            default: try seen.skip(key, &reader)
            }
        }
    }
}

/// One v3 or v4 list item with the keys of both versions, read before the list's version is known (the
/// envelope's `object`, `has_more` and `url` may follow `data`). A key of the other version read
/// strictly can only turn an answer into a miss, never change it.
struct QonversionFastListItem {
    var id = ""
    /// v3 `active`.
    var active: QonversionActiveFlag?
    /// v4 `is_active`.
    var isActive: QonversionActiveFlag?
    /// `object: "user_entitlement"`, which marks a v4 item.
    var isUserEntitlementObject = false
    var source: String?
    var productId: String?
    var renewState: QonversionRenewStateCode?
    var currentPeriodType: String?
    /// v3 `started`/`expires` (seconds).
    var started: Date?
    var expires: Date?
    /// v4 `started_at`/`expires_at` (RFC 3339).
    var startedAt: Date?
    var expiresAt: Date?

    private static let keys: [StaticString] = [
        "id", "active", "is_active", "object", "source", "product", "started", "expires", "started_at", "expires_at",
    ]

    init(fastReading reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var id: String?
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            let field = reader.qonversionField(key, in: Self.keys)
            if let field { try seen.mark(field) }
            switch field {
            case 0: id = try reader.qonversionOptionalIdentifier()
            // `null` would still mark the item's version for detection: left to the general reader.
            case 1: active = try reader.qonversionFlag()
            case 2: isActive = try reader.qonversionFlag()
            case 3:
                // Any other kind (Stripe's `subscription`, `checkout.session`…) is a document the general
                // reader may decline as another vendor's: it decides.
                guard try reader.string() == "user_entitlement" else { throw JSONFastPathMiss() }
                isUserEntitlementObject = true
            case 4: source = try reader.qonversionOptionalString()
            case 5:
                if try reader.qonversionOptionalObjectFollows() { try readProduct(&reader) }
            case 6: started = try reader.qonversionEpochSeconds()
            case 7: expires = try reader.qonversionEpochSeconds()
            case 8: startedAt = try reader.qonversionISODate()
            case 9: expiresAt = try reader.qonversionISODate()
            default:
                // An App Store statuses group's marker: which format the list is, only the values can tell.
                if reader.key(key, is: "lastTransactions") { throw JSONFastPathMiss() }
                try seen.skip(key, &reader)
            }
        }
        guard let id else { throw JSONFastPathMiss() }
        self.id = id
    }

    /// `product`: `product_id` and `subscription.renew_state` / `current_period_type`.
    private mutating func readProduct(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "product_id") {
                try seen.mark(0)
                productId = try reader.qonversionOptionalIdentifier()
            } else if reader.key(key, is: "subscription") {
                try seen.mark(1)
                if try reader.qonversionOptionalObjectFollows() { try readSubscription(&reader) }
            } else {
                try seen.skip(key, &reader)
            }
        }
    }

    private mutating func readSubscription(_ reader: inout JSONByteReader) throws(JSONFastPathMiss) {
        var seen = QonversionSeenKeys()
        try reader.beginObject()
        var isFirst = true
        while let key = try reader.nextKey(&isFirst) {
            if reader.key(key, is: "renew_state") {
                try seen.mark(0)
                renewState = try reader.qonversionRenewState()
            } else if reader.key(key, is: "current_period_type") {
                try seen.mark(1)
                currentPeriodType = try reader.qonversionOptionalString()
            } else {
                try seen.skip(key, &reader)
            }
        }
    }
}

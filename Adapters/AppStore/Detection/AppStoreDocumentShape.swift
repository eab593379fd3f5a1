import EntitlementKit

/// The four documents the adapter reads.
enum AppStoreDocumentShape: Sendable, Hashable {
    /// Get All Subscription Statuses: `{"data": [{"lastTransactions": [...]}], ...}`.
    case statuses
    /// Get Transaction History: `{"signedTransactions": [...], ...}`.
    case history
    /// A JSON array of transactions (StoreKit 2's `jwsRepresentation`s, or their payloads).
    case transactions
    /// `{"statuses": ..., "history": ..., "transactions": [...]}`, each member optional.
    case combined

    /// The members of the combined object.
    static let combinedKeys: Set<String> = ["statuses", "history", "transactions"]

    /// The members of the App Store Server API's statuses and history responses.
    static let responseKeys: Set<String> = [
        "environment", "bundleId", "appAppleId", "data", "revision", "hasMore", "signedTransactions",
    ]

    /// What ``FormatDetector`` looks for first: a member of a response or of the combined object, or an array.
    static let markers = FormatMarkers(
        memberNames: combinedKeys.union(["signedTransactions", "data"]), readsArrays: true)

    /// The shape `document` unmistakably has, or `nil`.
    ///
    /// Claimed only where the document says it is Apple's: a statuses response whose `data` is a non-empty
    /// array of objects holding `lastTransactions` (an empty `data: []` says nothing); a history response
    /// with a `signedTransactions` array and no `data`, either holding no member outside ``responseKeys``; a
    /// non-empty array whose every element is a JWS (three dot-separated parts) or an
    /// object with an Apple `transactionId` or `originalTransactionId`; an object whose members are all
    /// `statuses`, `history` or `transactions` (at least one).
    static func detect(_ document: JSONValue) -> AppStoreDocumentShape? {
        switch document {
        case .array(let items):
            return !items.isEmpty && items.allSatisfy(looksLikeTransactionItem) ? .transactions : nil
        case .object(let members):
            if !members.isEmpty, members.keys.allSatisfy(combinedKeys.contains) { return .combined }
            guard members.keys.allSatisfy(responseKeys.contains) else { return nil }
            if case .array = members["signedTransactions"], members["data"] == nil { return .history }
            if case .array(let groups)? = members["data"], !groups.isEmpty,
                groups.allSatisfy({ group in
                    if case .array = group["lastTransactions"] { return true }
                    return false
                })
            {
                return .statuses
            }
            return nil
        default:
            return nil
        }
    }

    /// The shape to read a document named as App Store data as: as ``detect(_:)`` but also the
    /// documents detection leaves alone (an empty statuses `data`, an empty array), so that a broken
    /// document gets the error that names what is wrong.
    static func shape(of document: JSONNode) throws(DocumentError) -> AppStoreDocumentShape {
        if let shape = detect(document.value) { return shape }
        switch document.value {
        case .array:
            return .transactions
        case .object(let members):
            if members.keys.contains(where: combinedKeys.contains) { return .combined }
            if members["signedTransactions"] != nil { return .history }
            if members["data"] != nil { return .statuses }
        default:
            break
        }
        var value: String?
        if case .object = document.value {} else { value = document.value.compactText }
        throw DocumentError(
            kind: .unrecognizedFormat, path: document.path, value: value,
            reason:
                "is not an App Store document (a subscription statuses or transaction history response, an array "
                + "of transactions, or {\"statuses\", \"history\", \"transactions\"})")
    }

    private static func looksLikeTransactionItem(_ item: JSONValue) -> Bool {
        switch item {
        case .string(let text):
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 3 && parts.allSatisfy { !$0.isEmpty }
        case .object(let members):
            return members["transactionId"] != nil || members["originalTransactionId"] != nil
        default:
            return false
        }
    }
}

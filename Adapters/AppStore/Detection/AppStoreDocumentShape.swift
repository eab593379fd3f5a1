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
    static let combinedKeys: Set<String> = [Field.statuses, Field.history, Field.transactions]

    /// What ``FormatDetector`` looks for first: a member of a response or of the combined object, or an array.
    static let markers = FormatMarkers(
        memberNames: combinedKeys.union([Field.signedTransactions, Field.data]), readsArrays: true)

    /// The shape `document` unmistakably has, or `nil`.
    ///
    /// Claimed by what marks a document as Apple's, whatever else it holds (Apple adds fields; a document
    /// another format claims too is refused as ambiguous by ``FormatDetector``): a statuses response whose
    /// `data` is a non-empty array of objects holding `lastTransactions` (an empty `data: []` says nothing);
    /// a history response with a `signedTransactions` array and no `data`; a non-empty array whose every
    /// element is a JWS (three dot-separated parts) or an object with an Apple `transactionId` or
    /// `originalTransactionId`; a combined object one of whose `statuses`, `history` or `transactions` is
    /// such a response or array. A combined object none of whose members is marked (`{"statuses": {"data":
    /// []}}`) says nothing about whose it is, so it is claimed only when it holds nothing else.
    static func detect(_ document: JSONValue) -> AppStoreDocumentShape? {
        switch document {
        case .array(let items):
            return !items.isEmpty && items.allSatisfy(looksLikeTransactionItem) ? .transactions : nil
        case .object(let members):
            if members.keys.contains(where: combinedKeys.contains) {
                let marked =
                    members[Field.statuses].map { holdsResponses($0, shaped: .statuses) } == true
                    || members[Field.history].map { holdsResponses($0, shaped: .history) } == true
                    || members[Field.transactions].map { detect($0) == .transactions } == true
                if marked || members.keys.allSatisfy(combinedKeys.contains) { return .combined }
            }
            return response(members)
        default:
            return nil
        }
    }

    /// The response `members` unmistakably are, or `nil`.
    private static func response(_ members: [String: JSONValue]) -> AppStoreDocumentShape? {
        if case .array = members[Field.signedTransactions], members[Field.data] == nil { return .history }
        if case .array(let groups)? = members[Field.data], !groups.isEmpty,
            groups.allSatisfy({ group in
                if case .array = group[Field.lastTransactions] { return true }
                return false
            })
        {
            return .statuses
        }
        return nil
    }

    /// Whether a combined object's member (one response or an array of them) holds a response of `shape`.
    private static func holdsResponses(_ value: JSONValue, shaped shape: AppStoreDocumentShape) -> Bool {
        switch value {
        case .object(let members): response(members) == shape
        case .array(let pages):
            pages.contains { page in
                if case .object(let members) = page { response(members) == shape } else { false }
            }
        default: false
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
            if members[Field.signedTransactions] != nil { return .history }
            if members[Field.data] != nil { return .statuses }
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
            return members[Field.transactionId] != nil || members[Field.originalTransactionId] != nil
        default:
            return false
        }
    }
}

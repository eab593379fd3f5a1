import EntitlementKit
import Foundation

/// Reads one document of any of the four shapes into an ``AppStoreDocument``, every item opened by the
/// item reader. Items are numbered in reading order: statuses, then history, then the transactions array.
struct AppStoreDocumentReader {
    let items: AppStoreItemReader
    private(set) var document = AppStoreDocument()
    private var nextOrder = 0

    init(items: AppStoreItemReader) {
        self.items = items
    }

    /// Reads `root`, a document of `shape`.
    mutating func read(_ root: JSONNode, as shape: AppStoreDocumentShape) throws(DocumentError) {
        switch shape {
        case .statuses: try readStatuses(root)
        case .history: try readHistory(root)
        case .transactions: try readItems(root)
        case .combined:
            if let statuses = try root.optional(Field.statuses) { try readPages(statuses, as: .statuses) }
            if let history = try root.optional(Field.history) { try readPages(history, as: .history) }
            if let transactions = try root.optional(Field.transactions) { try readItems(transactions) }
        }
    }

    /// A member of the combined object: one response, or an array of responses (pages, or answers for
    /// several original transactions).
    private mutating func readPages(_ node: JSONNode, as shape: AppStoreDocumentShape) throws(DocumentError) {
        let pages = if node.kind == .array { try node.elements() } else { [node] }
        for page in pages {
            if shape == .statuses { try readStatuses(page) } else { try readHistory(page) }
        }
    }

    /// Get All Subscription Statuses.
    private mutating func readStatuses(_ node: JSONNode) throws(DocumentError) {
        try checkEnvelopeBundleId(node)
        for group in try node.required(Field.data).elements() {
            for item in try group.required(Field.lastTransactions).elements() {
                try readSubscriptionState(item)
            }
        }
    }

    /// One `lastTransactions[]` element: the chain's latest transaction, its renewal info and status.
    private mutating func readSubscriptionState(_ item: JSONNode) throws(DocumentError) {
        let status = try item.optional(Field.status)?.integer()
        let statedChain = try item.optional(Field.originalTransactionId)?.identifier()
        let transaction = try readTransaction(item.required(Field.signedTransactionInfo))
        var renewalInfo: AppStoreRenewalInfo?
        if let node = try item.optional(Field.signedRenewalInfo) {
            let (payload, isVerified) = try items.open(node)
            renewalInfo = try AppStoreRenewalInfo(reading: payload, isVerified: isVerified)
        }
        // The three must speak of one chain: a renewal info attached to the wrong subscription could
        // lend it another's grace period.
        let chain = transaction.originalTransactionId ?? statedChain
        if let statedChain, let own = transaction.originalTransactionId, statedChain != own {
            throw DocumentError(
                kind: .inconsistent, path: transaction.path.appending(Field.originalTransactionId),
                value: JSONValue.string(own).compactText,
                reason: "differs from the item's originalTransactionId \(JSONValue.string(statedChain).compactText)")
        }
        if let renewalInfo, let chain, let renewalChain = renewalInfo.originalTransactionId, renewalChain != chain {
            throw DocumentError(
                kind: .inconsistent, path: renewalInfo.path.appending(Field.originalTransactionId),
                value: JSONValue.string(renewalChain).compactText,
                reason: "differs from the transaction's originalTransactionId \(JSONValue.string(chain).compactText)")
        }
        if let renewalInfo { document.renewalInfos.append(renewalInfo) }
        guard let chain else { return }
        let state = AppStoreSubscriptionState(
            path: item.path, status: status, renewalInfo: renewalInfo, signedDate: transaction.signedDate)
        // The same chain in two statuses responses (two answers, fetched at different times): the one whose
        // transaction Apple signed last is the newer state.
        if let existing = document.states[chain], let existingDate = existing.signedDate,
            transaction.signedDate.map({ $0 <= existingDate }) ?? true
        {
            return
        }
        document.states[chain] = state
    }

    /// Get Transaction History.
    private mutating func readHistory(_ node: JSONNode) throws(DocumentError) {
        try checkEnvelopeBundleId(node)
        try readTransactions(node.required(Field.signedTransactions))
    }

    /// An array of transaction items.
    private mutating func readTransactions(_ node: JSONNode) throws(DocumentError) {
        for item in try node.elements() { _ = try readTransaction(item) }
    }

    /// The array an app sends from StoreKit 2: transactions, and the renewal infos (`RenewalInfo`'s
    /// `jwsRepresentation`) an app may send along, each read as its subscription's renewal info.
    private mutating func readItems(_ node: JSONNode) throws(DocumentError) {
        for item in try node.elements() {
            let (payload, isVerified) = try items.open(item)
            if Self.isRenewalInfo(payload) {
                try readLooseRenewalInfo(payload, isVerified: isVerified)
            } else {
                _ = try record(payload, isVerified: isVerified)
            }
        }
    }

    /// A renewal-info payload: no `transactionId` or `type`, and what only renewal info carries.
    static func isRenewalInfo(_ payload: JSONNode) -> Bool {
        payload.member(Field.transactionId) == nil && payload.member(Field.type) == nil
            && (payload.member(Field.autoRenewStatus) != nil || payload.member(Field.autoRenewProductId) != nil)
    }

    /// A renewal info outside a statuses response: it describes its chain unless a statuses response
    /// (which adds the status) or a renewal info Apple signed later already does.
    private mutating func readLooseRenewalInfo(_ payload: JSONNode, isVerified: Bool) throws(DocumentError) {
        let renewalInfo = try AppStoreRenewalInfo(reading: payload, isVerified: isVerified)
        document.renewalInfos.append(renewalInfo)
        guard let chain = renewalInfo.originalTransactionId else { return }
        if let existing = document.states[chain] {
            if existing.status != nil { return }
            if let existingDate = existing.signedDate, renewalInfo.signedDate.map({ $0 <= existingDate }) ?? true {
                return
            }
        }
        document.states[chain] = AppStoreSubscriptionState(
            path: payload.path, status: nil, renewalInfo: renewalInfo, signedDate: renewalInfo.signedDate)
    }

    private mutating func readTransaction(_ node: JSONNode) throws(DocumentError) -> AppStoreTransaction {
        let (payload, isVerified) = try items.open(node)
        return try record(payload, isVerified: isVerified)
    }

    private mutating func record(_ payload: JSONNode, isVerified: Bool) throws(DocumentError) -> AppStoreTransaction {
        try items.checkBundleId(of: payload)
        let transaction = try AppStoreTransaction(reading: payload, order: nextOrder, isVerified: isVerified)
        nextOrder += 1
        document.transactions.append(transaction)
        return transaction
    }

    /// A response's own `bundleId` (not signed, but a response for another app is the wrong document).
    func checkEnvelopeBundleId(_ node: JSONNode) throws(DocumentError) {
        guard let bundleId = items.bundleId, let member = try node.optional(Field.bundleId) else { return }
        // Bytes, not Swift's canonical equivalence: "café" precomposed and decomposed are different ids.
        guard try member.string().utf8.elementsEqual(bundleId.utf8) else {
            throw member.invalid(
                "is not the configured bundle id \(DocumentError.quoted(bundleId))")
        }
    }
}

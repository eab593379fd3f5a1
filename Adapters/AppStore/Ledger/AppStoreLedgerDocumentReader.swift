import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Reads an App Store document — a statuses or history response, the app's array of StoreKit 2 JWS, or
/// the combined object — into records, each item a JWS that verifies and, for a transaction, carries the
/// configured bundle id. An item given decoded (its payload as an object) is refused `unsigned`: nothing
/// but Apple's signature makes an App Store statement true.
struct AppStoreLedgerDocumentReader {
    let source: AppStoreLedgerSource
    /// When the input was received: the instant of a record whose payload has no `signedDate`, and the
    /// limit (plus five minutes) of every `signedDate`.
    let receivedAt: Date

    func records(of body: Data) throws(LedgerRefusal) -> [LedgerRecord] {
        let records = try refusing { () throws -> [LedgerRecord] in try read(try JSONNode(parsing: body)) }
        try AppStoreLedgerRecords.refuseFuture(records, receivedAt: receivedAt)
        return records
    }

    /// The records of what the app posted: one StoreKit 2 `jwsRepresentation`, or a JSON array of them.
    func records(ofClaim token: String) throws(LedgerRefusal) -> [LedgerRecord] {
        let records = try refusing { () throws -> [LedgerRecord] in
            let items: JSONNode
            if token.hasPrefix("{") {
                throw LedgerRefusal(.unsigned, "the posted purchase is an object, not a JWS or an array of them")
            } else if token.hasPrefix("[") {
                items = try JSONNode(parsing: Data(token.utf8))
                guard items.kind == .array else { throw items.typeMismatch("an array of JWS strings") }
            } else {
                items = JSONNode(.array([.string(token)]))
            }
            var records: [LedgerRecord] = []
            try readItems(items, into: &records)
            return records
        }
        try AppStoreLedgerRecords.refuseFuture(records, receivedAt: receivedAt)
        return records
    }

    private func refusing(_ body: () throws -> [LedgerRecord]) throws(LedgerRefusal) -> [LedgerRecord] {
        do {
            return try body()
        } catch let error as DocumentError {
            throw LedgerRefusal.appStore(error, bundleId: source.bundleId)
        } catch let refusal as LedgerRefusal {
            throw refusal
        } catch {
            throw LedgerRefusal(.malformedBody, "\(error)")
        }
    }

    private func read(_ root: JSONNode) throws -> [LedgerRecord] {
        do {
            var records: [LedgerRecord] = []
            switch try AppStoreDocumentShape.shape(of: root) {
            case .statuses: try readStatuses(root, into: &records)
            case .history: try readHistory(root, into: &records)
            case .transactions: try readItems(root, into: &records)
            case .combined:
                if let statuses = try root.optional(Field.statuses) {
                    for page in try pages(statuses) { try readStatuses(page, into: &records) }
                }
                if let history = try root.optional(Field.history) {
                    for page in try pages(history) { try readHistory(page, into: &records) }
                }
                if let transactions = try root.optional(Field.transactions) {
                    try readItems(transactions, into: &records)
                }
            }
            return records
        }
    }

    private func pages(_ node: JSONNode) throws(DocumentError) -> [JSONNode] {
        if node.kind == .array { return try node.elements() }
        return [node]
    }

    private var envelope: AppStoreDocumentReader { AppStoreDocumentReader(items: source.items) }

    private func readStatuses(_ node: JSONNode, into records: inout [LedgerRecord]) throws {
        try envelope.checkEnvelopeBundleId(node)
        for group in try node.required(Field.data).elements() {
            for item in try group.required(Field.lastTransactions).elements() {
                let stated = try item.optional(Field.originalTransactionId)?.identifier()
                let (payload, body) = try open(item.required(Field.signedTransactionInfo))
                try source.items.checkBundleId(of: payload)
                let transaction = try AppStoreLedgerRecords.transaction(payload, body: body, receivedAt: receivedAt)
                if let stated, let own = transaction?.thread, stated != own {
                    throw DocumentError(
                        kind: .inconsistent, path: payload.path.appending(Field.originalTransactionId),
                        value: JSONValue.string(own).compactText,
                        reason: "differs from the item's originalTransactionId \(JSONValue.string(stated).compactText)")
                }
                let chain = transaction?.thread ?? stated
                var newest = transaction?.instant
                if let transaction { records.append(transaction) }
                if let node = try item.optional(Field.signedRenewalInfo) {
                    let (payload, body) = try open(node)
                    if let renewal = try AppStoreLedgerRecords.renewalInfo(
                        payload, body: body, chain: chain, receivedAt: receivedAt)
                    {
                        if let chain, renewal.thread != chain {
                            throw DocumentError(
                                kind: .inconsistent, path: node.path.appending(Field.originalTransactionId),
                                value: JSONValue.string(renewal.thread).compactText,
                                reason:
                                    "differs from the transaction's originalTransactionId \(JSONValue.string(chain).compactText)"
                            )
                        }
                        newest = max(newest ?? renewal.instant, renewal.instant)
                        records.append(renewal)
                    }
                }
                if let status = try item.optional(Field.status)?.integer(), let chain {
                    // A statuses response has no signedDate of its own: the item's newest counts.
                    records.append(
                        AppStoreLedgerRecords.status(status, chain: chain, signedDate: newest, receivedAt: receivedAt))
                }
            }
        }
    }

    private func readHistory(_ node: JSONNode, into records: inout [LedgerRecord]) throws {
        try envelope.checkEnvelopeBundleId(node)
        for item in try node.required(Field.signedTransactions).elements() {
            let (payload, body) = try open(item)
            try source.items.checkBundleId(of: payload)
            if let record = try AppStoreLedgerRecords.transaction(payload, body: body, receivedAt: receivedAt) {
                records.append(record)
            }
        }
    }

    private func readItems(_ node: JSONNode, into records: inout [LedgerRecord]) throws {
        var renewals: [(record: LedgerRecord, path: JSONPath)] = []
        for item in try node.elements() {
            let (payload, body) = try open(item)
            if AppStoreDocumentReader.isRenewalInfo(payload) {
                if let record = try AppStoreLedgerRecords.renewalInfo(
                    payload, body: body, chain: nil, receivedAt: receivedAt)
                {
                    renewals.append((record, item.path))
                }
                continue
            }
            try source.items.checkBundleId(of: payload)
            if let record = try AppStoreLedgerRecords.transaction(payload, body: body, receivedAt: receivedAt) {
                records.append(record)
            }
        }
        // A renewal info carries no bundle id: it is taken only beside a transaction of its subscription
        // (whose bundle id was checked), so another app's signed renewal info cannot ride in.
        let checked = Set(records.map(\.thread))
        for renewal in renewals {
            guard checked.contains(renewal.record.thread) else {
                throw DocumentError(
                    kind: .inconsistent, path: renewal.path.appending(Field.originalTransactionId),
                    value: JSONValue.string(renewal.record.thread).compactText,
                    reason: "names no transaction of the document, so its app cannot be checked")
            }
            records.append(renewal.record)
        }
    }

    /// An item verified by the adapter's item reader: its payload and the payload's bytes. An item that is
    /// not a JWS string is refused `unsigned`.
    private func open(_ node: JSONNode) throws -> (JSONNode, Data) {
        guard case .string = node.value else {
            throw LedgerRefusal(
                .unsigned,
                "\(node.path) is \(node.value.typeDescription), not a JWS: every App Store statement in a ledger "
                    + "is signed by Apple and verified")
        }
        let (payload, _) = try source.items.open(node)
        return (payload, Data(payload.compactTextBytes))
    }
}

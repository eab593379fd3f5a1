import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Reads an App Store document — a statuses or history response, the app's array of StoreKit 2 JWS, or
/// the combined object — into records, each item opened (verified) by the adapter's item reader.
struct AppStoreLedgerDocumentReader {
    let source: AppStoreLedgerSource
    /// The instant of a record whose payload has no `signedDate`.
    let receivedAt: Date

    func records(of body: Data) throws(LedgerRefusal) -> [LedgerRecord] {
        do {
            let root = try JSONNode(parsing: body)
            var records: [LedgerRecord] = []
            switch try AppStoreDocumentShape.shape(of: root) {
            case .statuses: try readStatuses(root, into: &records)
            case .history: try readHistory(root, into: &records)
            case .transactions: try readItems(root, into: &records)
            case .combined:
                if let statuses = try root.optional("statuses") {
                    for page in try pages(statuses) { try readStatuses(page, into: &records) }
                }
                if let history = try root.optional("history") {
                    for page in try pages(history) { try readHistory(page, into: &records) }
                }
                if let transactions = try root.optional("transactions") { try readItems(transactions, into: &records) }
            }
            return records
        } catch {
            throw LedgerRefusal.appStore(error, bundleId: source.bundleId)
        }
    }

    private func pages(_ node: JSONNode) throws(DocumentError) -> [JSONNode] {
        if case .array = node.value { return try node.elements() }
        return [node]
    }

    private var envelope: AppStoreDocumentReader { AppStoreDocumentReader(items: source.items) }

    private func readStatuses(_ node: JSONNode, into records: inout [LedgerRecord]) throws(DocumentError) {
        try envelope.checkEnvelopeBundleId(node)
        for group in try node.required("data").elements() {
            for item in try group.required("lastTransactions").elements() {
                let stated = try item.optional("originalTransactionId")?.identifier()
                let (payload, body, isVerified) = try open(item.required("signedTransactionInfo"))
                try source.items.checkBundleId(of: payload)
                let transaction = try AppStoreLedgerRecords.transaction(
                    payload, body: body, isVerified: isVerified, receivedAt: receivedAt)
                if let stated, let own = transaction?.thread, stated != own {
                    throw DocumentError(
                        kind: .inconsistent, path: payload.path.appending("originalTransactionId"),
                        value: JSONValue.string(own).compactText,
                        reason: "differs from the item's originalTransactionId \(JSONValue.string(stated).compactText)")
                }
                let chain = transaction?.thread ?? stated
                var newest = transaction?.instant
                if let transaction { records.append(transaction) }
                if let node = try item.optional("signedRenewalInfo") {
                    let (payload, body, isVerified) = try open(node)
                    if let renewal = try AppStoreLedgerRecords.renewalInfo(
                        payload, body: body, isVerified: isVerified, chain: chain, receivedAt: receivedAt)
                    {
                        if let chain, renewal.thread != chain {
                            throw DocumentError(
                                kind: .inconsistent, path: node.path.appending("originalTransactionId"),
                                value: JSONValue.string(renewal.thread).compactText,
                                reason:
                                    "differs from the transaction's originalTransactionId \(JSONValue.string(chain).compactText)"
                            )
                        }
                        newest = max(newest ?? renewal.instant, renewal.instant)
                        records.append(renewal)
                    }
                }
                if let status = try item.optional("status")?.integer(), let chain {
                    // A statuses response has no signedDate of its own: the item's newest counts.
                    records.append(
                        AppStoreLedgerRecords.status(
                            status, chain: chain, signedDate: newest,
                            isVerified: transaction?.isVerified ?? false, receivedAt: receivedAt))
                }
            }
        }
    }

    private func readHistory(_ node: JSONNode, into records: inout [LedgerRecord]) throws(DocumentError) {
        try envelope.checkEnvelopeBundleId(node)
        for item in try node.required("signedTransactions").elements() {
            let (payload, body, isVerified) = try open(item)
            try source.items.checkBundleId(of: payload)
            if let record = try AppStoreLedgerRecords.transaction(
                payload, body: body, isVerified: isVerified, receivedAt: receivedAt)
            {
                records.append(record)
            }
        }
    }

    private func readItems(_ node: JSONNode, into records: inout [LedgerRecord]) throws(DocumentError) {
        for item in try node.elements() {
            let (payload, body, isVerified) = try open(item)
            if AppStoreDocumentReader.isRenewalInfo(payload) {
                if let record = try AppStoreLedgerRecords.renewalInfo(
                    payload, body: body, isVerified: isVerified, chain: nil, receivedAt: receivedAt)
                {
                    records.append(record)
                }
                continue
            }
            try source.items.checkBundleId(of: payload)
            if let record = try AppStoreLedgerRecords.transaction(
                payload, body: body, isVerified: isVerified, receivedAt: receivedAt)
            {
                records.append(record)
            }
        }
    }

    /// An item opened by the adapter's item reader: its payload, the payload's bytes, whether verified.
    private func open(_ node: JSONNode) throws(DocumentError) -> (JSONNode, Data, Bool) {
        let (payload, isVerified) = try source.items.open(node)
        return (payload, Data(payload.value.compactText.utf8), isVerified)
    }
}

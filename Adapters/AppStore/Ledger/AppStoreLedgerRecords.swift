import EntitlementKit
import EntitlementKitLedger
import Foundation

/// The App Store's records: one per transaction (by `transactionId`), one renewal info and one status per
/// subscription chain (`originalTransactionId`), each ordered by the `signedDate` Apple signed it at, then
/// its bytes (every App Store statement in a ledger is a verified JWS) — and their way back into the
/// adapter's document, which the adapter's mapping turns into a snapshot.
enum AppStoreLedgerRecords {
    static let renewalInfoStatement = "renewalInfo"
    static let statusStatement = "status"
    static let transactionStatementPrefix = "transaction "

    /// How far after the instant an input was received a statement may be signed: clocks differ a little;
    /// a statement dated later would outrank every genuine statement that follows it.
    static let futureTolerance: TimeInterval = 300

    static func order(signedDate: Date?, body: Data) -> LedgerOrderKey {
        LedgerOrderKey([.number(signedDate?.millisecondsSince1970 ?? Int64.min), .bytes(Array(body))])
    }

    /// Refuses the whole input when a statement of it (`signedDate`, or any record's instant) was signed
    /// more than ``futureTolerance`` after `receivedAt`.
    static func refuseFuture(_ records: [LedgerRecord], signedDate: Date? = nil, receivedAt: Date)
        throws(LedgerRefusal)
    {
        let limit = receivedAt.addingTimeInterval(futureTolerance)
        let dated = (signedDate.map { [("the notification", $0)] } ?? []) + records.map { ($0.statement, $0.instant) }
        for (statement, instant) in dated where instant > limit {
            throw LedgerRefusal(
                .signedInFuture,
                "\(statement) is signed at \(RFC3339.string(from: instant)), more than 5 minutes after the input "
                    + "was received (\(RFC3339.string(from: receivedAt)))")
        }
    }

    static func environment(_ raw: String?) -> Environment? {
        guard let raw else { return nil }
        switch raw {
        case "Production": return .production
        case "Sandbox": return .sandbox
        default: return Environment(rawValue: raw.lowercased())
        }
    }

    /// The record of a transaction payload, or `nil` when it names no purchase to thread it by.
    static func transaction(_ payload: JSONNode, body: Data, receivedAt: Date) throws(DocumentError) -> LedgerRecord? {
        let transaction = try AppStoreTransaction(reading: payload, order: 0, isVerified: true)
        guard let thread = transaction.originalTransactionId ?? transaction.transactionId else { return nil }
        let links = transaction.appAccountToken.map { token in
            [LedgerAccountLink(key: LedgerAccountKey(.appAccountToken, token), appUserId: token)]
        }
        return LedgerRecord(
            thread: thread,
            statement: transactionStatementPrefix + (transaction.transactionId ?? thread),
            order: order(signedDate: transaction.signedDate, body: body),
            body: body, isVerified: true, instant: transaction.signedDate ?? receivedAt,
            environment: environment(transaction.environment), accountLinks: links ?? [])
    }

    /// The record of a renewal-info payload for the chain `chain` (its own `originalTransactionId` first).
    static func renewalInfo(_ payload: JSONNode, body: Data, chain: String?, receivedAt: Date)
        throws(DocumentError) -> LedgerRecord?
    {
        let renewalInfo = try AppStoreRenewalInfo(reading: payload, isVerified: true)
        guard let thread = renewalInfo.originalTransactionId ?? chain else { return nil }
        let environment = try payload.optional(Field.environment)?.string()
        return LedgerRecord(
            thread: thread, statement: renewalInfoStatement,
            order: order(signedDate: renewalInfo.signedDate, body: body),
            body: body, isVerified: true, instant: renewalInfo.signedDate ?? receivedAt,
            environment: Self.environment(environment))
    }

    /// The record of a chain's status (`1`–`5`) as Apple stated it at `signedDate`.
    static func status(_ status: Int64, chain: String, signedDate: Date?, receivedAt: Date) -> LedgerRecord {
        let body = Data(JSONValue.object(["status": .integer(status)]).compactText.utf8)
        return LedgerRecord(
            thread: chain, statement: statusStatement,
            order: order(signedDate: signedDate, body: body),
            body: body, isVerified: true, instant: signedDate ?? receivedAt, environment: nil)
    }

    /// The adapter's document of every record of `threads`: the mapping's input.
    static func document(of threads: [LedgerThread]) throws(LedgerRefusal) -> AppStoreDocument {
        var document = AppStoreDocument()
        var transactions: [(record: LedgerRecord, node: JSONNode)] = []
        do {
            for thread in threads.sorted(by: { $0.id < $1.id }) {
                var renewalInfo: AppStoreRenewalInfo?
                var status: Int64?
                var signedDate: Date?
                for record in thread.records {
                    let node = try JSONNode(parsing: record.body)
                    if record.statement.hasPrefix(transactionStatementPrefix) {
                        transactions.append((record, node))
                    } else if record.statement == renewalInfoStatement {
                        renewalInfo = try AppStoreRenewalInfo(reading: node, isVerified: record.isVerified)
                        signedDate = max(signedDate ?? record.instant, record.instant)
                    } else if record.statement == statusStatement {
                        status = try node.required(Field.status).integer()
                        signedDate = max(signedDate ?? record.instant, record.instant)
                    }
                }
                if let renewalInfo { document.renewalInfos.append(renewalInfo) }
                if renewalInfo != nil || status != nil {
                    document.states[thread.id.key] = AppStoreSubscriptionState(
                        path: .root, status: status, renewalInfo: renewalInfo, signedDate: signedDate)
                }
            }
            // The mapping's last tie-breaker is the reading order: oldest statement first.
            transactions.sort { $0.record.order < $1.record.order }
            for (index, item) in transactions.enumerated() {
                document.transactions.append(
                    try AppStoreTransaction(reading: item.node, order: index, isVerified: item.record.isVerified))
            }
        } catch {
            throw LedgerRefusal(.storage, "a kept App Store record does not read: \(error)", documentError: error)
        }
        return document
    }
}

extension LedgerRefusal {
    /// A refusal for a document error met while reading App Store input: a JWS that does not verify is a
    /// `signature` or `certificateChain` refusal, a foreign bundle id `bundleId`, the rest `malformedBody`.
    static func appStore(_ error: DocumentError, bundleId: String) -> LedgerRefusal {
        let text = error.description
        let kind: LedgerRefusal.Kind
        if text.contains("does not verify") {
            let chainWords = ["x5c", "root certificate", "not valid at", "certificate authority"]
            kind =
                chainWords.contains(where: text.contains) && !text.contains("signature does not match")
                ? .certificateChain : .signature
        } else if text.contains("configured bundle id") || text.contains("is required when a bundle id") {
            kind = .bundleId
        } else {
            kind = .malformedBody
        }
        return LedgerRefusal(kind, text, documentError: error)
    }
}

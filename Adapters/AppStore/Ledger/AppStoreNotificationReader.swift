import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Reads an App Store Server Notification V2 request body, `{"signedPayload": JWS}`: the payload and the
/// two JWS inside its `data` verified, the bundle id checked, the environment named, and what it states
/// turned into records (`TEST` and `CONSUMPTION_REQUEST` state nothing).
struct AppStoreNotificationReader {
    let source: AppStoreLedgerSource

    /// Types that ask something of the server or test the endpoint, stating nothing about a purchase.
    static let typesStatingNothing: [String: String] = [
        "TEST": "a test notification", "CONSUMPTION_REQUEST": "a consumption request",
    ]

    func read(_ body: Data, receivedAt: Date) throws(LedgerRefusal) -> LedgerReading {
        do {
            return try readChecked(body, receivedAt: receivedAt)
        } catch let error as DocumentError {
            throw LedgerRefusal.appStore(error, bundleId: source.bundleId)
        } catch let refusal as LedgerRefusal {
            throw refusal
        } catch {
            throw LedgerRefusal(.malformedBody, "\(error)")
        }
    }

    private func readChecked(_ body: Data, receivedAt: Date) throws -> LedgerReading {
        let envelope = try JSONNode(parsing: body)
        let signedPayload = try envelope.required(Field.signedPayload)
        let verified = try source.verify(try signedPayload.string(), path: signedPayload.path)
        try AppStoreLedgerRecords.refuseFuture([], signedDate: verified.signedDate, receivedAt: receivedAt)
        let payload = try AppStoreItemReader.payloadNode(verified.payload, at: signedPayload.path)
        let notificationId = try payload.required(Field.notificationUUID).string()
        let type = try payload.optional(Field.notificationType)?.string()
        let data = try payload.optional(Field.data)
        let (bundleId, environment) = try appAndEnvironment(of: payload)
        guard let bundleId else {
            throw DocumentError(
                kind: .missingField, path: payload.path.appending(Field.data).appending(Field.bundleId),
                reason: "is required: the notification must name its app")
        }
        guard bundleId == source.bundleId else {
            throw LedgerRefusal(
                .bundleId,
                "the notification is for bundle id \(DocumentError.quoted(bundleId)), not the configured "
                    + DocumentError.quoted(source.bundleId))
        }
        if let type, let reason = Self.typesStatingNothing[type] {
            return LedgerReading(
                notificationId: notificationId, environment: environment, effect: .noChange(reason: reason))
        }
        guard let data, data.member(Field.signedTransactionInfo) != nil || data.member(Field.signedRenewalInfo) != nil
        else {
            return LedgerReading(
                notificationId: notificationId, environment: environment,
                effect: .noChange(reason: "a \(type ?? "notification") carrying no transaction or renewal info"))
        }
        let records = try records(of: data, signedDate: verified.signedDate)
        try AppStoreLedgerRecords.refuseFuture(records, receivedAt: receivedAt)
        return LedgerReading(notificationId: notificationId, environment: environment, effect: .records(records))
    }

    /// `bundleId` and `environment` from `data`, else `summary`, else `appData`, else (environment only)
    /// `externalPurchaseToken`, whose sandbox ids start with `SANDBOX`.
    private func appAndEnvironment(of payload: JSONNode) throws -> (String?, Environment?) {
        for key in [Field.data, Field.summary, Field.appData] {
            guard let part = try payload.optional(key) else { continue }
            let bundleId = try part.optional(Field.bundleId)?.string()
            let environment = AppStoreLedgerRecords.environment(try part.optional(Field.environment)?.string())
            return (bundleId, environment)
        }
        if let token = try payload.optional(Field.externalPurchaseToken) {
            let id = try token.optional(Field.externalPurchaseId)?.string() ?? ""
            return (try token.optional(Field.bundleId)?.string(), id.hasPrefix("SANDBOX") ? .sandbox : .production)
        }
        return (nil, nil)
    }

    private func records(of data: JSONNode, signedDate: Date) throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        var chain: String?
        var transactionChain: String?
        if let node = try data.optional(Field.signedTransactionInfo) {
            let (payload, body) = try open(node)
            try source.items.checkBundleId(of: payload)
            if let record = try AppStoreLedgerRecords.transaction(
                payload, body: body, receivedAt: signedDate)
            {
                records.append(record)
                chain = record.thread
                transactionChain = record.thread
            }
        }
        if let node = try data.optional(Field.signedRenewalInfo) {
            let (payload, body) = try open(node)
            if let record = try AppStoreLedgerRecords.renewalInfo(
                payload, body: body, chain: chain, receivedAt: signedDate)
            {
                // A renewal info of another subscription would lend it this one's renewal state.
                if let transactionChain, record.thread != transactionChain {
                    throw DocumentError(
                        kind: .inconsistent, path: node.path.appending(Field.originalTransactionId),
                        value: JSONValue.string(record.thread).compactText,
                        reason:
                            "differs from the transaction's originalTransactionId \(JSONValue.string(transactionChain).compactText)"
                    )
                }
                records.append(record)
                chain = chain ?? record.thread
            }
        }
        if let node = try data.optional(Field.status) {
            let status = try node.integer()
            guard (1...5).contains(status) else { throw node.invalid("is not a subscription status (1 to 5)") }
            if let chain {
                records.append(
                    AppStoreLedgerRecords.status(
                        status, chain: chain, signedDate: signedDate, receivedAt: signedDate))
            }
        }
        return records
    }

    /// A nested JWS, verified: its payload node and bytes.
    private func open(_ node: JSONNode) throws -> (JSONNode, Data) {
        let verified = try source.verify(try node.string(), path: node.path)
        let payload = try AppStoreItemReader.payloadNode(verified.payload, at: node.path)
        // The bytes a record keeps are the payload's compact form, as for a document's items, so a
        // statement's bytes are the same however it arrived.
        return (payload, Data(payload.compactTextBytes))
    }
}

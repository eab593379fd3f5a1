import EntitlementKit
import EntitlementKitLedger
import Foundation

/// A source of the simplest form a source can take, for the core's rules without any store's
/// signatures: a notification body or document is
/// `{"id"?, "environment"?, "test"?, "refresh"?, "records": [{"thread", "statement", "order", "product",
/// "expires"?, "verified"?, "account"?, "alias"?}]}` and each thread maps to one entitlement per product,
/// active until `expires` (seconds since 1970; none: lifetime) by its newest `state` record.
struct PlainSource: LedgerSource {
    var id: LedgerSourceID = LedgerSourceID(rawValue: "plain")

    func read(_ notification: LedgerNotification) throws(LedgerRefusal) -> LedgerReading {
        try read(notification.body, isNotification: true)
    }

    func read(_ document: LedgerDocument) throws(LedgerRefusal) -> LedgerReading {
        try read(document.body, isNotification: false)
    }

    private func read(_ body: Data, isNotification: Bool) throws(LedgerRefusal) -> LedgerReading {
        do throws(DocumentError) {
            let root = try JSONNode(parsing: body)
            var environment: Environment?
            if let node = try root.optional("environment") { environment = Environment(rawValue: try node.string()) }
            let notificationId = isNotification ? try root.optional("id")?.string() : nil
            if try root.optional("test")?.bool() == true {
                return LedgerReading(
                    notificationId: notificationId, environment: environment, effect: .noChange(reason: "test"))
            }
            if let token = try root.optional("refresh")?.string() {
                return LedgerReading(
                    notificationId: notificationId, environment: environment,
                    effect: .refreshNeeded(purchaseToken: token, productId: nil))
            }
            var records: [LedgerRecord] = []
            for item in try root.required("records").elements() {
                let account = try item.optional("account")?.string()
                records.append(
                    LedgerRecord(
                        thread: try item.required("thread").string(),
                        threadAliases: try item.optional("alias").map { node throws(DocumentError) -> [String] in
                            [try node.string()]
                        } ?? [],
                        statement: try item.required("statement").string(),
                        order: LedgerOrderKey([.number(try item.required("order").integer())]),
                        body: Data(item.value.compactText.utf8),
                        isVerified: try item.optional("verified")?.bool() ?? false,
                        instant: Date(timeIntervalSince1970: Double(try item.required("order").integer())),
                        environment: environment,
                        accountLinks: account.map {
                            [LedgerAccountLink(key: LedgerAccountKey(.obfuscatedAccountId, $0), appUserId: $0)]
                        } ?? []))
            }
            return LedgerReading(notificationId: notificationId, environment: environment, effect: .records(records))
        } catch {
            throw LedgerRefusal(.malformedBody, error.description, documentError: error)
        }
    }

    func snapshot(of threads: [LedgerThread], at instant: Date) throws(LedgerRefusal) -> EntitlementSnapshot {
        var entitlements: [Entitlement] = []
        for thread in threads {
            guard let state = thread.records.last(where: { $0.statement == "state" }),
                let node = try? JSONNode(parsing: state.body), let product = try? node.required("product").string()
            else { continue }
            let expires = (try? node.optional("expires")?.integer()).flatMap { $0 }.map {
                Date(timeIntervalSince1970: Double($0))
            }
            // One transaction per thread, dated by its statement's order, so merges can be seen to list it.
            let bought = (try? node.optional("order")?.integer()).flatMap { $0 }.map {
                Date(timeIntervalSince1970: Double($0))
            }
            let transaction = Transaction(
                transactionId: (try? node.optional("thread")?.string()).flatMap { $0 }, productId: product,
                transactionDate: bought)
            entitlements.append(
                Entitlement(
                    id: product, productId: product, expirationDate: expires, transactions: [transaction], at: instant))
        }
        return EntitlementSnapshot(
            provider: ProviderID(rawValue: "plain"), evaluatedAt: instant, entitlements: entitlements)
    }
}

/// Inputs of the plain source.
enum Plain {
    static let source = LedgerSourceID(rawValue: "plain")

    static func record(
        _ thread: String, order: Int64, product: String = "pro", expires: Int64? = nil, statement: String = "state",
        account: String? = nil, verified: Bool = false
    ) -> JSONValue {
        var members: [String: JSONValue] = [
            "thread": .string(thread), "statement": .string(statement), "order": .integer(order),
            "product": .string(product), "verified": .bool(verified),
        ]
        if let expires { members["expires"] = .integer(expires) }
        if let account { members["account"] = .string(account) }
        return .object(members)
    }

    static func notification(
        id: String?, environment: String? = "production", _ records: [JSONValue], receivedAt: Int64 = 1_000
    ) -> LedgerNotification {
        var members: [String: JSONValue] = ["records": .array(records)]
        if let id { members["id"] = .string(id) }
        if let environment { members["environment"] = .string(environment) }
        return LedgerNotification(
            source: source, body: Data(JSONValue.object(members).compactText.utf8),
            receivedAt: Date(timeIntervalSince1970: Double(receivedAt)))
    }

    static func document(_ records: [JSONValue], appUserId: String?, receivedAt: Int64 = 1_000) -> LedgerDocument {
        let body = JSONValue.object(["records": .array(records), "environment": .string("production")])
        return LedgerDocument(
            source: source, body: Data(body.compactText.utf8), appUserId: appUserId,
            receivedAt: Date(timeIntervalSince1970: Double(receivedAt)))
    }
}

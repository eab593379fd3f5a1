import EntitlementKit
import Foundation

extension LedgerInput {
    /// One line of a ledger log (JSON Lines), as `entitlements ledger replay` reads them:
    /// - `{"notification": {"source", "body": "<raw body text>", "headers": {…}}, "receivedAt"}`
    /// - `{"document": {"source", "body": <JSON>, "purchaseToken"?, "appUserId"?}, "receivedAt"}`
    /// - `{"logIn": {"from", "to"}}`
    /// - `{"link": {"accountToken" | "obfuscatedAccountId" | "stripeCustomer": …, "appUserId"}}`
    ///
    /// `receivedAt` is an RFC 3339 instant. Anything else is a `malformedBody` refusal naming the path.
    public init(logLine: Data) throws(LedgerRefusal) {
        do throws(DocumentError) {
            let root = try JSONNode(parsing: logLine)
            guard case .object(let members) = root.value, members.count <= 2 else {
                throw root.invalid("is not one ledger input (notification, document, logIn or link)")
            }
            if let node = try root.optional("notification") {
                var headers: [String: String] = [:]
                for (name, value) in try node.optional("headers")?.members() ?? [:] {
                    headers[name] = try value.string()
                }
                self = .notification(
                    LedgerNotification(
                        source: LedgerSourceID(rawValue: try node.required("source").string()),
                        body: Data(try node.required("body").string().utf8), headers: headers,
                        receivedAt: try root.required("receivedAt").date()))
            } else if let node = try root.optional("document") {
                self = .document(
                    LedgerDocument(
                        source: LedgerSourceID(rawValue: try node.required("source").string()),
                        body: Data(try node.required("body").value.compactText.utf8),
                        purchaseToken: try node.optional("purchaseToken")?.string(),
                        appUserId: try node.optional("appUserId")?.string(),
                        receivedAt: try root.required("receivedAt").date()))
            } else if let node = try root.optional("logIn") {
                self = .logIn(from: try node.required("from").string(), to: try node.required("to").string())
            } else if let node = try root.optional("link") {
                let appUserId = try node.required("appUserId").string()
                let kinds: [(String, LedgerAccountKey.Kind)] = [
                    ("accountToken", .appAccountToken), ("obfuscatedAccountId", .obfuscatedAccountId),
                    ("stripeCustomer", .stripeCustomer),
                ]
                var named: [LedgerAccountKey] = []
                for (name, kind) in kinds {
                    if let value = try node.optional(name) { named.append(LedgerAccountKey(kind, try value.string())) }
                }
                guard named.count == 1, let account = named.first else {
                    throw node.invalid("must name exactly one of accountToken, obfuscatedAccountId, stripeCustomer")
                }
                self = .link(account, to: appUserId)
            } else {
                throw root.invalid("is not one ledger input (notification, document, logIn or link)")
            }
        } catch {
            throw LedgerRefusal(.malformedBody, error.description, documentError: error)
        }
    }
}

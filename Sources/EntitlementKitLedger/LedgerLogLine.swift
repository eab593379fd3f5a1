import EntitlementKit
import Foundation

extension LedgerInput {
    /// One line of a ledger log (JSON Lines), as `entitlements ledger replay` reads them:
    /// - `{"notification": {"source", "body": "<raw body text>", "headers": {…}}, "receivedAt"}`
    /// - `{"document": {"source", "body": <JSON>, "purchaseToken"?, "appUserId"?}, "receivedAt"}`
    /// - `{"logIn": {"from", "to"}}`
    /// - `{"link": {"accountToken" | "obfuscatedAccountId" | "stripeCustomer": …, "appUserId"}}`
    ///
    /// `receivedAt` is an RFC 3339 instant. Anything else — not JSON, no form or two of them, a member
    /// beside the form and `receivedAt` at the top level or inside the form's object — is a
    /// `malformedBody` refusal naming the path: a line is never read as something it does not say.
    public init(logLine: Data) throws(LedgerRefusal) {
        do throws(DocumentError) {
            let root = try JSONNode(parsing: logLine)
            guard case .object(let members) = root.value else {
                throw root.invalid("is not one ledger input (notification, document, logIn or link)")
            }
            let forms = Self.forms.keys.filter { members[$0] != nil }.sorted()
            guard forms.count == 1, let form = forms.first, let allowed = Self.forms[form] else {
                throw root.invalid(
                    forms.isEmpty
                        ? "is not one ledger input (notification, document, logIn or link)"
                        : "holds more than one ledger input (\(forms.joined(separator: ", ")))")
            }
            try Self.refuseUnknownMembers(of: root, allowed: [form, "receivedAt"])
            try Self.refuseUnknownMembers(of: try root.required(form), allowed: allowed)
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

    /// Each form and the members its object may hold.
    private static let forms: [String: Set<String>] = [
        "notification": ["source", "body", "headers"],
        "document": ["source", "body", "purchaseToken", "appUserId"],
        "logIn": ["from", "to"],
        "link": ["accountToken", "obfuscatedAccountId", "stripeCustomer", "appUserId"],
    ]

    private static func refuseUnknownMembers(of node: JSONNode, allowed: Set<String>) throws(DocumentError) {
        guard case .object(let members) = node.value else { throw node.typeMismatch("an object") }
        let unknown = members.keys.filter { !allowed.contains($0) }.sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        if let first = unknown.first {
            throw DocumentError(
                kind: .invalidValue, path: node.path.appending(first),
                reason:
                    "is not a member of this ledger input (it holds only \(allowed.sorted().joined(separator: ", ")))")
        }
    }
}

import EntitlementKit
import Foundation

extension AppStoreAdapter {
    /// ``recognizes(_:)-(JSONValue)`` without making the tree of a document its keys rule out: one with
    /// another format's marker (`subscriber`, `schemaVersion`, `success`, `permissions`) or without any
    /// member an App Store document has. The values decide the rest.
    public func recognizes(_ document: JSONNode) -> Bool {
        guard document.kind == .object,
            !["subscriber", "schemaVersion", "success", "permissions"].contains(where: document.has),
            ["statuses", "history", "transactions", "signedTransactions", "data"].contains(where: document.has)
        else { return document.kind == .array && recognizes(document.value) }
        return recognizes(document.value)
    }
}

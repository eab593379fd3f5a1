import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Play's records: one per purchase token — the newest fetched document of it (by the instant it was
/// fetched, then its bytes), and whether it was voided — threaded by the first token of a
/// `linkedPurchaseToken` chain; and their way back into the adapter's listing, which the adapter's
/// mapping turns into a snapshot.
enum GooglePlayLedgerRecords {
    static let subscriptionPrefix = "subscription "
    static let productPrefix = "product "
    static let voidedPrefix = "voided "

    /// The records of a fetched document; a bare response takes `purchaseToken`.
    static func records(of body: Data, purchaseToken: String?, receivedAt: Date) throws(LedgerRefusal)
        -> [LedgerRecord]
    {
        do {
            let root = try JSONNode(parsing: body)
            let form = try GooglePlayDocumentForm.assumed(root)
            // Read whole first: a document the adapter refuses is refused here too, before any record.
            let purchases = try PlayPurchases(reading: root, form: form)
            var entries: [(token: String, productId: String?, purchase: JSONNode)] = []
            switch form {
            case .subscription, .product:
                guard let purchaseToken, !purchaseToken.isEmpty else {
                    throw LedgerRefusal(
                        .malformedBody, "a bare Play purchase needs the purchase token it was fetched for")
                }
                let productId = purchases.products.first?.productId
                entries.append((purchaseToken, form == .product ? productId : nil, root))
            case .listing:
                for entry in try root.optional(Field.subscriptions)?.elements() ?? [] {
                    entries.append(
                        (try entry.required(Field.purchaseToken).string(), nil, try entry.required(Field.purchase)))
                }
                for entry in try root.optional(Field.products)?.elements() ?? [] {
                    entries.append(
                        (
                            try entry.required(Field.purchaseToken).string(),
                            try entry.required(Field.productId).string(),
                            try entry.required(Field.purchase)
                        ))
                }
            }
            let records = try entries.map { entry throws(DocumentError) in
                try record(token: entry.token, productId: entry.productId, purchase: entry.purchase, at: receivedAt)
            }
            // What is kept must read back as the adapter's listing and map: a bare purchase whose own token
            // or product differs from the one it was posted with, or tokens linked in a loop, are refused
            // now, not when a snapshot is asked.
            guard let listing = listing(of: records) else {
                throw LedgerRefusal(.malformedBody, "a Play record does not read back")
            }
            _ = try PlayPurchases(reading: listing, form: .listing).snapshot(
                provider: .googlePlay, catalog: EntitlementCatalog(products: [:]), at: receivedAt)
            return records
        } catch let error as DocumentError {
            throw LedgerRefusal(.malformedBody, error.description, documentError: error)
        } catch let refusal as LedgerRefusal {
            throw refusal
        } catch {
            throw LedgerRefusal(.malformedBody, "\(error)")
        }
    }

    private static func record(token: String, productId: String?, purchase: JSONNode, at receivedAt: Date)
        throws(DocumentError) -> LedgerRecord
    {
        let linked: String?
        let isTest: Bool
        let account: String?
        if productId != nil {
            linked = nil
            isTest = try purchase.optional(Field.purchaseType)?.integer() == 0
            account = try purchase.optional(Field.obfuscatedExternalAccountId)?.identifier()
        } else {
            linked = try purchase.optional(Field.linkedPurchaseToken)?.identifier()
            isTest = purchase.member(Field.testPurchase) != nil
            account =
                try purchase.optional(Field.externalAccountIdentifiers)?.optional(Field.obfuscatedExternalAccountId)?
                .identifier()
        }
        let body = Data(entryText(token: token, productId: productId, purchase: purchase))
        return LedgerRecord(
            thread: token, threadAliases: linked.map { [$0] } ?? [],
            statement: (productId == nil ? subscriptionPrefix : productPrefix) + token,
            order: LedgerOrderKey([.number(receivedAt.millisecondsSince1970), .bytes(Array(body))]),
            body: body, isVerified: false, instant: receivedAt, environment: isTest ? .sandbox : .production,
            accountLinks: account.map {
                [LedgerAccountLink(key: LedgerAccountKey(.obfuscatedAccountId, $0), appUserId: $0)]
            }
                ?? [])
    }

    /// The canonical compact text of the listing entry `{"productId", "purchase", "purchaseToken"}` (the
    /// product id only for a one-time product), written in key order from the purchase's own document.
    private static func entryText(token: String, productId: String?, purchase: JSONNode) -> [UInt8] {
        var text: [UInt8] = [UInt8(ascii: "{")]
        if let productId { text += "\"productId\":\(JSONWriter.quoted(productId)),".utf8 }
        text += "\"purchase\":".utf8
        text += purchase.compactTextBytes
        text += ",\"purchaseToken\":\(JSONWriter.quoted(token))}".utf8
        return text
    }

    /// The record that `token` was voided at `instant`: kept for good (no later document undoes it).
    static func voided(token: String, at instant: Date) -> LedgerRecord {
        let body = Data(JSONValue.object(["purchaseToken": .string(token)]).compactText.utf8)
        return LedgerRecord(
            thread: token, statement: voidedPrefix + token,
            // The first voiding stands: an earlier event time is the greater key.
            order: LedgerOrderKey([.number(-instant.millisecondsSince1970)]),
            body: body, isVerified: false, instant: instant, environment: nil)
    }

    /// The adapter's purchases of every record of `threads`, voided tokens left out (they grant nothing).
    static func purchases(of threads: [LedgerThread]) throws(LedgerRefusal) -> PlayPurchases {
        var kept: [LedgerRecord] = []
        for thread in threads.sorted(by: { $0.id < $1.id }) {
            let voided = Set(
                thread.records.filter { $0.statement.hasPrefix(voidedPrefix) }.map {
                    String($0.statement.dropFirst(voidedPrefix.count))
                })
            kept += thread.records.filter { !voided.contains(String($0.statement.drop { $0 != " " }.dropFirst())) }
        }
        guard let listing = listing(of: kept) else {
            throw LedgerRefusal(.storage, "a kept Play record does not read")
        }
        do {
            return try PlayPurchases(reading: listing, form: .listing)
        } catch {
            throw LedgerRefusal(.storage, "kept Play records do not read: \(error)", documentError: error)
        }
    }

    /// The adapter's listing form of the subscription and product records among `records`, in their
    /// order; nil when a record's body is not JSON.
    private static func listing(of records: [LedgerRecord]) -> JSONNode? {
        var listing = JSONArraysText(keys: ["products", "subscriptions"])
        for record in records {
            let isSubscription = record.statement.hasPrefix(subscriptionPrefix)
            guard isSubscription || record.statement.hasPrefix(productPrefix) else { continue }
            guard (try? listing.append(record.body, to: isSubscription ? 1 : 0)) != nil else { return nil }
        }
        return try? listing.document()
    }
}

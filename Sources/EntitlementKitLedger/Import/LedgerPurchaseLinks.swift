import EntitlementKit
import Foundation

/// The rows an import keeps in ``LedgerTable/purchaseLinks``: which app user id an assigned purchase
/// belongs to (a purchase-id link), which ids a plan named its customers by, and which plan lines a
/// backfill finished.
///
/// A purchase-id link names the customer by the plan's first id, not by the customer's number: numbers
/// disappear when customers merge, an id follows its customer.
struct LedgerPurchaseLinks: Sendable {
    let rows: LedgerRows

    private var transaction: any LedgerStoreTransaction { rows.transaction }

    private static func purchaseKey(_ purchase: LedgerThreadID) -> String { "purchase:" + LedgerRows.key(purchase) }

    private static func nameKey(_ appUserId: String) -> String { "name:" + appUserId }

    private static func doneKey(_ digest: String) -> String { "done:" + digest }

    /// The app user id the purchase `purchase` (its source and store id) was assigned to, if it was.
    func assignedAppUserId(of purchase: LedgerThreadID) async throws(LedgerRefusal) -> String? {
        guard let data = try await transaction.value(in: .purchaseLinks, key: Self.purchaseKey(purchase)) else {
            return nil
        }
        guard case .string(let appUserId)? = try? JSONValue.parse(data) else {
            throw LedgerRefusal(.storage, "a row of purchaseLinks does not read")
        }
        return appUserId
    }

    /// The app user id an import assigned a store id `record` names (its thread's or an alias's) to: the
    /// link follows the record into the thread it joins (a Stripe session its payment intent's, a Play token
    /// its chain's).
    func assignedAppUserId(of record: LedgerRecord, in source: LedgerSourceID) async throws(LedgerRefusal)
        -> String?
    {
        for key in [record.thread] + record.threadAliases {
            if let appUserId = try await assignedAppUserId(of: LedgerThreadID(source: source, key: key)) {
                return appUserId
            }
        }
        return nil
    }

    func link(_ purchase: LedgerThreadID, to appUserId: String) async throws(LedgerRefusal) {
        try await transaction.setValue(
            Data(JSONValue.string(appUserId).compactText.utf8), in: .purchaseLinks, key: Self.purchaseKey(purchase))
    }

    /// Whether a plan named a customer by `appUserId` (its first id).
    func isPlannedName(_ appUserId: String) async throws(LedgerRefusal) -> Bool {
        try await transaction.value(in: .purchaseLinks, key: Self.nameKey(appUserId)) != nil
    }

    func markPlannedName(_ appUserId: String) async throws(LedgerRefusal) {
        try await transaction.setValue(Data("true".utf8), in: .purchaseLinks, key: Self.nameKey(appUserId))
    }

    /// The name a plan gave the customer holding `appUserIds`: the first of them (the original first) a plan
    /// named a customer by.
    func plannedName(among appUserIds: [String]) async throws(LedgerRefusal) -> String? {
        for appUserId in appUserIds where try await isPlannedName(appUserId) { return appUserId }
        return nil
    }

    /// Whether a backfill finished the plan line whose digest is `digest`.
    func isDone(_ digest: String) async throws(LedgerRefusal) -> Bool {
        try await transaction.value(in: .purchaseLinks, key: Self.doneKey(digest)) != nil
    }

    func markDone(_ digest: String) async throws(LedgerRefusal) {
        try await transaction.setValue(Data("true".utf8), in: .purchaseLinks, key: Self.doneKey(digest))
    }
}

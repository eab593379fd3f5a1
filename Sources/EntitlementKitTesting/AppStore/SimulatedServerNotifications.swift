import EntitlementKit
import EntitlementKitAppStore
import Foundation

private typealias Field = AppStoreField

/// The App Store Server Notifications V2 Apple would push to an app's own server about a simulated
/// store's purchases, signed with the test chain: one notification (its transaction and, for a
/// subscription, its renewal info) for every purchase whose signed state changed since the last ask.
///
/// ```swift
/// let notifications = SimulatedServerNotifications(store: store, bundleId: "com.example.app", signer: signer)
/// for body in notifications.pending(storeAccounts: ["apple-1"]) { try await post(body, to: "/notifications/appStore") }
/// ```
public final class SimulatedServerNotifications: @unchecked Sendable {
    /// The store whose purchases are told.
    public let store: SimulatedStore
    /// The app's bundle id.
    public let bundleId: String
    private let signer: AppStoreTestSigner
    // Guards `told` and `sent`.
    private let lock = NSLock()
    /// The payloads last told, by original transaction id.
    private var told: [String: [JSONValue]] = [:]
    /// The last `signedDate` told, by original transaction id (milliseconds).
    private var lastSigned: [String: Int64] = [:]
    private var sent = 0
    /// The first group of every notificationUUID: random per instance unless seeded, so two runs into one
    /// persistent store never send the same ids.
    private let run: String

    /// Notifications about `store`'s purchases for the app `bundleId`, signed by `signer`; `seed` makes the
    /// notification ids the same on every run.
    public init(store: SimulatedStore, bundleId: String, signer: AppStoreTestSigner, seed: UInt32? = nil) {
        self.store = store
        self.bundleId = bundleId
        self.signer = signer
        run = String(format: "%08x", seed ?? UInt32.random(in: 0...UInt32.max))
    }

    /// Marks the current state of `storeAccounts` as told (what the app posted itself).
    public func markTold(storeAccounts: [String]) {
        _ = pending(storeAccounts: storeAccounts)
    }

    /// The bodies (`{"signedPayload": JWS}`) of the notifications due for `storeAccounts`' App Store
    /// purchases on the receipt, oldest account first; each notification id is new.
    public func pending(storeAccounts: [String]) -> [String] {
        let instant = store.trueTime
        var bodies: [String] = []
        for account in Set(storeAccounts).sorted() {
            for purchase in store.receiptPurchases(of: account) where purchase.store == .appStore {
                var payloads = [SimulatedAppStorePayloads.transaction(purchase, bundleId: bundleId)]
                if case .autoRenewable = purchase.kind {
                    payloads.append(SimulatedAppStorePayloads.renewalInfo(purchase))
                }
                let told: (number: Int, signed: [JSONValue])? = lock.withLock {
                    guard self.told[purchase.transactionId] != payloads else { return nil }
                    let isFirst = self.told[purchase.transactionId] == nil
                    self.told[purchase.transactionId] = payloads
                    sent += 1
                    // Apple signs each change at a later instant than the last; a change at the simulated
                    // instant of the previous one (a cancel right after the purchase) is signed 1 ms later,
                    // or the ledger would keep the statement that sorts last by bytes, not the newer one.
                    let changed = purchase.changedAt.millisecondsSince1970
                    let signedDate = max(changed, (lastSigned[purchase.transactionId] ?? changed - 1) + 1)
                    lastSigned[purchase.transactionId] = signedDate
                    return (isFirst ? -sent : sent, payloads.map { Self.signed($0, at: signedDate) })
                }
                guard let (number, payloads) = told else { continue }
                bodies.append(
                    body(payloads, number: abs(number), type: Self.type(of: purchase, isFirst: number < 0), at: instant)
                )
            }
        }
        return bodies
    }

    private static func signed(_ payload: JSONValue, at milliseconds: Int64) -> JSONValue {
        guard case .object(var members) = payload else { return payload }
        members[Field.signedDate] = .integer(milliseconds)
        return .object(members)
    }

    private static func type(of purchase: SimulatedPurchase, isFirst: Bool) -> String {
        if purchase.refundedAt != nil { return "REFUND" }
        if isFirst { return "SUBSCRIBED" }
        if purchase.billingIssueAt != nil { return "DID_FAIL_TO_RENEW" }
        return purchase.renewState == .willRenew ? "DID_RENEW" : "DID_CHANGE_RENEWAL_STATUS"
    }

    private func body(_ payloads: [JSONValue], number: Int, type: String, at instant: Date) -> String {
        var data: [String: JSONValue] = [
            Field.bundleId: .string(bundleId), Field.environment: .string("Sandbox"),
            Field.signedTransactionInfo: .string(signer.sign(payloads[0])),
        ]
        if payloads.count > 1 { data[Field.signedRenewalInfo] = .string(signer.sign(payloads[1])) }
        let payload = JSONValue.object([
            Field.notificationType: .string(type),
            Field.notificationUUID: .string(run + String(format: "-0000-4000-8000-%012d", number)),
            Field.data: .object(data), Field.version: .string("2.0"),
            Field.signedDate: .integer(instant.millisecondsSince1970),
        ])
        return JSONValue.object([Field.signedPayload: .string(signer.sign(payload))]).compactText
    }
}

import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitOwnBackend
import EntitlementKitTesting
import Foundation
import TestSupport

/// The scenario runner's server for a store-direct app: the loopback server of ``LedgerBackedServer``
/// over a real `EntitlementLedger` with an App Store source trusting the test kit's chain. Each device's
/// client talks to it through a real `OwnBackendProvider`; a purchase is bought at the simulated App
/// Store and its receipt (every transaction on the store account, signed by ``AppStoreTestSigner``) is
/// posted as the app would post its StoreKit 2 `jwsRepresentation`s; what changes at the store on its
/// own (renewals, cancellations, billing issues, refunds) reaches the server as signed App Store Server
/// Notifications V2, as Apple pushes them. A Google Play purchase is bought at the simulated Play, its
/// token posted by the app; the server fetches its document from the Play double (what the Developer API
/// answers at true time) and hears of later changes as real-time developer notifications.
final class LedgerScenarioServer: ScenarioServer, @unchecked Sendable {
    static let bundleId = "com.example.scenario"

    let flavour = ProviderID.ownBackend
    let scenario: Scenario
    let store: SimulatedStore
    let signer: AppStoreTestSigner
    let ledger: EntitlementLedger
    let http: LedgerBackedServer
    let notifications: SimulatedServerNotifications
    // Guards the three below.
    private let lock = NSLock()
    private var offline: Set<String> = []
    private var calls: [String: Int] = [:]
    private var accounts: Set<String> = []
    private var playAccounts: Set<String> = []
    /// The Play documents the server could fetch, by token, as last published to the double.
    private var playDocuments: [String: Data] = [:]
    private var playMessages = 0

    init(scenario: Scenario, store: SimulatedStore) throws {
        let signer = try AppStoreTestSigner()
        // The simulated App Store signs sandbox transactions, as StoreKit testing does: this ledger accepts
        // both environments (a production server keeps the default, production only).
        ledger = EntitlementLedger(
            sources: [
                AppStoreLedgerSource(
                    catalog: scenario.storeCatalog, bundleId: Self.bundleId, rootCertificates: [signer.rootCertificate]),
                GooglePlayLedgerSource(catalog: scenario.storeCatalog, packageName: LedgerBackedServer.packageName),
            ],
            configuration: LedgerConfiguration(
                environments: [.production, .sandbox], restoreBehavior: scenario.restoreBehavior))
        http = try LedgerBackedServer(ledger: ledger, clock: MovableWallClock(store.trueTime), now: { store.trueTime })
        notifications = SimulatedServerNotifications(store: store, bundleId: Self.bundleId, signer: signer)
        self.signer = signer
        self.scenario = scenario
        self.store = store
    }

    func scenarioProvider(device: String) async -> any EntitlementProvider {
        do {
            return LedgerScenarioDevice(server: self, device: device, app: try http.provider(clock: TrueTime(store)))
        } catch {
            return LedgerScenarioDevice(server: self, device: device, app: nil)
        }
    }

    func setOnline(_ online: Bool, device: String) {
        lock.withLock { if online { offline.remove(device) } else { offline.insert(device) } }
    }

    func callCount(device: String) -> Int {
        lock.withLock { calls[device, default: 0] }
    }

    /// The ledger's own view; like the simulated backend's REST API, asking makes the customer known.
    func lookup(_ appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        do {
            _ = try? await ledger.register(appUserId: appUserId)
            return try await ledger.snapshot(for: appUserId, at: store.trueTime)
        } catch {
            throw EntitlementClientError(.badResponse, "the ledger refused: \(error)")
        }
    }

    func aliases(of appUserId: String) async -> [String] {
        let customers = (try? await ledger.customers()) ?? []
        return customers.first { $0.contains { $0.utf8.elementsEqual(appUserId.utf8) } } ?? []
    }

    /// Apple pushes a notification for every purchase whose signed state changed; Google says which
    /// token changed, and the server fetches it.
    func storeChanged() async {
        let known = lock.withLock { Array(accounts) }
        for body in notifications.pending(storeAccounts: known) {
            _ = try? await http.push(body, source: .appStore)
        }
        for token in publishPlayDocuments(of: lock.withLock { Array(playAccounts) }) {
            let messageId = lock.withLock {
                playMessages += 1
                return "scenario-\(playMessages)"
            }
            _ = try? await http.push(PlayStoreDouble.renewed(token, messageId: messageId), source: .googlePlay)
        }
    }

    /// Publishes the Play documents of `storeAccounts` (and `token`) to the double; the tokens whose
    /// document changed. The accounts' changes are pushed from now on.
    @discardableResult
    func publishPlayDocuments(of storeAccounts: [String], including token: String? = nil) -> [String] {
        var changed: [String] = []
        for account in Set(storeAccounts).sorted() {
            lock.withLock { _ = playAccounts.insert(account) }
            for (purchaseToken, document) in store.playPurchases(of: account, including: token) {
                let isNew = lock.withLock {
                    guard playDocuments[purchaseToken] != document else { return false }
                    playDocuments[purchaseToken] = document
                    return true
                }
                guard isNew else { continue }
                http.play.set(purchaseToken, document)
                changed.append(purchaseToken)
            }
        }
        return changed
    }

    /// Counts a device's call; throws `offline` when the device is off the network.
    func call(from device: String) throws(EntitlementClientError) {
        let isOffline = lock.withLock {
            calls[device, default: 0] += 1
            return offline.contains(device)
        }
        if isOffline { throw EntitlementClientError(.offline, "the device \(device) is off the network") }
    }

    /// The store account's App Store, for a device's purchase or restore; the account's changes are
    /// pushed from now on.
    func appStore(of storeAccount: String) -> SimulatedTransactionSource {
        lock.withLock { _ = accounts.insert(storeAccount) }
        return SimulatedTransactionSource(
            store: store, storeAccount: storeAccount, bundleId: Self.bundleId, signer: signer, deliversUpdates: false)
    }

    func isOnReceipt(_ productId: String) -> Bool {
        scenario.products[productId]?.kind.isOnReceipt ?? false
    }
}

/// One device's app: `OwnBackendProvider` to the ledger-backed server, with the device's App Store.
struct LedgerScenarioDevice: EntitlementProvider {
    let server: LedgerScenarioServer
    let device: String
    /// The app's provider; `nil` when it could not be configured (every call then fails).
    let app: OwnBackendProvider?

    var provider: ProviderID { .ownBackend }
    var storageNamespace: String { app?.storageNamespace ?? "ownbackend" }

    func makeAnonymousAppUserId() -> String {
        app?.makeAnonymousAppUserId() ?? LedgerConfiguration.newRevenueCatAnonymousId()
    }

    func isAnonymous(_ appUserId: String) -> Bool {
        LedgerConfiguration.isRevenueCatAnonymousId(appUserId)
    }

    private func connected() throws(EntitlementClientError) -> OwnBackendProvider {
        try server.call(from: device)
        guard let app else { throw EntitlementClientError(.badResponse, "the provider could not be configured") }
        return app
    }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await connected().snapshot(for: appUserId)
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try await connected().logIn(from: currentAppUserId, to: newAppUserId)
    }

    /// A restore or sync posts every transaction on the store account (on Play, every token).
    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        let app = try connected()
        if receipt.store == .playStore {
            server.publishPlayDocuments(of: [receipt.token])
            var answer: EntitlementSnapshot?
            for (token, _) in server.store.playPurchases(of: receipt.token) {
                answer = try await app.syncPurchases(StoreReceipt(store: .playStore, token: token), for: appUserId)
            }
            if let answer { return answer }
            return try await app.snapshot(for: appUserId)
        }
        let appStore = server.appStore(of: receipt.token)
        let posted = try appStore.receipt()
        server.notifications.markTold(storeAccounts: [receipt.token])
        return try await app.syncPurchases(Self.receipt(posted), for: appUserId)
    }

    /// A purchase is bought at the store, then posted: the whole receipt for a subscription or a
    /// non-consumable (as the simulated backend posts it), the one transaction for a consumable or a
    /// non-renewing purchase (which never sit on a receipt).
    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        let app = try connected()
        if purchase.receipt.store == .playStore {
            // Play's billing library hands the app the token it bought: that is what the app posts.
            guard let token = server.store.buyOnPlay(purchase.productId, storeAccount: purchase.receipt.token) else {
                throw EntitlementClientError(.badResponse, "the store does not sell \(purchase.productId)")
            }
            server.publishPlayDocuments(of: [purchase.receipt.token], including: token)
            return try await app.reportPurchase(
                StorePurchase(receipt: StoreReceipt(store: .playStore, token: token), productId: purchase.productId),
                for: appUserId)
        }
        let appStore = server.appStore(of: purchase.receipt.token)
        let bought = try appStore.buy(purchase.productId)
        let posted = server.isOnReceipt(purchase.productId) ? try appStore.receipt() : [bought]
        server.notifications.markTold(storeAccounts: [purchase.receipt.token])
        return try await app.reportPurchase(
            StorePurchase(receipt: Self.receipt(posted), productId: purchase.productId), for: appUserId)
    }

    /// StoreKit 2 `jwsRepresentation`s as one App Store receipt: a JSON array of them.
    private static func receipt(_ jws: [String]) -> StoreReceipt {
        StoreReceipt(store: .appStore, token: JSONValue.array(jws.map(JSONValue.string)).compactText)
    }
}

/// The simulated store's true time as a wall clock.
struct TrueTime: WallClock {
    let store: SimulatedStore
    init(_ store: SimulatedStore) { self.store = store }
    func now() -> Date { store.trueTime }
}

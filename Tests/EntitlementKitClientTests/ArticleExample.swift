import EntitlementKit
import Foundation

/// The app's single entry point for access decisions; create one at launch and keep it.
actor Entitlements {
    let client: EntitlementClient
    private var watcher: Task<Void, Never>?

    /// `provider`: the live provider of your backend, or the test kit's `SimulatedProvider` in tests.
    /// `directory`: a folder the app owns, e.g. an app-group container so extensions see the same cache.
    init(provider: any EntitlementProvider, directory: URL) async throws {
        // Refuses a folder that is a symbolic link or writable by other users.
        let cache = try DirectoryEntitlementCache(directory: directory)
        // The id stored by an earlier launch, or a new anonymous one. No backend call.
        client = try await EntitlementClient(provider: provider, cache: cache)
    }

    /// Follows changes: a purchase made elsewhere, a subscription that lapsed offline.
    func watch(_ onChange: @escaping @Sendable ([String]) -> Void) {
        let updates = client.updates()
        watcher = Task {
            for await snapshot in updates { onChange(snapshot.activeEntitlementIds) }
        }
    }

    /// Before premium content. Never throws: with no answer at all, nothing is granted.
    func mayShowPremium() async -> Bool {
        let check = await client.checkEntitlements()
        if let error = check.error {
            print("entitlements:", error.code, "— answered from", check.source)
        }
        return check.isActive("premium")
    }

    /// After the store completes a purchase: the next check already shows it, without a fetch.
    func purchased(productId: String, receipt: StoreReceipt) async throws -> Bool {
        let snapshot = try await client.recordPurchase(StorePurchase(receipt: receipt, productId: productId))
        return snapshot.isActive("premium")
    }

    /// "Restore purchases" in settings.
    func restore(_ receipt: StoreReceipt) async throws -> [String] {
        try await client.restorePurchases(receipt).activeEntitlementIds
    }

    /// Your own account system signed the customer in or out.
    func signedIn(as accountId: String) async throws -> Bool {
        try await client.logIn(accountId).snapshot.isActive("premium")
    }

    func signedOut() async throws {
        try await client.logOut()  // alreadyAnonymous when nobody was signed in
    }
}

import EntitlementKit
import Foundation

/// What this provider knows about Adapty profiles: the profile id behind each customer user id it
/// identified (so reads go straight to `GET …/profiles/{profile_id}/`), and the anonymous profile ids it
/// made that Adapty has not been told about yet (their first read is the create `POST`, as the SDK's
/// first launch and logout are). In memory only: after a relaunch a customer is identified once more.
///
/// A lock, not an actor: ``AdaptyProvider/makeAnonymousAppUserId()`` is synchronous and records the id
/// it makes.
final class AdaptyProfileDirectory: @unchecked Sendable {
    // Both tables are read and written by concurrent provider calls: every access holds the lock.
    private let lock = NSLock()
    // Keyed by the id's bytes: "café" precomposed and decomposed are two customers.
    private var profileIds: [AppUserIdKey: String] = [:]
    private var notYetCreated: Set<AppUserIdKey> = []

    func profileId(forCustomer customerUserId: String) -> String? {
        lock.withLock { profileIds[AppUserIdKey(customerUserId)] }
    }

    func record(_ profileId: String, forCustomer customerUserId: String) {
        lock.withLock { profileIds[AppUserIdKey(customerUserId)] = profileId }
    }

    func forget(customer customerUserId: String) {
        _ = lock.withLock { profileIds.removeValue(forKey: AppUserIdKey(customerUserId)) }
    }

    func madeHere(_ profileId: String) {
        _ = lock.withLock { notYetCreated.insert(AppUserIdKey(profileId)) }
    }

    func isNotYetCreated(_ profileId: String) -> Bool {
        lock.withLock { notYetCreated.contains(AppUserIdKey(profileId)) }
    }

    func created(_ profileId: String) {
        _ = lock.withLock { notYetCreated.remove(AppUserIdKey(profileId)) }
    }
}

import EntitlementKit

/// The Qonversion user ids (`QON_…`) this provider learned for your app user ids, so reads after a
/// logIn go to the right Qonversion user without asking again. In memory only: after a relaunch the
/// backend is asked once more (`POST v2/identities` answers with the user bound to the identity).
actor QonversionIdentityDirectory {
    // Keyed by the identity's bytes: "café" precomposed and decomposed are two customers to Qonversion.
    private var userIds: [AppUserIdKey: String] = [:]

    func userId(for identity: String) -> String? {
        userIds[AppUserIdKey(identity)]
    }

    func record(_ userId: String, for identity: String) {
        userIds[AppUserIdKey(identity)] = userId
    }
}

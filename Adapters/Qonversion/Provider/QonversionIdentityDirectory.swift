/// The Qonversion user ids (`QON_…`) this provider learned for your app user ids, so reads after a
/// logIn go to the right Qonversion user without asking again. In memory only: after a relaunch the
/// backend is asked once more (`POST v2/identities` answers with the user bound to the identity).
actor QonversionIdentityDirectory {
    private var userIds: [String: String] = [:]

    func userId(for identity: String) -> String? {
        userIds[identity]
    }

    func record(_ userId: String, for identity: String) {
        userIds[identity] = userId
    }
}

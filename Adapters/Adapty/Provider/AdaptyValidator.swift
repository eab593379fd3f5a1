/// The validator ``AdaptyProvider`` gives the client to keep with a cache entry: the profile id and the
/// `x-response-hash` of the answer the snapshot came from, as `<profile id> <hash>`. Keeping the profile
/// id means a hash is only ever sent back for the profile it was given for.
struct AdaptyValidator: Equatable {
    let profileId: String
    let hash: String

    init(profileId: String, hash: String) {
        self.profileId = profileId
        self.hash = hash
    }

    /// Reads a kept validator; `nil` unless it is a profile id and a usable hash (both visible ASCII, one
    /// space between).
    init?(text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, AdaptyProfileId.isUsable(parts[0]),
            let hash = AdaptyResponseHashes.usableHash(parts[1])
        else { return nil }
        profileId = parts[0]
        self.hash = hash
    }

    /// The text kept with the cache entry.
    var text: String { profileId + " " + hash }
}

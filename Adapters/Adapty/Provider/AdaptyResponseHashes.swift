import EntitlementKit

/// Adapty's conditional fetch, per profile id: the last `x-response-hash` a profile read answered with
/// and the snapshot decoded from that answer. A read sends the hash back
/// (`adapty-sdk-previous-response-hash`); when the answer's hash is the same, the profile has not
/// changed and the body is not decoded again.
///
/// Only a body that decoded and passed every identity check is remembered; a refused body forgets the
/// profile's entry, so the next answer is decoded whatever its hash.
actor AdaptyResponseHashes {
    struct Entry: Sendable {
        var hash: String
        var snapshot: EntitlementSnapshot
        /// The customer user id the answer was checked against (`nil`: read as an anonymous profile).
        var customer: String?

        /// Whether this entry may answer a read for `customer`: one checked for that same customer, or
        /// any entry for an anonymous read (whose answer is not checked for a customer either).
        func isFor(customer asked: String?) -> Bool {
            guard let asked else { return true }
            return customer?.utf8.elementsEqual(asked.utf8) ?? false
        }
    }

    // Keyed by the profile id's bytes; a provider sees few profiles (one device's customers), so the table
    // stays small and lives as long as the provider.
    private var entries: [AppUserIdKey: Entry] = [:]

    func entry(for profileId: String) -> Entry? {
        entries[AppUserIdKey(profileId)]
    }

    func remember(_ hash: String, _ snapshot: EntitlementSnapshot, customer: String?, for profileId: String) {
        entries[AppUserIdKey(profileId)] = Entry(hash: hash, snapshot: snapshot, customer: customer)
    }

    func forget(_ profileId: String) {
        entries[AppUserIdKey(profileId)] = nil
    }

    /// The `x-response-hash` of `headers` when it is one that may be sent back: 1 to 256 visible ASCII
    /// characters. Anything else (a CR/LF that would split the next request's headers) is not used.
    static func usableHash(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= 256,
            value.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return value
    }
}

/// A snapshot with the validator its backend sent for it: an opaque token (Adapty's `x-response-hash`)
/// with which the next read asks the backend whether anything changed since. The client keeps it with
/// the cache entry, so the question can be asked after a relaunch too.
public struct ValidatedSnapshot: Sendable, Hashable {
    /// The customer's snapshot.
    public var snapshot: EntitlementSnapshot
    /// The backend's token for the answer `snapshot` came from; `nil` when it sent none.
    public var validator: String?

    /// Pairs a snapshot with its backend's validator.
    public init(snapshot: EntitlementSnapshot, validator: String? = nil) {
        self.snapshot = snapshot
        self.validator = validator
    }
}

import EntitlementKit

/// Whose profile an Adapty answer is: its `profile_id` and `customer_user_id`, read from the profile
/// object (`data.attributes` of the SDK backend's body; `data` or the bare profile otherwise) after the
/// adapter accepted the document.
struct AdaptyReplyIdentity {
    var profileId: String
    var customerUserId: String?
    private var profile: JSONNode

    init(_ document: JSONNode) throws(DocumentError) {
        profile = document
        if let data = document.member(Field.data) {
            profile = data.member(Field.attributes) ?? data
        } else if let success = document.member(Field.success) {
            profile = success
        }
        let idNode = try profile.required(Field.profileId)
        profileId = try idNode.string()
        guard AdaptyProfileId.isUsable(profileId) else {
            throw idNode.invalid("is not a usable profile id (1 to 100 visible ASCII characters, no `/`)")
        }
        customerUserId = try profile.optional(Field.customerUserId)?.identifier()
    }

    /// Fails unless this is `expectedProfile`'s profile (when one was asked for) and carries `customer`
    /// as its `customer_user_id` (when a customer was asked for), comparing bytes: an answer about someone
    /// else is never served as this customer's.
    func check(expectedProfile: String?, customer: String?) throws(DocumentError) {
        if let expectedProfile, !profileId.utf8.elementsEqual(expectedProfile.utf8) {
            throw DocumentError(
                kind: .inconsistent, path: profile.path.appending(Field.profileId), offending: .string(profileId),
                reason:
                    "is another profile than the one asked for (\(DocumentError.quoted(expectedProfile)))"
            )
        }
        if let customer, !(customerUserId?.utf8.elementsEqual(customer.utf8) ?? false) {
            throw DocumentError(
                kind: .inconsistent, path: profile.path.appending(Field.customerUserId),
                offending: customerUserId.map(JSONValue.string) ?? .null,
                reason:
                    "is not the customer user id asked for (\(DocumentError.quoted(customer)))"
            )
        }
    }
}

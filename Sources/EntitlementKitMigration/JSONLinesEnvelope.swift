import EntitlementKit

/// A JSON Lines record that wraps a vendor response with what the exporter knew about it:
/// `{"appUserId": "alice", "provider": "revenuecat", "response": {...}}`.
///
/// Exports need the envelope because a vendor response does not always name the id the app used
/// (RevenueCat answers with the customer's original id, Qonversion with its own `QON_…` id); the
/// envelope's `appUserId` is the join key between two backends' exports. A record is an envelope when
/// it is an object with a `response` member, which no supported vendor response has at its top level.
/// Other members are ignored.
public struct JSONLinesEnvelope: Sendable, Hashable {
    /// The app user id the response was fetched for; `nil` when the envelope does not say.
    public var appUserId: String?
    /// The format of ``response`` (`revenuecat`); `nil` when the envelope does not say.
    public var provider: String?
    /// Where `provider` sits in the record, for error messages.
    public var providerPath: JSONPath
    /// The wrapped vendor response.
    public var response: JSONNode

    /// Unwraps `record`; `nil` when it is a bare document rather than an envelope.
    ///
    /// Fails when `response` is not an object, `appUserId` is not a non-empty string, or `provider` is not
    /// a string (`null` counts as absent for both).
    public init?(_ record: JSONNode) throws(DocumentError) {
        guard record.kind == .object, let response = record.member("response") else { return nil }
        guard response.kind == .object else { throw response.typeMismatch("an object (the vendor response)") }
        self.response = response
        if let node = try record.optional("appUserId") {
            guard let appUserId = try node.identifier() else { throw node.invalid("must not be empty") }
            self.appUserId = appUserId
        }
        let providerNode = try record.optional("provider")
        self.provider = try providerNode?.string()
        // The member's path, spelled without walking the document: the path is made for every record.
        self.providerPath = record.path.appending("provider")
    }
}

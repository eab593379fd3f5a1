import EntitlementKit
import Foundation

/// A webhook Event whose `Stripe-Signature` ``StripeWebhookVerifier`` checked: only the verifier makes one,
/// so holding one proves the body came from Stripe (signed with a configured secret, within the tolerance).
///
/// Map it with the ``StripeAdapter`` method `snapshot(from:at:)` that takes a verified event: the snapshot
/// says `verification: verified`.
public struct StripeVerifiedEvent: Sendable, Hashable {
    /// The event's `id` (`evt_…`): deduplicate deliveries by it (Stripe may deliver an event twice).
    public let id: String
    /// The event's `type` (`customer.subscription.updated`).
    public let type: String
    /// The event's `created`.
    public let created: Date
    /// The event's `livemode`: `false` for a test-mode event.
    public let livemode: Bool
    /// The signature's timestamp `t`.
    public let signedAt: Date
    /// The parsed body.
    let document: JSONNode

    init(document: JSONNode, event: StripeEvent, signedAt: Date) {
        self.document = document
        id = event.id
        type = event.type
        created = event.created
        livemode = event.livemode
        self.signedAt = signedAt
    }
}

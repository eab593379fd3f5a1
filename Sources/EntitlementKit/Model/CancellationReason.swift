/// Why a subscription ended or will end, as the backend or store says it (new in schema 2).
///
/// An app uses it to pick the right screen: a win-back offer after a voluntary cancellation, a
/// "fix your payment method" prompt after a billing error, nothing after an upgrade. `nil` on an
/// ``Entitlement`` means the backend does not say (RevenueCat and Qonversion); a value this version does not
/// know reads as ``unknown``, with the backend's own spelling kept in
/// ``Entitlement/cancellationReasonRaw``.
public struct CancellationReason: OpenEnumeration {
    /// The camelCase value written in snapshots.
    public let rawValue: String

    /// Wraps a raw value.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer turned auto-renew off or cancelled.
    public static let customerCancelled = CancellationReason(rawValue: "customerCancelled")

    /// The store could not charge the customer.
    public static let billingError = CancellationReason(rawValue: "billingError")

    /// The customer did not accept a price increase.
    public static let priceIncrease = CancellationReason(rawValue: "priceIncrease")

    /// The product was no longer available for renewal.
    public static let productUnavailable = CancellationReason(rawValue: "productUnavailable")

    /// The purchase was refunded.
    public static let refunded = CancellationReason(rawValue: "refunded")

    /// The customer moved to another product of the same group (an upgrade); access continues there.
    public static let upgraded = CancellationReason(rawValue: "upgraded")

    /// The developer (or the backend on the developer's behalf) revoked or cancelled it.
    public static let developerCancelled = CancellationReason(rawValue: "developerCancelled")

    /// A new subscription replaced it.
    public static let replaced = CancellationReason(rawValue: "replaced")

    /// The backend gave a reason this version does not know.
    public static let unknown = CancellationReason(rawValue: "unknown")

    /// Every value this version defines.
    public static let knownValues: [CancellationReason] = [
        .customerCancelled, .billingError, .priceIncrease, .productUnavailable, .refunded, .upgraded,
        .developerCancelled, .replaced, .unknown,
    ]
}

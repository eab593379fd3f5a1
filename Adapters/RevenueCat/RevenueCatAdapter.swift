import EntitlementKit
import Foundation

/// Maps RevenueCat's customer JSON into the unified model.
///
/// Reads the body of `GET /v1/subscribers/{app_user_id}` — the same JSON RevenueCat's SDKs cache as
/// `CustomerInfo` (with `schema_version` and other extra keys) and, before SDK 4, as `PurchaserInfo`.
/// Dates may carry fractional seconds or not, `Z` or an offset; unknown keys are ignored.
///
/// ```swift
/// let snapshot = try RevenueCatAdapter().snapshot(from: data, at: .now)
/// if snapshot["premium"]?.isActive == true { unlockPremium() }
/// ```
///
/// The document is refused with a located `DocumentError` — never partly mapped —
/// when `request_date`, `subscriber`, `original_app_user_id` or `first_seen` is missing, when any date
/// it reads is not an RFC 3339 date, when an entitlement, subscription or one-time purchase has the
/// wrong JSON type or lacks a required member (`product_identifier`, `purchase_date`, a one-time
/// purchase's `is_sandbox`), and when the body is a RevenueCat error (`{"code": …, "message": …}`).
/// `store`, `period_type`, `ownership_type` and `management_url` never fail a document, as in
/// RevenueCat's SDK. See <doc:RevenueCatMapping> for every field.
public struct RevenueCatAdapter: EntitlementAdapter {
    /// Creates the adapter.
    public init() {}

    /// `revenuecat`.
    public var provider: ProviderID { .revenueCat }

    /// `subscriber`.
    public var formatMarkers: FormatMarkers { Self.markers }

    /// Built once: detection asks for the markers about every record of a `migrate` input.
    private static let markers = FormatMarkers(memberNames: [Field.subscriber])

    /// A top-level object with a `subscriber` member.
    public func recognizes(_ document: JSONValue) -> Bool {
        document[Field.subscriber] != nil
    }

    /// ``recognizes(_:)-(JSONValue)`` read in place.
    public func recognizes(_ document: JSONNode) -> Bool {
        document.has(Field.subscriber)
    }

    /// The snapshot of `document` evaluated at `instant`.
    ///
    /// Access is judged at `instant` by the unified rule (active while `instant <= expires_date`), not at
    /// the response's `request_date` as RevenueCat's SDK does.
    public func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        try read(document).snapshot(provider: provider, at: instant)
    }

    /// The customer-level answers (active subscriptions, product dates, management URL) and the
    /// snapshot of `document`, evaluated at `instant`.
    public func customerInfo(from document: JSONNode, at instant: Date) throws(DocumentError) -> RevenueCatCustomerInfo
    {
        let response = try read(document)
        return RevenueCatCustomerInfo(response: response, snapshot: response.snapshot(provider: provider, at: instant))
    }

    /// Parses `data` and returns ``customerInfo(from:at:)-(JSONNode,_)``.
    public func customerInfo(from data: Data, at instant: Date) throws(DocumentError) -> RevenueCatCustomerInfo {
        try customerInfo(from: JSONNode(parsing: data), at: instant)
    }

    private func read(_ document: JSONNode) throws(DocumentError) -> RevenueCatResponse {
        if let error = Self.errorBody(document) { throw error }
        return try RevenueCatResponse(reading: document)
    }

    /// RevenueCat answers a failed request with `{"code": 7225, "message": "…"}` and no `subscriber`.
    private static func errorBody(_ document: JSONNode) -> DocumentError? {
        guard document.kind == .object, !document.has(Field.subscriber), let codeNode = document.member(Field.code),
            case .integer(let code) = codeNode.value, let message = document.member(Field.message)?.stringValue
        else { return nil }
        return DocumentError(
            kind: .vendorError, path: document.path, offending: document.value,
            reason: "is a RevenueCat error response (code \(code): \(message))")
    }
}

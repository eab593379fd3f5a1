import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// Adapty's error bodies — `{"error_code": "…"}`, `{"detail": [{"type": "…"}]}` or
/// `{"errors": [{"code": "…"}]}`, the three its iOS SDK reads — and the statuses it treats apart.
enum AdaptyErrorBody {
    /// The vendor code (and message, when `errors[0].errors[0]` holds one) of the first form that matches.
    static func detail(_ body: Data) -> VendorErrorDetail {
        guard let value = try? JSONNode(parsing: body).value else { return VendorErrorDetail() }
        if case .string(let code)? = value[Field.errorCode] { return VendorErrorDetail(code: code) }
        if case .array(let details)? = value[Field.detail], case .string(let type)? = details.first?[Field.type] {
            return VendorErrorDetail(code: type)
        }
        if case .array(let errors)? = value[Field.errors], let first = errors.first {
            var detail = VendorErrorDetail()
            if case .string(let code)? = first[Field.code] { detail.code = code }
            if case .array(let messages)? = first[Field.errors], case .string(let message)? = messages.first {
                detail.message = message
            }
            return detail
        }
        return VendorErrorDetail()
    }

    /// The client error for a non-2xx answer. 444 is Adapty's "this client is blocked for a while" (its
    /// SDKs stop calling for the minutes the body names): the backend is unavailable to us, not our key
    /// refused. Everything else maps as for every vendor (401/403 refused key, 429/5xx unavailable).
    static func error(for response: HTTPResponse, operation: String) -> EntitlementClientError {
        let detail = detail(response.body)
        if response.status == 444 {
            return EntitlementClientError(
                .backendUnavailable,
                "\(operation): the backend has blocked requests for a while: HTTP 444\(detail.suffix)",
                httpStatus: 444, vendorCode: detail.code)
        }
        return HTTPFailureMapping.error(for: response, operation: operation, vendor: detail)
    }
}

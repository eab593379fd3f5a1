import EntitlementKit
import EntitlementKitHTTP

/// Qonversion's error body `{"error": {"type", "code", "message"}}` and the statuses its SDKs treat as a
/// refused project (401, 402, 403).
enum QonversionErrorBody {
    /// The code and message, when the body is Qonversion's error object.
    static func detail(_ response: HTTPResponse) -> VendorErrorDetail {
        guard let error = (try? JSONNode(parsing: response.body).value)?["error"] else { return VendorErrorDetail() }
        var detail = VendorErrorDetail()
        switch error["code"] {
        case .integer(let code)?: detail.code = String(code)
        case .string(let code)?: detail.code = code
        default: break
        }
        if case .string(let message)? = error["message"] { detail.message = message }
        return detail
    }

    /// The client error for a non-2xx answer. 402 joins 401/403: Qonversion's SDKs stop using a project
    /// that answers it.
    static func error(for response: HTTPResponse, operation: String) -> EntitlementClientError {
        let detail = detail(response)
        if response.status == 402 {
            return EntitlementClientError(
                .credentialsRefused,
                "\(operation): the backend refused the project key: HTTP 402\(detail.suffix)",
                httpStatus: 402, vendorCode: detail.code)
        }
        return HTTPFailureMapping.error(for: response, operation: operation, vendor: detail)
    }
}

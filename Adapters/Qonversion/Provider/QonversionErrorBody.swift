import EntitlementKit
import EntitlementKitHTTP

/// Qonversion's error body `{"error": {"type", "code", "message"}}` and the statuses its SDKs treat as a
/// refused project (401, 402, 403).
enum QonversionErrorBody {
    /// The client error for a non-2xx answer. 402 joins 401/403: Qonversion's SDKs stop using a project
    /// that answers it.
    static func error(for response: HTTPResponse, operation: String) -> EntitlementClientError {
        let detail = VendorErrorDetail(body: response.body) { $0[Field.error] }
        if response.status == 402 {
            return EntitlementClientError(
                .credentialsRefused,
                "\(operation): the backend refused the project key: HTTP 402\(detail.suffix)",
                httpStatus: 402, vendorCode: detail.code)
        }
        return HTTPFailureMapping.error(for: response, operation: operation, vendor: detail)
    }
}

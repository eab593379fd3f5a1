import EntitlementKit
import EntitlementKitHTTP

/// The server's error body `{"code": "receiptInUseByOtherUser", "message": "…"}`: `code` is one of the
/// client's error codes when the server means one of them, and the two the app must tell apart are
/// kept; every other failure is mapped by its HTTP status as for every live provider.
enum OwnBackendErrorBody {
    /// The client error for a non-2xx answer (already blanked of the request headers' values).
    static func error(for response: HTTPResponse, operation: String) -> EntitlementClientError {
        let detail = VendorErrorDetail(body: response.body)
        switch detail.code {
        case EntitlementClientError.Code.receiptInUseByOtherUser.rawValue? where (400...499).contains(response.status):
            return EntitlementClientError(
                .receiptInUseByOtherUser,
                "\(operation): the purchase belongs to another customer: HTTP \(response.status)\(detail.suffix)",
                httpStatus: response.status, vendorCode: detail.code)
        case EntitlementClientError.Code.invalidAppUserId.rawValue? where (400...499).contains(response.status):
            return EntitlementClientError(
                .invalidAppUserId,
                "\(operation): the server refused the app user id: HTTP \(response.status)\(detail.suffix)",
                httpStatus: response.status, vendorCode: detail.code)
        default:
            guard response.status == 401 || response.status == 403 else {
                return HTTPFailureMapping.error(for: response, operation: operation, vendor: detail)
            }
            // The live providers' wording names an API key; here it is the app's own credentials.
            return EntitlementClientError(
                .credentialsRefused,
                "\(operation): the server refused the request's credentials: HTTP \(response.status)\(detail.suffix)",
                httpStatus: response.status, vendorCode: detail.code)
        }
    }
}

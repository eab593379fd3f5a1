import EntitlementKit
import EntitlementKitHTTP

/// RevenueCat's error body `{"code": 7225, "message": "Invalid API Key."}` and the backend codes that
/// change the client's error code.
enum RevenueCatErrorBody {
    /// "The receipt is in use by another subscriber" (RevenueCat `CANNOT_TRANSFER_PURCHASE`; the SDKs
    /// report it as `receiptAlreadyInUseError`).
    static let receiptInUseCode = "7102"
    /// The backend's "empty app user id".
    static let emptyAppUserIdCode = "7220"

    /// The client error for a non-2xx answer.
    static func error(for response: HTTPResponse, operation: String) -> EntitlementClientError {
        let detail = VendorErrorDetail(body: response.body)
        switch detail.code {
        case receiptInUseCode?:
            return EntitlementClientError(
                .receiptInUseByOtherUser,
                "\(operation): the receipt belongs to another customer: HTTP \(response.status)\(detail.suffix)",
                httpStatus: response.status, vendorCode: detail.code)
        case emptyAppUserIdCode?:
            return EntitlementClientError(
                .invalidAppUserId,
                "\(operation): the backend refused the app user id: HTTP \(response.status)\(detail.suffix)",
                httpStatus: response.status, vendorCode: detail.code)
        default:
            return HTTPFailureMapping.error(for: response, operation: operation, vendor: detail)
        }
    }
}

import EntitlementKit

/// The vendor's own explanation of a failed request, read from its error body.
package struct VendorErrorDetail: Sendable, Hashable {
    /// The vendor's error code (RevenueCat `code`, Qonversion `error.code`).
    package var code: String?
    /// The vendor's message.
    package var message: String?

    package init(code: String? = nil, message: String? = nil) {
        self.code = code
        self.message = message
    }

    /// ` (vendor code 7225: Invalid API Key.)`, or empty.
    package var suffix: String {
        switch (code, message) {
        case (let code?, let message?): " (\(code): \(Self.clipped(message)))"
        case (let code?, nil): " (\(code))"
        case (nil, let message?): " (\(Self.clipped(message)))"
        case (nil, nil): ""
        }
    }

    /// Long or multi-line vendor text is cut, so an error stays one short line, and control characters
    /// (an escape sequence that would recolour or rewrite a terminal) become `?`.
    private static func clipped(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        let printable = String(
            String.UnicodeScalarView(
                line.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
        return printable.count > 200 ? String(printable.prefix(200)) + "…" : printable
    }
}

/// The client codes for HTTP answers every vendor shares.
package enum HTTPFailureMapping {
    /// The error for a non-2xx answer: 401/403 `credentialsRefused`; 429 and 5xx `backendUnavailable`
    /// (they reach here only after the retries); a 3xx `badResponse` (redirects are refused); any other
    /// status `badResponse` (the backend did not answer with the document asked for). Each names the
    /// operation, the status, the attempts and the vendor's code and message.
    package static func error(
        for response: HTTPResponse, operation: String, vendor: VendorErrorDetail
    ) -> EntitlementClientError {
        let status = response.status
        let attempts = response.attempts > 1 ? " after \(response.attempts) attempts" : ""
        let code: EntitlementClientError.Code
        let what: String
        switch status {
        case 401, 403:
            code = .credentialsRefused
            what = "the backend refused the API key"
        case 429:
            code = .backendUnavailable
            what = "the backend is rate limiting requests"
        case 500...599:
            code = .backendUnavailable
            what = "the backend is unavailable"
        case 300...399:
            code = .badResponse
            what = "the backend answered with a redirect, which is not followed"
        default:
            code = .badResponse
            what = "the backend answered with an unexpected status"
        }
        return EntitlementClientError(
            code, "\(operation): \(what): HTTP \(status)\(attempts)\(vendor.suffix)", httpStatus: status,
            vendorCode: vendor.code)
    }

    /// The error for a 2xx body the adapter refused (or that is not JSON).
    package static func refusedBody(
        _ error: DocumentError, response: HTTPResponse, operation: String
    ) -> EntitlementClientError {
        EntitlementClientError(
            .badResponse, "\(operation): HTTP \(response.status) body refused: \(error)", httpStatus: response.status,
            documentError: error)
    }
}

/// Why the runtime client, or a provider it asked, could not answer. Every error has one of the stable
/// ``Code``s (what `entitlements scenario` prints) and says what happened in ``message``: the rule an id
/// broke, the HTTP status, the vendor's own error code and message, the document error.
///
/// An error never carries an API key.
public struct EntitlementClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable error codes of the client contract.
    public enum Code: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The app user id breaks a rule the backends enforce (refused before any network call).
        case invalidAppUserId
        /// `logOut` while the current customer is already anonymous.
        case alreadyAnonymous
        /// No connection, or the request timed out.
        case offline
        /// The backend answered 5xx after bounded retries, or 429 past them.
        case backendUnavailable
        /// The backend refused the key (401/403), or a secret key was refused at configuration.
        case credentialsRefused
        /// The body is not JSON, or is a document the adapter refuses.
        case badResponse
        /// `fromCacheOnly` and nothing is cached for the customer.
        case noCachedSnapshot
        /// The store receipt belongs to another customer and the backend will not move or share it.
        case receiptInUseByOtherUser

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The stable code.
    public let code: Code
    /// What happened, in one line.
    public let message: String
    /// The HTTP status the backend answered with, when there was one.
    public let httpStatus: Int?
    /// The backend's own error code (RevenueCat `code`, Qonversion `error.code`), when it sent one.
    public let vendorCode: String?
    /// The document error when the backend's body was refused by the adapter.
    public let documentError: DocumentError?

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, httpStatus: Int? = nil, vendorCode: String? = nil,
        documentError: DocumentError? = nil
    ) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.vendorCode = vendorCode
        self.documentError = documentError
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}

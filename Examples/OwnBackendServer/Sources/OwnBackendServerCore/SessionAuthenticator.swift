import Foundation

/// Who a request's session is: the deployment's own session check (its login service, its tokens).
/// Every `/customers/…` request is served only for the app user id its session names.
public protocol SessionAuthenticator: Sendable {
    /// The app user id `bearerToken` is a session of; `nil` for no session.
    func appUserId(forSession bearerToken: String) async -> String?
}

/// Development sessions from `LEDGER_SESSIONS_FILE` (`{"<bearer token>": "<app user id>"}`): for trying
/// the server and for its tests, never for production.
public struct DevelopmentSessions: SessionAuthenticator {
    private let tokens: [String: String]

    /// Sessions by token.
    public init(tokens: [String: String]) {
        self.tokens = tokens
    }

    public func appUserId(forSession bearerToken: String) async -> String? {
        // Compared by bytes, as ids are: a token that differs in normalisation is another token.
        tokens.first { Array($0.key.utf8) == Array(bearerToken.utf8) }?.value
    }
}

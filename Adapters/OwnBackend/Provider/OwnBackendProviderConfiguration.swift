import EntitlementKit
import EntitlementKitHTTP
import Foundation

extension OwnBackendProvider {
    /// Where your server is, its three routes, the anonymous id form, and the HTTP options.
    public struct Configuration: Sendable, CustomStringConvertible {
        /// Your server (`https`, or plain `http` on loopback only: the session token travels in every
        /// request). A path is kept as a prefix of every route.
        public let baseURL: BackendBaseURL
        /// The routes below the base URL.
        public var routes: Routes
        /// The form of anonymous ids (RevenueCat's by default).
        public var anonymousIds: OwnBackendAnonymousIdForm
        /// What names this server's customers in a shared cache directory
        /// (``EntitlementKit/EntitlementProvider/storageNamespace``): the base URL unless set. Set it to
        /// a fixed name before the server may move to another URL, so devices keep their stored id and
        /// answers across the move.
        public var storageKey: String
        /// Timeout, retries, size cap.
        public var connection: HTTPConnectionOptions

        /// Checks the base URL: a plain-http URL off loopback, or one with a user, password, query or
        /// fragment, is ``EntitlementKit/EntitlementClientError/Code/credentialsRefused``.
        public init(
            baseURL: URL, routes: Routes = .standard, anonymousIds: OwnBackendAnonymousIdForm = .revenueCat,
            storageKey: String? = nil, connection: HTTPConnectionOptions = HTTPConnectionOptions()
        ) throws(EntitlementClientError) {
            self.baseURL = try BackendBaseURL(baseURL)
            self.routes = routes
            self.anonymousIds = anonymousIds
            self.storageKey = storageKey ?? self.baseURL.description
            self.connection = connection
        }

        /// The base URL, routes, anonymous form and options.
        public var description: String {
            "OwnBackendProvider.Configuration(baseURL: \(baseURL), entitlements: \(routes.entitlements), purchases: \(routes.purchases), logIn: \(routes.logIn), anonymousIds: \(anonymousIds), \(connection))"
        }
    }

    /// The three routes, each with one `{id}`: `customers/{id}/entitlements`, `customers/{id}/purchases`
    /// and `customers/{id}/login` by default.
    public struct Routes: Sendable, Hashable {
        /// `GET`: the customer's snapshot.
        public var entitlements: OwnBackendPathTemplate
        /// `POST {"store", "token", "productId"?}`: a restore, sync or purchase; answers the snapshot.
        public var purchases: OwnBackendPathTemplate
        /// `POST {"from"}` to the customer logged in to; answers `{"created", "snapshot"}`.
        public var logIn: OwnBackendPathTemplate

        /// `customers/{id}/entitlements`, `customers/{id}/purchases`, `customers/{id}/login`.
        public static let standard = Routes(
            checkedEntitlements: OwnBackendPathTemplate(checked: "customers/{id}/entitlements"),
            purchases: OwnBackendPathTemplate(checked: "customers/{id}/purchases"),
            logIn: OwnBackendPathTemplate(checked: "customers/{id}/login"))

        /// The templates given, the others the default (each checked: see ``OwnBackendPathTemplate``).
        public init(
            entitlements: String = "customers/{id}/entitlements", purchases: String = "customers/{id}/purchases",
            logIn: String = "customers/{id}/login"
        ) throws(EntitlementClientError) {
            self.entitlements = try OwnBackendPathTemplate(entitlements)
            self.purchases = try OwnBackendPathTemplate(purchases)
            self.logIn = try OwnBackendPathTemplate(logIn)
        }

        private init(
            checkedEntitlements entitlements: OwnBackendPathTemplate, purchases: OwnBackendPathTemplate,
            logIn: OwnBackendPathTemplate
        ) {
            self.entitlements = entitlements
            self.purchases = purchases
            self.logIn = logIn
        }
    }
}

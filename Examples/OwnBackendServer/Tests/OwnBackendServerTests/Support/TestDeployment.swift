import EntitlementKitTesting
import Foundation
import ServerHarness
import _CryptoExtras

/// The files and variables of one test deployment: catalog, test root, webhook secret, sessions, a
/// service-account key made for the test, Stripe's key, and where the fetchers go.
struct TestDeployment {
    /// Sessions: bearer token → app user id.
    static let sessions = [
        "session-alice": "alice", "session-bob": "bob", "session-carol": "carol",
        "session-anonymous": "$RCAnonymousID:0123456789abcdef0123456789abcdef",
    ]

    let folder: URL
    let environment: [String: String]

    /// `database`: a PostgreSQL URL, or `nil` for the embedded store; `api`: the loopback stand-in of
    /// Google's and Stripe's APIs; `pushes`: the Play pushes whose tokens the server checks (none: Play
    /// pushes are not authenticated).
    init(
        database: String?, api: URL?, notifications: AppStoreNotifications, pushes: SimulatedPlayPushes? = nil
    ) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("deployment-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        folder = base
        func file(_ name: String, _ contents: Data) throws -> String {
            let url = base.appendingPathComponent(name)
            try contents.write(to: url)
            return url.path
        }
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let account = try JSONSerialization.data(withJSONObject: [
            "type": "service_account", "client_email": "ledger@example.iam.gserviceaccount.com",
            "private_key": key.pemRepresentation, "token_uri": "https://oauth2.googleapis.com/token",
        ])
        var variables = [
            "LEDGER_CATALOG": try file("catalog.json", Data(TestApp.catalogJSON.utf8)),
            "LEDGER_BUNDLE_ID": TestApp.bundleId,
            "LEDGER_PACKAGE_NAME": TestApp.packageName,
            "LEDGER_ROOT_CERTIFICATES": try file("root.der", notifications.signer.rootCertificate),
            "STRIPE_WEBHOOK_SECRETS_FILE": try file("webhook-secrets", Data("\(TestApp.webhookSecret)\n".utf8)),
            "LEDGER_SESSIONS_FILE": try file(
                "sessions.json", try JSONSerialization.data(withJSONObject: Self.sessions)),
            "GOOGLE_SERVICE_ACCOUNT_FILE": try file("service-account.json", account),
            "STRIPE_SECRET_KEY_FILE": try file("stripe-key", Data(StoreAPIStandIn.stripeKey.utf8)),
            "LEDGER_STATE_DIR": base.appendingPathComponent("state").path,
        ]
        if let database { variables["LEDGER_DATABASE_URL"] = database }
        if let pushes {
            variables["PUBSUB_AUDIENCE"] = pushes.audience
            variables["PUBSUB_SERVICE_ACCOUNT"] = pushes.serviceAccountEmail
            variables["GOOGLE_KEYS_FILE"] = try file("google-keys.json", pushes.jwks)
        }
        if let api {
            variables["PLAY_API_BASE_URL"] = api.absoluteString
            variables["STRIPE_API_BASE_URL"] = api.absoluteString
        }
        environment = variables
    }

    /// The session header of `appUserId`.
    static func authorization(_ appUserId: String) -> [String: String] {
        guard let token = sessions.first(where: { $0.value == appUserId })?.key else { return [:] }
        return ["Authorization": "Bearer " + token]
    }
}

import Foundation
import ServerHarness
import Testing

/// An unusable setting stops the server at start, non-zero, with one line naming the variable and no
/// secret; no database needed.
@Suite(.timeLimit(.minutes(2)))
struct ConfigurationTests {
    @Test(arguments: [
        ("LEDGER_CATALOG", "/no/such/catalog.json"),
        ("LEDGER_SESSIONS_FILE", "/no/such/sessions.json"),
        ("STRIPE_SECRET_KEY_FILE", "/no/such/key"),
        ("GOOGLE_SERVICE_ACCOUNT_FILE", "/no/such/account.json"),
        ("LEDGER_DATABASE_URL", "mysql://root@localhost/db"),
        ("PLAY_API_BASE_URL", "not a url"),
        ("STRIPE_API_BASE_URL", "ftp://example.com"),
        ("LEDGER_ENVIRONMENTS", "staging"),
        ("LEDGER_BIND", "8080"),
    ])
    func anUnusableSettingExitsAtStartNamingIt(variable: String, value: String) throws {
        let (status, standardError) = try ServerProcess.exitAtStart(environment: [variable: value])
        #expect(status != 0)
        let lines = standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(standardError)")
        #expect(lines.first?.contains(variable) == true, "\(standardError)")
    }

    @Test func pushAuthenticationNeedsAllThreeSettings() throws {
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString).json")
        try Data(#"{"keys": []}"#.utf8).write(to: keys)
        let audience = "https://ledger.example.com/notifications/googleplay"
        for (environment, named) in [
            (["PUBSUB_AUDIENCE": audience], "PUBSUB_SERVICE_ACCOUNT"),
            (["PUBSUB_AUDIENCE": audience, "PUBSUB_SERVICE_ACCOUNT": "a@example.com"], "GOOGLE_KEYS_FILE"),
            (["GOOGLE_KEYS_FILE": keys.path, "PUBSUB_SERVICE_ACCOUNT": "a@example.com"], "PUBSUB_AUDIENCE"),
        ] {
            let (status, standardError) = try ServerProcess.exitAtStart(environment: environment)
            #expect(status == 78)
            #expect(standardError.hasPrefix("own-backend-server: \(named): "), "\(standardError)")
        }
        // All three, but the keys file is no JWKS of RSA keys.
        let (status, standardError) = try ServerProcess.exitAtStart(environment: [
            "PUBSUB_AUDIENCE": audience, "PUBSUB_SERVICE_ACCOUNT": "a@example.com", "GOOGLE_KEYS_FILE": keys.path,
        ])
        #expect(status == 78)
        #expect(standardError.hasPrefix("own-backend-server: GOOGLE_KEYS_FILE: "), "\(standardError)")
    }

    @Test func aSecretInAFileThatIsNotOneIsNotPrinted() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("account-\(UUID().uuidString).json")
        try Data(#"{"client_email": "x@example.com", "private_key": "sk_live_SECRET_VALUE"}"#.utf8).write(to: file)
        let (status, standardError) = try ServerProcess.exitAtStart(environment: [
            "GOOGLE_SERVICE_ACCOUNT_FILE": file.path
        ])
        #expect(status != 0)
        #expect(standardError.contains("GOOGLE_SERVICE_ACCOUNT_FILE"))
        #expect(!standardError.contains("SECRET_VALUE"))
    }
}

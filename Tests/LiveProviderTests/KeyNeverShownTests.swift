import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitHTTP
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import LoopbackHTTPServer
import Testing

/// The API key travels only in the `Authorization` header: no log record, error, description, debug
/// description or dump shows it, whatever happens.
@Suite struct KeyNeverShownTests {
    /// A key no other text could contain by chance.
    static let key = "appl_UNIQUE-KEY-7f3a9c1e5b2d"

    static func texts(of configuration: some Any) -> [String] {
        var dumped = ""
        dump(configuration, to: &dumped)
        return [
            String(describing: configuration), String(reflecting: configuration), "\(configuration)", dumped,
        ]
    }

    @Test func revenueCatLogsErrorsAndDescriptionsNeverContainTheKey() async throws {
        let replies: [LoopbackHTTPServer.Reply] = [
            .revenueCatError(401, code: 7225, message: "Invalid API Key."),
            .revenueCatError(500, code: 7110, message: "boom"), .text(200, "<html>captive portal</html>"),
            .json(429, "{}", headers: [.init("Retry-After", "9999")]), .drop,
            .revenueCatError(400, code: 7102, message: "in use"),
            // A backend or proxy that echoes the credentials it was sent, in an error and in a 200 body.
            .revenueCatError(401, code: 7225, message: "Invalid API key Bearer \(Self.key)"),
            .revenueCatError(503, code: 7110, message: "upstream refused \(Self.key)"),
            .json(200, #"{"subscriber": "Bearer \#(Self.key)"}"#),
        ]
        var texts: [String] = []
        let recorder = LogRecorder()
        for reply in replies {
            let server = try LoopbackHTTPServer(replies: [reply])
            defer { server.stop() }
            let configuration = try RevenueCatProvider.Configuration(
                apiKey: Self.key, baseURL: server.baseURL,
                connection: TestFixtures.options(attempts: 2, sleeper: RecordingSleeper()))
            texts += Self.texts(of: configuration)
            texts += Self.texts(of: configuration.apiKey)
            let provider = RevenueCatProvider(configuration: configuration, logger: recorder.logger)
            texts += Self.texts(of: provider)
            do {
                _ = try await provider.syncPurchases(StoreReceipt(store: .appStore, token: "t"), for: "alice")
                Issue.record("expected a failure for \(reply)")
            } catch {
                texts += [error.description, error.message, String(reflecting: error)]
                var dumped = ""
                dump(error, to: &dumped)
                texts.append(dumped)
            }
            // The server did receive the key: the test would prove nothing if the key were never sent.
            #expect(server.requests.first?.header("Authorization") == "Bearer " + Self.key)
        }
        texts += recorder.records.map(\.description)
        #expect(recorder.records.count >= replies.count)
        for text in texts {
            #expect(!text.contains(Self.key), "the key leaked into: \(text)")
            #expect(!text.contains("UNIQUE-KEY"), "part of the key leaked into: \(text)")
        }
    }

    @Test func qonversionLogsErrorsAndDescriptionsNeverContainTheKey() async throws {
        let replies: [LoopbackHTTPServer.Reply] = [
            .json(401, #"{"error": {"code": "control_unauthorized", "message": "Unauthorized"}}"#),
            .json(500, "{}"), .json(200, #"{"success": false, "data": {}}"#), .drop, .text(404, "<html></html>"),
            // Echoes of the key (sandbox sends it as test_<key>) in an error body and in a document value.
            .json(401, #"{"error": {"code": "unauthorized", "message": "bad token test_\#(Self.key)"}}"#),
            .json(200, #"{"success": true, "data": {"uid": "\#(Self.key)", "permissions": 7}}"#),
        ]
        var texts: [String] = []
        let recorder = LogRecorder()
        for reply in replies {
            let server = try LoopbackHTTPServer(replies: [reply])
            defer { server.stop() }
            for sandbox in [false, true] {
                let configuration = try QonversionProvider.Configuration(
                    projectKey: Self.key, baseURL: server.baseURL, sandbox: sandbox,
                    connection: TestFixtures.options(attempts: 2, sleeper: RecordingSleeper()))
                texts += Self.texts(of: configuration)
                let provider = QonversionProvider(configuration: configuration, logger: recorder.logger)
                texts += Self.texts(of: provider)
                do {
                    _ = try await provider.snapshot(for: "QON_0123456789abcdef0123456789abcdef")
                    Issue.record("expected a failure for \(reply)")
                } catch {
                    var dumped = ""
                    dump(error, to: &dumped)
                    texts += [error.description, String(reflecting: error), dumped]
                }
            }
            #expect(server.requests.first?.header("Authorization") == "Bearer " + Self.key)
        }
        texts += recorder.records.map(\.description)
        for text in texts {
            #expect(!text.contains("UNIQUE-KEY"), "the key leaked into: \(text)")
        }
    }

    @Test func adaptyLogsErrorsAndDescriptionsNeverContainTheKey() async throws {
        let replies: [LoopbackHTTPServer.Reply] = [
            .json(401, #"{"error_code": "not_authenticated"}"#), .json(444, "{}"), .json(500, "{}"), .drop,
            .text(200, "<html>captive portal</html>"),
            // Echoes of the key in an error body, a header and a document value.
            .json(401, #"{"errors": [{"code": "bad", "errors": ["bad key Api-Key \#(Self.key)"]}]}"#),
            .json(400, "{}", headers: [.init("x-response-hash", Self.key)]),
            .json(200, AdaptyBodies.profile(Self.key)),
        ]
        var texts: [String] = []
        let recorder = LogRecorder()
        for reply in replies {
            let server = try LoopbackHTTPServer(replies: [reply])
            defer { server.stop() }
            let configuration = try AdaptyProvider.Configuration(
                publicSDKKey: Self.key, baseURL: server.baseURL,
                connection: TestFixtures.options(attempts: 2, sleeper: RecordingSleeper()))
            texts += Self.texts(of: configuration)
            texts += Self.texts(of: configuration.publicSDKKey)
            let provider = AdaptyProvider(configuration: configuration, logger: recorder.logger)
            texts += Self.texts(of: provider)
            do {
                _ = try await provider.snapshot(for: AdaptyBodies.deviceProfile)
                Issue.record("expected a failure for \(reply)")
            } catch {
                var dumped = ""
                dump(error, to: &dumped)
                texts += [error.description, error.message, String(reflecting: error), dumped]
            }
            #expect(server.requests.first?.header("Authorization") == "Api-Key " + Self.key)
        }
        texts += recorder.records.map(\.description)
        #expect(recorder.records.count >= replies.count)
        for text in texts {
            #expect(!text.contains("UNIQUE-KEY"), "the key leaked into: \(text)")
        }
        for secret in ["secret_live_UNIQUE-SECRET-91be", "sk_UNIQUE-SECRET-91be"] {
            do {
                _ = try AdaptyProvider.Configuration(publicSDKKey: secret)
                Issue.record("accepted a secret key")
            } catch {
                var dumped = ""
                dump(error, to: &dumped)
                #expect(!error.description.contains("UNIQUE-SECRET"))
                #expect(!dumped.contains("UNIQUE-SECRET"))
            }
        }
    }

    @Test func refusedKeysAreNotEchoed() {
        for secret in ["sk_UNIQUE-SECRET-91be", "test_sk_UNIQUE-SECRET-91be", "appl_UNIQUE-SECRET-91be\n"] {
            do {
                _ = try RevenueCatProvider.Configuration(apiKey: secret)
                Issue.record("accepted \(secret)")
            } catch {
                #expect(!error.description.contains("UNIQUE-SECRET"))
                var dumped = ""
                dump(error, to: &dumped)
                #expect(!dumped.contains("UNIQUE-SECRET"))
            }
        }
    }
}

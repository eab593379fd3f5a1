// swift-format-ignore-file
// (the examples are kept exactly as the article shows them)
import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitHTTP
import Foundation
import Testing

// doc-example: Adapters/Adapty/EntitlementKitAdapty.docc/ConfiguringAdaptyProvider.md
func makeAdaptyClient(cacheFolder: URL) async throws -> EntitlementClient {
    let configuration = try AdaptyProvider.Configuration(publicSDKKey: "public_live_YourKey.Abc123")
    let provider = AdaptyProvider(configuration: configuration)
    let cache = try DirectoryEntitlementCache(directory: cacheFolder)
    return try await EntitlementClient(provider: provider, cache: cache)
}
// end doc-example

// doc-example: Adapters/Adapty/EntitlementKitAdapty.docc/ConfiguringAdaptyProvider.md
func makeExtensionProvider(logger: EntitlementLogger) throws -> AdaptyProvider {
    let options = HTTPConnectionOptions(
        requestTimeout: .seconds(5),                               // one attempt, connection included
        retryPolicy: HTTPRetryPolicy(maximumAttempts: 2),          // the first try and one retry
        maximumResponseBytes: 1 << 20)                             // a profile is a few kilobytes
    let configuration = try AdaptyProvider.Configuration(
        publicSDKKey: "public_live_YourKey.Abc123",
        baseURL: URL(string: "https://proxy.example.com/adapty/"),  // https, or http on loopback only
        platform: "iOS",
        connection: options)
    return AdaptyProvider(configuration: configuration, logger: logger)
}
// end doc-example

/// What the article says of the configuration, checked without a network.
@Suite("Configuring AdaptyProvider (article)", .timeLimit(.minutes(5)))
struct ConfiguringAdaptyProviderArticleTests {
    @Test func theExtensionProviderKeepsWhatTheArticleSets() throws {
        let provider = try makeExtensionProvider(logger: .disabled)
        #expect(provider.configuration.platform == "iOS")
        #expect(provider.configuration.live.connection.requestTimeout == .seconds(5))
        #expect(provider.configuration.live.connection.retryPolicy.maximumAttempts == 2)
        #expect(!"\(provider.configuration)".contains("YourKey"), "the key is redacted")
    }

    @Test func aSecretKeyAndPlainHTTPOffLoopbackAreRefusedAtConfiguration() {
        #expect(throws: EntitlementClientError.self) {
            _ = try AdaptyProvider.Configuration(publicSDKKey: "secret_live_Abc")
        }
        #expect(throws: EntitlementClientError.self) {
            _ = try AdaptyProvider.Configuration(
                publicSDKKey: "public_live_Abc", baseURL: URL(string: "http://proxy.example.com/"))
        }
        #expect(throws: Never.self) {
            _ = try AdaptyProvider.Configuration(
                publicSDKKey: "public_live_Abc", baseURL: URL(string: "http://127.0.0.1:8080/"))
        }
    }
}

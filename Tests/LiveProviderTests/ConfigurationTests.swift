import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitHTTP
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct ConfigurationTests {
    @Test(arguments: ["sk_live_abc123", "test_sk_abc123"])
    func aSecretKeyIsRefusedAtConfiguration(key: String) {
        do {
            _ = try RevenueCatProvider.Configuration(apiKey: key)
            Issue.record("a secret key was accepted")
        } catch {
            #expect(error.code == .credentialsRefused)
            #expect(!error.description.contains(key))
        }
    }

    @Test(arguments: ["", "appl_ key", "appl_key\r\nX-Evil: 1", "appl_kéy"])
    func aMalformedKeyIsRefused(key: String) {
        #expect(throws: EntitlementClientError.self) { _ = try APIKey(key) }
    }

    @Test(arguments: [
        "https://api.revenuecat.com", "https://proxy.example.com/rc", "http://127.0.0.1:8080", "http://127.9.8.7/",
        "http://localhost:3000/",
    ])
    func httpsOrLoopbackBaseURLsAreAccepted(text: String) throws {
        let base = try BackendBaseURL(text)
        #expect(base.url.absoluteString.hasSuffix("/"))
    }

    @Test(arguments: [
        "http://api.revenuecat.com", "http://128.0.0.1/", "http://10.0.0.1/", "http://localhost.example.com/",
        "ftp://127.0.0.1/", "https://user:pass@proxy.example.com/", "https://proxy.example.com/?a=b",
        "https://proxy.example.com/#f", "/relative/path",
    ])
    func insecureOrMalformedBaseURLsAreRefused(text: String) {
        do {
            _ = try BackendBaseURL(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code == .credentialsRefused)
        }
    }

    @Test func ipv6LoopbackIsLoopbackButItsLiteralIsRefusedWhereURLSessionCannotReachIt() {
        #expect(BackendBaseURL.isLoopback(host: "::1"))
        #expect(BackendBaseURL.isLoopback(host: "[::1]"))
        #if canImport(FoundationNetworking)
            do {
                _ = try BackendBaseURL("http://[::1]:8080/")
                Issue.record("an IPv6 literal was accepted on Linux")
            } catch {
                #expect(error.code == .credentialsRefused)
                #expect(error.message.contains("IPv6 address literal"))
            }
        #else
            #expect(throws: Never.self) { _ = try BackendBaseURL("http://[::1]:8080/") }
        #endif
    }

    @Test func aBasePathIsKeptAsAPrefix() throws {
        let base = try BackendBaseURL("https://proxy.example.com/revenuecat")
        #expect(base.appending(encodedPath: "v1/x")?.absoluteString == "https://proxy.example.com/revenuecat/v1/x")
    }

    @Test func pathSegmentsEncodeEverythingOutsideUnreserved() {
        #expect(PathSegment.encode("a/b c?d") == "a%2Fb%20c%3Fd")
        #expect(PathSegment.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PathSegment.encode("#%&+=;:@!$'()*,[]") == "%23%25%26%2B%3D%3B%3A%40%21%24%27%28%29%2A%2C%5B%5D")
        #expect(PathSegment.encode("é") == "%C3%A9")
        #expect(PathSegment.encode("..") == "%2E%2E")
        #expect(PathSegment.encode(".") == "%2E")
        #expect(PathSegment.encode("$RCAnonymousID:0f") == "%24RCAnonymousID%3A0f")
    }

    @Test func retryPolicyClampsAttemptsAndJittersWithinTheUpperHalf() {
        #expect(HTTPRetryPolicy(maximumAttempts: 0).maximumAttempts == 1)
        #expect(HTTPRetryPolicy(maximumAttempts: 99).maximumAttempts == 10)
        let policy = HTTPRetryPolicy(initialBackoff: .seconds(1), maximumBackoff: .seconds(3))
        var generator = SplitMix64(seed: 1)
        for _ in 0..<50 {
            let first = policy.backoff(beforeRetry: 1, using: &generator)
            #expect(first >= .milliseconds(500) && first <= .seconds(1))
            let second = policy.backoff(beforeRetry: 2, using: &generator)
            #expect(second >= .seconds(1) && second <= .seconds(2))
            let capped = policy.backoff(beforeRetry: 9, using: &generator)
            #expect(capped >= .milliseconds(1500) && capped <= .seconds(3))
        }
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() throws {
        let now = try #require(RFC3339.date(from: "2015-10-21T07:27:00Z"))
        #expect(RetryAfter.delay("7", now: now) == .seconds(7))
        #expect(RetryAfter.delay("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.delay("Wed, 21 Oct 2015 07:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.delay("soon", now: now) == nil)
        #expect(RetryAfter.delay(nil, now: now) == nil)
    }

    /// The three configurations share one description builder: each names its settings in one line, the
    /// key as `<redacted>`, and the mirror (what `dump` walks) holds no key either.
    @Test func everyConfigurationDescribesItselfWithoutItsKey() throws {
        let options = HTTPConnectionOptions(requestTimeout: .seconds(7), maximumResponseBytes: 1024)
        let revenueCat = try RevenueCatProvider.Configuration(
            apiKey: "appl_DESCRIBED", platform: "iOS", connection: options)
        let qonversion = try QonversionProvider.Configuration(
            projectKey: "PV77DESCRIBED", baseURL: URL(string: "https://proxy.example.com/q"), sandbox: true,
            platform: nil, connection: options)
        let adapty = try AdaptyProvider.Configuration(publicSDKKey: "public_live_DESCRIBED", platform: "macOS")
        let connection = "HTTPConnectionOptions(requestTimeout: 7.0 seconds, attempts: 3, maximumResponseBytes: 1024)"
        #expect(
            revenueCat.description
                == "RevenueCatProvider.Configuration(apiKey: <redacted>, baseURL: https://api.revenuecat.com/, platform: iOS, \(connection))"
        )
        #expect(
            qonversion.description
                == "QonversionProvider.Configuration(projectKey: <redacted>, baseURL: https://proxy.example.com/q/, sandbox: true, platform: none, \(connection))"
        )
        #expect(
            adapty.description
                == "AdaptyProvider.Configuration(publicSDKKey: <redacted>, baseURL: https://api.adapty.io/, platform: macOS, HTTPConnectionOptions(requestTimeout: 15.0 seconds, attempts: 3, maximumResponseBytes: 4194304))"
        )
        for configuration in [revenueCat, qonversion, adapty] as [any VendorProviderConfiguration] {
            #expect(configuration.debugDescription == configuration.description)
            var dumped = ""
            dump(configuration, to: &dumped)
            #expect(dumped.contains("<redacted>"))
            #expect(!dumped.contains("DESCRIBED"))
        }
        var changed = adapty
        changed.connection.maximumResponseBytes = 99
        #expect(changed.live.connection.maximumResponseBytes == 99)
    }
}

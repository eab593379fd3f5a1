// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitOwnBackend
import EntitlementKitTesting
import Foundation

// The README's and the module's examples, verbatim between the markers.

/// The app's login session, as the README's example uses it.
protocol AppSession: Sendable {
    func token(for appUserId: String) async throws -> String
}

func readmeOwnBackendExample(serverURL: URL, session: some AppSession) async throws {
    // doc-example: README.md
    let configuration = try OwnBackendProvider.Configuration(
        baseURL: serverURL,                                   // https (plain http on loopback only)
        routes: try .init(entitlements: "v1/customers/{id}/entitlements"),   // the default has no v1/
        anonymousIds: .revenueCat)                            // $RCAnonymousID: + 32 hex, the default
    let provider = OwnBackendProvider(configuration: configuration) { appUserId in
        ["Authorization": "Bearer " + (try await session.token(for: appUserId))]
    }
    let client = try await EntitlementClient(provider: provider, cache: InMemoryEntitlementCache())
    // end doc-example
    _ = client
}

func readmeChangeSignalExample(serverURL: URL, session: some AppSession) throws {
    // doc-example: README.md
    let changes = OwnBackendChangeSignal()
    let provider = OwnBackendProvider(
        configuration: try .init(baseURL: serverURL),
        requestHeaders: { appUserId in ["Authorization": "Bearer " + (try await session.token(for: appUserId))] },
        changeSignal: changes)
    // In the silent-push handler, and on every return to the foreground:
    changes.send()
    // end doc-example
    _ = provider
}

func ownBackendModuleExample(serverURL: URL, sessionToken: String, unlockPremium: () -> Void) async throws {
    // doc-example: Adapters/OwnBackend/EntitlementKitOwnBackend.docc/EntitlementKitOwnBackend.md
    let provider = OwnBackendProvider(
        configuration: try .init(baseURL: serverURL),
        requestHeaders: { _ in ["Authorization": "Bearer " + sessionToken] })
    let client = try await EntitlementClient(provider: provider, cache: InMemoryEntitlementCache())
    if await client.checkEntitlements().isActive("premium") { unlockPremium() }
    // end doc-example
}

func runningYourOwnBackendExamples(
    serverURL: URL, session: some AppSession, folder: URL, catalog: EntitlementCatalog
) async throws {
    // doc-example: Adapters/OwnBackend/EntitlementKitOwnBackend.docc/RunningYourOwnBackend.md
    let provider = OwnBackendProvider(
        configuration: try .init(baseURL: serverURL),
        requestHeaders: { appUserId in ["Authorization": "Bearer " + (try await session.token(for: appUserId))] })
    let client = try await EntitlementClient(provider: provider, cache: try DirectoryEntitlementCache(directory: folder))
    // end doc-example
    _ = client

    // doc-example: Adapters/OwnBackend/EntitlementKitOwnBackend.docc/RunningYourOwnBackend.md
    let ledger = EntitlementLedger(
        sources: [
            AppStoreLedgerSource(catalog: catalog, bundleId: "com.example.app"),
            GooglePlayLedgerSource(catalog: catalog, packageName: "com.example.app"),
        ],
        store: InMemoryLedgerStore(),   // in production a DirectoryLedgerStore, or your database's (below)
        configuration: LedgerConfiguration(restoreBehavior: .transferToNewAppUserId))
    // end doc-example
    _ = ledger

    // doc-example: Adapters/OwnBackend/EntitlementKitOwnBackend.docc/RunningYourOwnBackend.md
    let signer = try AppStoreTestSigner()                      // a throwaway chain, keys never kept
    let testLedger = EntitlementLedger(
        sources: [
            AppStoreLedgerSource(
                catalog: catalog, bundleId: "com.example.app",
                rootCertificates: [signer.rootCertificate]),   // nil (the default): Apple Root CA - G3 only
        ],
        configuration: LedgerConfiguration(environments: [.sandbox]))   // the default, [.production], refuses them
    // end doc-example
    _ = testLedger
}

/// The article's push authentication: `googleCertsDocument` is Google's JWKS (a test's own key here), and
/// `pushBody` / `pushHeaders` a push as the route receives it.
func runningYourOwnBackendPushAuthentication(
    catalog: EntitlementCatalog, googleCertsDocument: Data, pushBody: Data, pushHeaders: [String: String]
) async throws -> LedgerOutcome {
    // doc-example: Adapters/OwnBackend/EntitlementKitOwnBackend.docc/RunningYourOwnBackend.md
    let pushAuthentication = GooglePlayPushAuthentication(
        audience: "https://your.server/notifications/googlePlay",         // the push subscription's audience
        serviceAccountEmail: "rtdn-push@your-project.iam.gserviceaccount.com",
        keys: try GoogleSigningKeys(jwks: googleCertsDocument))            // Google's JWKS, as fetched
    let playLedger = EntitlementLedger(
        sources: [
            GooglePlayLedgerSource(
                catalog: catalog, packageName: "com.example.app", pushAuthentication: pushAuthentication)
        ],
        store: InMemoryLedgerStore())

    // The route passes the push's headers with its body, as the handler above does.
    let outcome = try await playLedger.apply(
        LedgerNotification(source: .googlePlay, body: pushBody, headers: pushHeaders, receivedAt: Date()))
    // end doc-example
    return outcome
}

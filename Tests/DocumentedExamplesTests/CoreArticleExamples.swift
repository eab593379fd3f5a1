// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitRevenueCat
import Foundation

// The core DocC catalog's Swift examples, verbatim between the markers.

func landingPageExample(responseBody: Data, unlockPremium: () -> Void) throws {
    // doc-example: Sources/EntitlementKit/Documentation.docc/EntitlementKit.md
    let snapshot = try RevenueCatAdapter().snapshot(from: responseBody, at: .now)
    if snapshot["premium"]?.isActive == true {
        unlockPremium()
    }
    // end doc-example
}

func connectingABackendExample(unlockPro: () -> Void) async throws {
    // doc-example: Sources/EntitlementKit/Documentation.docc/ConnectingABackend.md
    let provider = RevenueCatProvider(configuration: try .init(apiKey: "appl_YourPublicKey"))
    let client = try await EntitlementClient(provider: provider, cache: InMemoryEntitlementCache())
    let check = await client.checkEntitlements()
    if check.isActive("pro") { unlockPro() }
    // end doc-example
}

func gettingStartedExamples(body: Data) throws {
    // doc-example: Sources/EntitlementKit/Documentation.docc/GettingStarted.md
    let adapter = RevenueCatAdapter()
    let snapshot = try adapter.snapshot(from: body, at: .now)
    // end doc-example

    // doc-example: Sources/EntitlementKit/Documentation.docc/GettingStarted.md
    do {
        let snapshot = try adapter.snapshot(from: body, at: .now)
        print(snapshot.activeEntitlementIds)
    } catch {
        print(error)  // subscriber.entitlements.pro.expires_date: "next tuesday" is not an ISO 8601 date
    }
    // end doc-example

    // doc-example: Sources/EntitlementKit/Documentation.docc/GettingStarted.md
    let premium = snapshot["premium"]?.isActive == true       // one entitlement
    let unlocked = snapshot.active.map(\.id)                  // everything unlocked now, sorted
    let anything = snapshot.hasActiveEntitlement              // anything at all
    let fromProduct = snapshot.entitlements(forProduct: "pro_monthly")
    let renewal = snapshot["premium"]?.renewState             // .willRenew, .cancelled, .billingIssue, …
    // end doc-example
    _ = (premium, unlocked, anything, fromProduct, renewal)

    // doc-example: Sources/EntitlementKit/Documentation.docc/GettingStarted.md
    let stored = snapshot.canonicalJSONData()
    // … later, offline …
    let cached = try EntitlementSnapshot(json: stored).evaluated(by: SystemClock())
    // end doc-example
    _ = cached
}

func cliGuideShadowExample(
    revenueCat: any EntitlementProvider, qonversion: any EntitlementProvider, appUserId: String
) async throws {
    // doc-example: docs/CLI.md
    // revenueCat, qonversion: any two `EntitlementProvider`s (live providers, or the test kit's simulated one)
    let primary = try await revenueCat.snapshot(for: appUserId)   // decides access
    let shadow = try await qonversion.snapshot(for: appUserId)    // only observed
    let diff = SnapshotDiff(primary, shadow.evaluated(at: primary.evaluatedAt), options: .init(expiryTolerance: 60))
    if diff.hasAccessDifferences {
        print("shadow backend disagrees on access: \(diff.accessDifferences)")
    }
    // end doc-example
}

// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitRevenueCat
import Foundation

// The README's Swift examples, verbatim between the markers (DocumentedExamplesTests compares them). The
// functions' parameters stand for what each example assumes the app already has.

func readmeQuickStart(body: Data, unlockPro: () -> Void) throws {
    // doc-example: README.md
    // body: the backend's response bytes — here the bundled Fixtures/revenuecat/active-monthly.json.
    // An app judges access at `.now`; a fixed instant makes this example print the same on any day.
    let instant = RFC3339.date(from: "2025-09-15T10:00:00Z") ?? .now
    let snapshot = try RevenueCatAdapter().snapshot(from: body, at: instant)   // or QonversionAdapter()

    if snapshot.isActive("pro") { unlockPro() }
    print(snapshot.activeEntitlementIds)               // ["pro"]
    print(snapshot["pro"]?.renewState ?? .unknown)     // willRenew (or cancelled, billingIssue, …)

    let cached = snapshot.canonicalJSONData()           // store it; later, offline:
    let later = try EntitlementSnapshot(json: cached).evaluated(by: SystemClock())
    // end doc-example
    _ = later
}

func readmeRuntimeClient(
    appGroupFolder: URL, provider: any EntitlementProvider, unlockPremium: () -> Void,
    showBanner: (EntitlementClientError.Code) -> Void, render: ([String]) -> Void
) async throws {
    // doc-example: README.md
    let cache = try DirectoryEntitlementCache(directory: appGroupFolder)   // one file per customer
    let client = try await EntitlementClient(provider: provider, cache: cache)
    let check = await client.checkEntitlements()        // .cachedOrFetched; also .fetchCurrent,
    if check.isActive("premium") { unlockPremium() }     // .notStaleCachedOrFetched, .fromCacheOnly
    if let error = check.error { showBanner(error.code) } // failure is an answer: the cache may still answer
    for await snapshot in client.updates() { render(snapshot.activeEntitlementIds) }  // now, then on change
    // end doc-example
}

func readmeCustomerInfo(body: Data) throws {
    // doc-example: README.md
    let info = try RevenueCatAdapter().customerInfo(from: body, at: .now)
    let hasPro = info.snapshot["pro"]?.isActive == true             // entitlement access
    let products = info.activeSubscriptions                          // ["gold:monthly"]: Google base plans keyed product:plan
    let renewsOn = info.expirationDate(forProduct: "gold:monthly")
    // end doc-example
    _ = (hasPro, products, renewsOn)
}

func readmeShadowDiff(primary: EntitlementSnapshot, shadow: EntitlementSnapshot, report: (SnapshotDiff) -> Void) {
    // doc-example: README.md
    let diff = SnapshotDiff(primary, shadow, options: .init(expiryTolerance: 60))
    if !diff.accessDifferences.isEmpty { report(diff) }
    // end doc-example
}

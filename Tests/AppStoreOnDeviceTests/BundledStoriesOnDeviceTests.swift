import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

/// The bundled stories through `AppStoreOnDeviceProvider` (`scenario --provider appstore`): those that make
/// sense without a server hold, every JWS verified; every other story is listed with why it does not apply.
@Suite("Bundled stories on the device (appstore)", .timeLimit(.minutes(5)))
struct BundledStoriesOnDeviceTests {
    /// Stories that need no server: they hold on the device as they do on every backend.
    static let applicable = [
        "billing-issue-grace-recovered.json", "clock-rollback.json", "login-current-id-answers-from-cache.json",
    ]

    /// Why each other story does not apply on the device.
    static let notApplicable: [String: String] = [
        "billing-issue-grace-lapsed.json": lapsedFields,
        "cancel-then-billing-issue.json": lookup,
        "cancel-then-expire.json": lapsedFields + "; " + lookup,
        "fetch-policies.json": anotherAccount,
        "fresh-for-a-calendar-month.json": anotherAccount,
        "fresh-window.json": anotherAccount,
        "identity-errors.json": aliases,
        "lifetime.json": aliases + "; " + lapsedFields,
        "login-anonymous-to-id-with-anonymous-alias.json": aliases,
        "login-anonymous-to-known-id.json": aliases,
        "login-anonymous-to-new-id.json": aliases,
        "login-identified-switches-without-alias.json": aliases,
        "non-renewing-only-an-account-restores.json":
            "a direct purchase belongs to the customer who bought it on a server; on the device it is the Apple account's",
        "offline-expiry.json": lapsedFields,
        "offline-purchase-and-empty-receipt.json": transfers,
        "play-transfer-at-configure.json": "Google Play's transfer at configure",
        "refund-mid-period.json":
            "RevenueCat's refund rule (access through the refund instant); Apple's refunded transaction grants nothing at once and StoreKit stops listing it",
        "restore-keep-with-original-app-user-id.json": transfers,
        "restore-share-between-app-user-ids.json": transfers,
        "restore-transfer-if-no-active-subscriptions.json": transfers,
        "restore-transfer-to-new-app-user-id.json": transfers,
        "trial-to-paid.json": lapsedFields,
    ]
    static let aliases = "aliases, created customers and lookup are a server's (no backend to alias ids)"
    static let transfers =
        "receipt transfers and restore behaviours are a server's: every app user on the device sees the Apple account's purchases"
    static let lookup = "lookup asks a server"
    static let anotherAccount =
        "a purchase on another device with another Apple account reaches the customer only through a server"
    static let lapsedFields =
        "expects the renew state or expiry of a lapsed or refunded entitlement: StoreKit's current entitlements no longer list it"

    static let files: [URL] = (try? BundledScenarios.files()) ?? []

    @Test("every bundled story is either run on the device or listed with why it does not apply")
    func everyStoryIsClassified() {
        let names = Set(Self.files.map(\.lastPathComponent))
        #expect(!names.isEmpty)
        #expect(names == Set(Self.applicable).union(Self.notApplicable.keys))
        #expect(Set(Self.applicable).isDisjoint(with: Self.notApplicable.keys))
    }

    @Test(arguments: applicable)
    func holdsOnTheDevice(story: String) async throws {
        let file = try #require(Self.files.first { $0.lastPathComponent == story })
        let reports = try await ScenarioRunner.run(contentsOf: file, providers: [.appStore])
        #expect(reports.map(\.provider) == [.appStore])
        for report in reports { #expect(report.passed, "\(report)") }
    }
}

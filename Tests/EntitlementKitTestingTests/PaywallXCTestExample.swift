// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitTesting
import Foundation
import XCTest

/// The "From XCTest" example of the *Testing your paywall logic* article, verbatim between the markers, in
/// an XCTest case as an app's XCTest target would hold it (runs under `swift test` without
/// `--disable-xctest`).
final class PaywallXCTestExample: XCTestCase {
    let url = Bundle.module.url(forResource: "paywall", withExtension: "json", subdirectory: "Stories")!

    // doc-example: Sources/EntitlementKitTesting/EntitlementKitTesting.docc/TestingYourPaywallLogic.md
    func testPaywall() async throws {
        let report = await ScenarioRunner.run(try Scenario(contentsOf: url), provider: .revenueCat, file: "paywall.json")
        XCTAssertTrue(report.passed, report.description)
    }
    // end doc-example
}

// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitAdapty
import Foundation
import Testing

// The module's DocC example, verbatim between the markers, compiled and run on a fixture.

func adaptyModuleExample(profileBody: Data, unlockPremium: () -> Void) throws {
    // doc-example: Adapters/Adapty/EntitlementKitAdapty.docc/EntitlementKitAdapty.md
    let snapshot = try AdaptyAdapter().snapshot(from: profileBody, at: .now)
    if snapshot["premium"]?.isActive == true {
        unlockPremium()
    }
    // end doc-example
}

@Suite("Adapty documentation examples", .timeLimit(.minutes(5)))
struct AdaptyDocumentationExampleTests {
    @Test func theModuleExampleReadsAProfile() throws {
        let body = Data(
            #"{"profile_id": "p", "paid_access_levels": {"premium": {"is_active": true, "vendor_product_id": "lifetime"}}}"#.utf8)
        var unlocked = false
        try adaptyModuleExample(profileBody: body) { unlocked = true }
        #expect(unlocked)
    }
}

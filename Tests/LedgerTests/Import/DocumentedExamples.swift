// swift-format-ignore-file
// (the examples are kept exactly as the documents show them)
import EntitlementKit
import EntitlementKitLedger
import Foundation

// The Swift examples of the article "Moving your customers from a vendor", verbatim between the markers.

func movingCustomersServeExample(
    ownBackend: any EntitlementProvider, vendor: any EntitlementProvider, cache: any EntitlementCache
) async throws {
    // doc-example: Sources/EntitlementKitLedger/Documentation.docc/MovingYourCustomersFromAVendor.md
    // ownBackend: OwnBackendProvider for your server; vendor: the vendor's live provider
    let provider = MigratingProvider(serving: ownBackend, shadow: vendor, policy: .eitherGrants)
    let client = try await EntitlementClient(provider: provider, cache: cache)
    // end doc-example
    _ = client
}

func movingCustomersPlanExample(planText: String) throws {
    // doc-example: Sources/EntitlementKitLedger/Documentation.docc/MovingYourCustomersFromAVendor.md
    for (index, line) in planText.split(separator: "\n").enumerated() {
        let customer = try ImportPlanCustomer(jsonLine: Data(line.utf8), line: index + 1)
        print(customer.appUserIds[0], customer.purchases.map(\.reference.store))
    }
    // end doc-example
}

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

func movingCustomersAssignExample(
    ledger: EntitlementLedger, originalTransactionId: String, historyResponse: Data, anonymousId: String
) async throws {
    // doc-example: Sources/EntitlementKitLedger/Documentation.docc/MovingYourCustomersFromAVendor.md
    let purchase = LedgerThreadID(source: .appStore, key: originalTransactionId)
    let document = LedgerDocument(source: .appStore, body: historyResponse, receivedAt: .now)
    switch try await ledger.assign(purchase, to: ["u123", anonymousId], document: document, receivedAt: .now) {
    case .ownedByOther(let owner): print("already \(owner)'s: left as it is")
    default: break    // assigned (or assigned before: assigning again changes nothing)
    }
    // end doc-example
}

func assignDocComment(ledger: EntitlementLedger, history: LedgerDocument, anonymousId: String) async throws {
    // The example of assign's documentation comment.
    let purchase = LedgerThreadID(source: .appStore, key: "2000000123")
    let outcome = try await ledger.assign(purchase, to: ["u123", anonymousId], document: history, receivedAt: .now)
    _ = outcome
}

func backfillDocComment(ledger: EntitlementLedger, documentsFolder: URL, planFile: FileHandle) async throws {
    // The example of ImportBackfill's documentation comment.
    let backfill = ImportBackfill(ledger: ledger, documents: documentsFolder, receivedAt: .now)
    let summary = try await backfill.run(plan: ImportByteSource(handle: planFile)) { result in
        print(result.jsonValue.compactText)
    }
    _ = summary
}

import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// A document's App Store items carry their environment: a `Sandbox` transaction the app posts never
/// grants production access (the transactions are signed by the test kit's throwaway chain).
@Suite("App Store documents and their environment", .timeLimit(.minutes(2)))
struct AppStoreDocumentEnvironmentTests {
    static let bundleId = "com.acme.trails"

    static func transaction(environment: String) -> JSONValue {
        .object([
            "transactionId": .string("3000000000000001"), "originalTransactionId": .string("3000000000000001"),
            "bundleId": .string(bundleId), "productId": .string("com.acme.trails.pro.monthly"),
            "purchaseDate": .integer(1_735_689_600_000), "originalPurchaseDate": .integer(1_735_689_600_000),
            "expiresDate": .integer(1_738_368_000_000), "signedDate": .integer(1_735_689_600_000),
            "type": .string("Auto-Renewable Subscription"), "inAppOwnershipType": .string("PURCHASED"),
            "environment": .string(environment), "quantity": .integer(1),
        ])
    }

    static func posted(_ environment: String, signer: AppStoreTestSigner) -> LedgerDocument {
        let body = JSONValue.array([.string(signer.sign(transaction(environment: environment)))])
        return LedgerDocument(
            source: .appStore, body: Data(body.compactText.utf8), appUserId: "alice",
            receivedAt: midnight("2025-01-02"))
    }

    @Test func aSandboxTransactionPostedByTheAppIsRefusedAndStoresNothing() async throws {
        let signer = try AppStoreTestSigner()
        let source = AppStoreLedgerSource(
            catalog: SignedNotifications.catalog, bundleId: Self.bundleId, rootCertificates: [signer.rootCertificate])
        let ledger = EntitlementLedger(sources: [source])
        do {
            let outcome = try await ledger.apply(Self.posted("Sandbox", signer: signer))
            Issue.record("a sandbox transaction was answered \(outcome)")
        } catch {
            #expect(error.kind == .environment)
        }
        #expect(try await ledger.customers().isEmpty)
        #expect(try await ledger.apply(Self.posted("Production", signer: signer)) == .applied(customers: ["alice"]))
        let snapshot = try await ledger.snapshot(for: "alice", at: midnight("2025-01-15"))
        #expect(snapshot.isActive("pro") && snapshot.verification == .verified)
    }
}

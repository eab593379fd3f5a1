import EntitlementKit
import Foundation
import Testing

/// Schema 2 is written; schema 1 documents (old cache files, golden files, exports) still read.
@Suite("Unified schema versions", .timeLimit(.minutes(5)))
struct SchemaVersionTests {
    /// A schema 1 snapshot as wave 2 wrote it: no `verification`, no cancellation reason.
    static let versionOne = #"""
        {"activeEntitlementIds":["pro"],"appUserId":"alice","entitlements":{"pro":{"billingIssueDetectedAt":null,\#
        "expirationDate":"2025-07-01T00:00:00Z","firstPurchaseDate":null,"gracePeriodExpirationDate":null,\#
        "grantType":"purchase","id":"pro","isActive":true,"isSandbox":false,"lastActivatedOfferCode":null,\#
        "latestPurchaseDate":null,"originalPurchaseDate":null,"ownershipType":"purchased","periodType":"normal",\#
        "productId":"pro_monthly","productPlanId":null,"refundedAt":null,"renewState":"willRenew",\#
        "renewsCount":null,"store":"appStore","storeRaw":"app_store","transactions":[],"trialStartDate":null,\#
        "unsubscribeDetectedAt":null,"willRenew":true}},"evaluatedAt":"2025-06-01T00:00:00Z","firstSeen":null,\#
        "managementUrl":null,"nonSubscriptionTransactions":[],"originalAppUserId":null,\#
        "originalApplicationVersion":null,"originalPurchaseDate":null,"provider":"revenuecat",\#
        "requestDate":"2025-06-01T00:00:00Z","schemaVersion":1}
        """#

    @Test func aVersionOneDocumentReadsWithTheNewKeysAtTheirDefaults() throws {
        let snapshot = try EntitlementSnapshot(json: Data(Self.versionOne.utf8))
        #expect(snapshot.verification == .notRequested)
        #expect(snapshot["pro"]?.cancellationReason == nil)
        #expect(snapshot["pro"]?.cancellationReasonRaw == nil)
        #expect(snapshot.isActive("pro"))
        // Written back, it is schema 2 with every key.
        let written = try JSONValue.parse(snapshot.canonicalJSONData())
        #expect(written["schemaVersion"] == .integer(2))
        #expect(written["verification"] == .string("notRequested"))
        #expect(written["entitlements"]?["pro"]?["cancellationReason"] == .null)
        #expect(written["entitlements"]?["pro"]?["cancellationReasonRaw"] == .null)
    }

    @Test func aVersionOneDocumentWithASchemaTwoKeyIsAMixUpNotAccess() throws {
        let withVerification = Self.versionOne.replacingOccurrences(
            of: #""schemaVersion":1"#, with: #""schemaVersion":1,"verification":"verified""#)
        #expect(throws: DocumentError.self) { try EntitlementSnapshot(json: Data(withVerification.utf8)) }
        let withReason = Self.versionOne.replacingOccurrences(
            of: #""billingIssueDetectedAt":null,"#, with: #""billingIssueDetectedAt":null,"cancellationReason":null,"#)
        do {
            _ = try EntitlementSnapshot(json: Data(withReason.utf8))
            Issue.record("a schema 1 entitlement with a schema 2 key was read")
        } catch {
            #expect(error.kind == .inconsistent)
            #expect(error.path.description == "entitlements.pro.cancellationReason")
        }
    }

    @Test func reasonsAndVerificationSurviveARoundTrip() throws {
        let at = try #require(RFC3339.date(from: "2025-06-01T00:00:00Z"))
        let snapshot = EntitlementSnapshot(
            provider: .appStore, evaluatedAt: at, verification: .verified,
            entitlements: [
                Entitlement(id: "pro", cancellationReason: .billingError, cancellationReasonRaw: "2", at: at),
                Entitlement(
                    id: "plus", cancellationReason: CancellationReason(rawValue: "somethingNew"),
                    cancellationReasonRaw: "brand_new", at: at),
            ])
        let read = try EntitlementSnapshot(json: snapshot.canonicalJSONData())
        #expect(read.verification == .verified)
        #expect(read["pro"]?.cancellationReason == .billingError)
        #expect(read["pro"]?.cancellationReasonRaw == "2")
        #expect(read["plus"]?.cancellationReason == .unknown, "a reason this version does not know reads as unknown")
        #expect(read["plus"]?.cancellationReasonRaw == "brand_new", "and the backend's spelling is kept")
    }

    @Test func anEmptyRawReasonIsNull() throws {
        let at = Date(timeIntervalSince1970: 0)
        let entitlement = Entitlement(id: "e", cancellationReason: .unknown, cancellationReasonRaw: "", at: at)
        #expect(entitlement.cancellationReasonRaw == nil)
    }

    @Test func everyReasonHasItsSchemaSpelling() {
        #expect(
            CancellationReason.knownValues.map(\.rawValue) == [
                "customerCancelled", "billingError", "priceIncrease", "productUnavailable", "refunded", "upgraded",
                "developerCancelled", "replaced", "unknown",
            ])
        #expect(SnapshotVerification.allCases.map(\.rawValue) == ["verified", "notRequested"])
    }

    @Test func aCancellationReasonBothSidesStateIsComparedAndNullIsNot() {
        let at = Date(timeIntervalSince1970: 0)
        func snapshot(_ reason: CancellationReason?) -> EntitlementSnapshot {
            EntitlementSnapshot(
                provider: .adapty, evaluatedAt: at,
                entitlements: [Entitlement(id: "pro", cancellationReason: reason, at: at)])
        }
        let differs = SnapshotDiff(snapshot(.billingError), snapshot(.customerCancelled))
        #expect(differs.fieldDifferences.map(\.field) == [.cancellationReason])
        #expect(SnapshotDiff(snapshot(nil), snapshot(.refunded)).fieldDifferences.isEmpty)
        #expect(SnapshotDiff(snapshot(.unknown), snapshot(.refunded)).fieldDifferences.isEmpty)
    }
}

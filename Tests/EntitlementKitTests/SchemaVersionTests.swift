import EntitlementKit
import Foundation
import Testing

/// Schema 3 is written; schema 1 and 2 documents (old cache files, golden files, exports) still read.
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
        #expect(snapshot["pro"]?.denial == nil)
        // Written back, it is schema 3 with every key.
        let written = try JSONValue.parse(snapshot.canonicalJSONData())
        #expect(written["schemaVersion"] == .integer(3))
        #expect(written["entitlements"]?["pro"]?["denial"] == .null)
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

    // MARK: Schema 3: the denial

    /// ``versionOne`` as schema 2 wrote it, with `pro` set to `isActive` and `expirationDate`.
    static func versionTwo(isActive: Bool, expires: String?, version: Int = 2) -> String {
        versionOne
            .replacingOccurrences(
                of: #""schemaVersion":1"#, with: #""schemaVersion":\#(version),"verification":"notRequested""#
            )
            .replacingOccurrences(
                of: #""billingIssueDetectedAt":null,"#,
                with: #""billingIssueDetectedAt":null,"cancellationReason":null,"cancellationReasonRaw":null,"#
            )
            .replacingOccurrences(of: #""isActive":true"#, with: #""isActive":\#(isActive)"#)
            .replacingOccurrences(
                of: #""expirationDate":"2025-07-01T00:00:00Z""#,
                with: #""expirationDate":\#(expires.map { "\"\($0)\"" } ?? "null")"#
            )
            .replacingOccurrences(
                of: #""activeEntitlementIds":["pro"]"#,
                with: #""activeEntitlementIds":\#(isActive ? #"["pro"]"# : "[]")"#)
    }

    @Test func aSchemaTwoDocumentReadsItsMissingDenialFromIsActive() throws {
        // Inactive with the expiry still ahead (2025-07-01, evaluated 2025-06-01): only a vendor flag can
        // have said so, and the document does not say why.
        let ahead = try EntitlementSnapshot(
            json: Data(Self.versionTwo(isActive: false, expires: "2025-07-01T00:00:00Z").utf8))
        #expect(ahead["pro"]?.denial == Denial(.unknown))
        #expect(ahead["pro"]?.accessReason == .denied(.unknown, raw: nil))
        // Inactive and lifetime: the same.
        let lifetime = try EntitlementSnapshot(json: Data(Self.versionTwo(isActive: false, expires: nil).utf8))
        #expect(lifetime["pro"]?.denial == Denial(.unknown))
        // Inactive after the expiry: the date explains it, no denial.
        let past = try EntitlementSnapshot(
            json: Data(Self.versionTwo(isActive: false, expires: "2025-05-01T00:00:00Z").utf8))
        #expect(past["pro"]?.denial == nil)
        #expect(past["pro"]?.accessReason == .expired(at: try #require(RFC3339.date(from: "2025-05-01T00:00:00Z"))))
        // Active: no denial.
        let active = try EntitlementSnapshot(
            json: Data(Self.versionTwo(isActive: true, expires: "2025-07-01T00:00:00Z").utf8))
        #expect(active["pro"]?.denial == nil)
        // Written back as schema 3, the inferred denial is stated.
        let written = try JSONValue.parse(ahead.canonicalJSONData())
        #expect(written["entitlements"]?["pro"]?["denial"] == .object(["code": .string("unknown"), "raw": .null]))
    }

    @Test func aSchemaOneDocumentReadsItsMissingDenialFromIsActive() throws {
        let inactive = Self.versionOne
            .replacingOccurrences(of: #""isActive":true"#, with: #""isActive":false"#)
            .replacingOccurrences(of: #""activeEntitlementIds":["pro"]"#, with: #""activeEntitlementIds":[]"#)
        let snapshot = try EntitlementSnapshot(json: Data(inactive.utf8))
        #expect(snapshot["pro"]?.denial == Denial(.unknown))
        #expect(!snapshot.evaluated(at: .distantPast).isActive("pro"))
    }

    @Test func aDenialKeyInASchemaTwoDocumentIsAMixUp() throws {
        let mixed = Self.versionTwo(isActive: true, expires: "2025-07-01T00:00:00Z")
            .replacingOccurrences(
                of: #""billingIssueDetectedAt":null,"#, with: #""billingIssueDetectedAt":null,"denial":null,"#)
        do {
            _ = try EntitlementSnapshot(json: Data(mixed.utf8))
            Issue.record("a schema 2 entitlement with a schema 3 key was read")
        } catch {
            #expect(error.kind == .inconsistent)
            #expect(error.path.description == "entitlements.pro.denial")
            #expect(error.description.contains("is a schema 3 key in a schemaVersion 2 document"))
        }
    }

    @Test func aSchemaThreeDocumentMustStateItsDenial() throws {
        let missing = Self.versionTwo(isActive: true, expires: "2025-07-01T00:00:00Z", version: 3)
        do {
            _ = try EntitlementSnapshot(json: Data(missing.utf8))
            Issue.record("a schema 3 entitlement without denial was read")
        } catch {
            #expect(error.kind == .missingField)
            #expect(error.path.description == "entitlements.pro.denial")
        }
    }

    @Test func aSchemaThreeDocumentWhoseIsActiveContradictsItsDenialIsRefused() throws {
        func document(isActive: Bool, denial: String) -> Data {
            Data(
                Self.versionTwo(isActive: isActive, expires: "2025-07-01T00:00:00Z", version: 3)
                    .replacingOccurrences(
                        of: #""billingIssueDetectedAt":null,"#,
                        with: #""billingIssueDetectedAt":null,"denial":\#(denial),"#
                    )
                    .utf8)
        }
        // Active although denied.
        #expect(throws: DocumentError.self) {
            try EntitlementSnapshot(json: document(isActive: true, denial: #"{"code":"refunded","raw":null}"#))
        }
        // Inactive with the expiry ahead and no denial: nothing explains it.
        #expect(throws: DocumentError.self) { try EntitlementSnapshot(json: document(isActive: false, denial: "null")) }
        // Consistent both ways.
        let denied = try EntitlementSnapshot(
            json: document(isActive: false, denial: #"{"code":"storeState","raw":"SUBSCRIPTION_STATE_ON_HOLD"}"#))
        #expect(denied["pro"]?.denial == Denial(.storeState, raw: "SUBSCRIPTION_STATE_ON_HOLD"))
        #expect(try EntitlementSnapshot(json: document(isActive: true, denial: "null"))["pro"]?.denial == nil)
    }

    @Test func aDenialCodeThisVersionDoesNotListStillDeniesAndIsWrittenAsUnknown() throws {
        let data = Data(
            Self.versionTwo(isActive: false, expires: "2025-07-01T00:00:00Z", version: 3)
                .replacingOccurrences(
                    of: #""billingIssueDetectedAt":null,"#,
                    with: #""billingIssueDetectedAt":null,"denial":{"code":"frozen","raw":"F1"},"#
                )
                .utf8)
        let snapshot = try EntitlementSnapshot(json: data)
        #expect(snapshot["pro"]?.denial?.code.rawValue == "frozen")
        #expect(snapshot["pro"]?.denial?.code.isKnown == false)
        #expect(!snapshot.isActive("pro"))
        let written = try JSONValue.parse(snapshot.canonicalJSONData())
        #expect(
            written["entitlements"]?["pro"]?["denial"] == .object(["code": .string("unknown"), "raw": .string("F1")]))
    }

    @Test func everyDenialCodeHasItsSchemaSpelling() {
        #expect(
            Denial.Code.knownValues.map(\.rawValue) == [
                "refunded", "revoked", "upgraded", "storeState", "notPaid", "vendorInactive", "unknown",
            ])
        #expect(Denial(.refunded, raw: "").raw == nil, "an empty raw value is none")
    }
}

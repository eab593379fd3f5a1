import EntitlementKit
import Foundation
import TestSupport
import Testing

@Suite("SnapshotDiff: access first, then fields", .timeLimit(.minutes(5)))
struct SnapshotDiffTests {
    /// Small snapshots built by hand (kept in this file: the directory's shared support belongs to the model tests).
    enum T {
        /// The instant most tests evaluate at.
        static let now = instant("2025-06-01T12:00:00Z")

        static func entitlement(
            _ id: String,
            expires: String? = "2025-07-01T00:00:00Z",
            productId: String? = "com.example.monthly",
            renewState: RenewState = .willRenew,
            periodType: PeriodType = .normal,
            store: Store = .appStore,
            isSandbox: Bool = false,
            grantType: GrantType = .purchase,
            ownershipType: OwnershipType = .purchased,
            denial: Denial? = nil,
            at instant: Date = now
        ) -> Entitlement {
            Entitlement(
                id: id, productId: productId, renewState: renewState, periodType: periodType, store: store,
                isSandbox: isSandbox, grantType: grantType, ownershipType: ownershipType,
                expirationDate: expires.map(TestSupport.instant), denial: denial, at: instant
            )
        }

        static func snapshot(
            _ appUserId: String?, provider: ProviderID = ProviderID(rawValue: "test"), _ entitlements: [Entitlement],
            at instant: Date = now
        ) -> EntitlementSnapshot {
            EntitlementSnapshot(
                provider: provider, appUserId: appUserId, evaluatedAt: instant, entitlements: entitlements)
        }
    }

    @Test func identicalSnapshotsHaveNoDifferences() {
        let a = T.snapshot(
            "alice", [T.entitlement("premium"), T.entitlement("lifetime", expires: nil, renewState: .nonRenewable)])
        let diff = SnapshotDiff(a, a)
        #expect(diff.isEmpty)
        #expect(!diff.hasAccessDifferences)
        #expect(diff.jsonValue.compactText == #"{"accessDifferences":[],"fieldDifferences":[]}"#)
    }

    @Test func anEntitlementActiveOnOneSideIsAnAccessDifferenceAndItsExpiryAFieldDifference() {
        let a = T.snapshot("alice", [T.entitlement("premium", expires: "2025-07-01T00:00:00Z")])
        let b = T.snapshot("alice", [T.entitlement("premium", expires: "2025-05-01T00:00:00Z")])
        let diff = SnapshotDiff(a, b)
        #expect(
            diff.accessDifferences == [
                AccessDifference(
                    entitlementId: "premium", activeInA: true, activeInB: false,
                    reasonInA: .activeUntil(instant("2025-07-01T00:00:00Z")),
                    reasonInB: .expired(at: instant("2025-05-01T00:00:00Z")))
            ])
        #expect(
            diff.fieldDifferences == [
                FieldDifference(
                    entitlementId: "premium", field: .expirationDate,
                    a: .string("2025-07-01T00:00:00Z"), b: .string("2025-05-01T00:00:00Z"))
            ])
    }

    @Test func anActiveEntitlementMissingOnOneSideIsOnlyAnAccessDifference() {
        let a = T.snapshot("alice", [T.entitlement("premium")])
        let b = T.snapshot("alice", [])
        #expect(
            SnapshotDiff(a, b)
                == SnapshotDiff(
                    accessDifferences: [
                        AccessDifference(
                            entitlementId: "premium", activeInA: true, activeInB: false,
                            reasonInA: .activeUntil(instant("2025-07-01T00:00:00Z")), reasonInB: nil)
                    ]))
        #expect(
            SnapshotDiff(b, a)
                == SnapshotDiff(
                    accessDifferences: [
                        AccessDifference(
                            entitlementId: "premium", activeInA: false, activeInB: true, reasonInA: nil,
                            reasonInB: .activeUntil(instant("2025-07-01T00:00:00Z")))
                    ]))
    }

    @Test func anInactiveEntitlementMissingOnOneSideIsThePresentFieldDifference() {
        let a = T.snapshot("alice", [])
        let b = T.snapshot("alice", [T.entitlement("old", expires: "2024-01-01T00:00:00Z")])
        let diff = SnapshotDiff(a, b)
        #expect(diff.accessDifferences.isEmpty)
        #expect(
            diff.fieldDifferences == [
                FieldDifference(entitlementId: "old", field: .present, a: .bool(false), b: .bool(true))
            ])
    }

    @Test(arguments: [
        (0.0, true), (29.999, true), (30.0, false), (3600.0, false),
    ])
    func expiryToleranceIsInclusive(tolerance: Double, differs: Bool) {
        let a = T.snapshot("bob", [T.entitlement("premium", expires: "2025-07-01T00:00:00Z")])
        let b = T.snapshot("bob", [T.entitlement("premium", expires: "2025-07-01T00:00:30Z")])
        let diff = SnapshotDiff(a, b, options: .init(expiryTolerance: tolerance))
        #expect(diff.accessDifferences.isEmpty)
        #expect(!diff.fieldDifferences.isEmpty == differs)
    }

    @Test func lifetimeAgainstAnExpiryIsADifferenceWhateverTheTolerance() {
        let a = T.snapshot("carol", [T.entitlement("premium", expires: nil)])
        let b = T.snapshot("carol", [T.entitlement("premium", expires: "2025-07-01T00:00:00Z")])
        let diff = SnapshotDiff(a, b, options: .init(expiryTolerance: 1e12))
        #expect(
            diff.fieldDifferences == [
                FieldDifference(
                    entitlementId: "premium", field: .expirationDate, a: .null, b: .string("2025-07-01T00:00:00Z"))
            ])
    }

    @Test func valuesOneSideDoesNotStateAreNotCompared() {
        let a = T.snapshot(
            "dave",
            [
                T.entitlement(
                    "premium", productId: "com.example.monthly", renewState: .willRenew,
                    periodType: .normal, store: .appStore, grantType: .purchase, ownershipType: .purchased)
            ])
        let b = T.snapshot(
            "dave",
            [
                T.entitlement(
                    "premium", productId: nil, renewState: .unknown, periodType: .unknown,
                    store: .unknown, grantType: .unknown, ownershipType: .unknown)
            ])
        #expect(SnapshotDiff(a, b).isEmpty)
        #expect(SnapshotDiff(b, a).isEmpty)
    }

    @Test func fieldDifferencesOfOneEntitlementFollowTheFieldOrder() {
        let a = T.snapshot(
            "erin",
            [
                T.entitlement(
                    "premium", productId: "monthly", renewState: .willRenew, store: .appStore,
                    isSandbox: false, grantType: .purchase, ownershipType: .purchased)
            ])
        let b = T.snapshot(
            "erin",
            [
                T.entitlement(
                    "premium", productId: "yearly", renewState: .cancelled, store: .playStore,
                    isSandbox: true, grantType: .familySharing, ownershipType: .familyShared)
            ])
        let diff = SnapshotDiff(a, b)
        #expect(
            diff.fieldDifferences.map(\.field.name) == [
                "renewState", "store", "productId", "isSandbox", "grantType", "ownershipType",
            ])
        #expect(diff.fieldDifferences[0].a == .string("willRenew"))
        #expect(diff.fieldDifferences[0].b == .string("cancelled"))
        #expect(diff.fieldDifferences[3].a == .bool(false))
        #expect(diff.fieldDifferences[3].b == .bool(true))
    }

    @Test func differencesAreSortedByEntitlementIdBytes() {
        let a = T.snapshot("frank", [T.entitlement("b"), T.entitlement("a"), T.entitlement("Z")])
        let b = T.snapshot("frank", [])
        #expect(SnapshotDiff(a, b).accessDifferences.map(\.entitlementId) == ["Z", "a", "b"])
    }

    @Test func ignoredFieldsAreNotCompared() {
        let a = T.snapshot("grace", [T.entitlement("premium", productId: "rc.monthly", store: .appStore)])
        let b = T.snapshot("grace", [T.entitlement("premium", productId: "qon.monthly", store: .playStore)])
        var options = SnapshotDiff.Options()
        options.fields.remove(.productId)
        #expect(SnapshotDiff(a, b, options: options).fieldDifferences.map(\.field) == [.store])
    }

    @Test func theJSONReportHasTheSpecifiedShape() {
        let a = T.snapshot("heidi", [T.entitlement("premium"), T.entitlement("pro", store: .appStore)])
        let b = T.snapshot("heidi", [T.entitlement("pro", store: .playStore)])
        let expected =
            #"{"accessDifferences":[{"activeInA":true,"activeInB":false,"entitlementId":"premium","#
            + #""reasonInA":{"code":"activeUntil","date":"2025-07-01T00:00:00Z"},"reasonInB":null}],"#
            + #""fieldDifferences":[{"a":"appStore","b":"playStore","entitlementId":"pro","field":"store"}]}"#
        #expect(SnapshotDiff(a, b).jsonValue.compactText == expected)
    }

    @Test func comparedFieldsAreFoundByName() {
        #expect(ComparedField(name: "expirationDate") == .expirationDate)
        #expect(ComparedField(name: "willRenew") == nil)
        #expect(
            ComparedField.all.map(\.name) == [
                "present", "renewState", "expirationDate", "store", "productId", "productPlanId", "periodType",
                "isSandbox",
                "grantType", "ownershipType", "cancellationReason",
            ])
    }

    @Test func aNameTypedByAPersonIgnoresCase() {
        #expect(ComparedField(named: "RENEWSTATE") == .renewState)
        #expect(ComparedField(named: "expirationdate") == .expirationDate)
        #expect(ComparedField(named: "Present") == .present)
        #expect(ComparedField(named: "willrenew") == nil)
        #expect(ComparedField(name: "renewstate") == nil, "the exact lookup stays exact")
    }

    @Test func differencesPrintReadably() {
        let a = T.snapshot("carol", [T.entitlement("premium", expires: "2025-07-05T08:00:00Z")])
        let b = T.snapshot("carol", [T.entitlement("premium", expires: "2025-05-05T08:00:00Z")])
        let diff = SnapshotDiff(a, b)
        #expect(
            "\(diff.accessDifferences)"
                == "[premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-05-05T08:00:00Z)]")
        #expect(
            "\(diff.fieldDifferences)"
                == #"[premium: expirationDate A "2025-07-05T08:00:00Z", B "2025-05-05T08:00:00Z"]"#)
        #expect(
            "\(AccessDifference(entitlementId: "gold", activeInA: false, activeInB: true))"
                == "gold: active in B, not in A")
        #expect(
            "\(FieldDifference(entitlementId: "gold", field: .expirationDate, a: .null, b: .string("2025-07-01T00:00:00Z")))"
                == #"gold: expirationDate A null, B "2025-07-01T00:00:00Z""#)
        #expect(
            "\(diff)" == """
                access differences: 1
                  premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-05-05T08:00:00Z)
                field differences: 1
                  premium: expirationDate A "2025-07-05T08:00:00Z", B "2025-05-05T08:00:00Z"
                """)
        // The same shape when nothing differs: both counts, always.
        #expect("\(SnapshotDiff(a, a))" == "access differences: 0\nfield differences: 0")
    }
}

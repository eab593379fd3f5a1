import EntitlementKit
import EntitlementKitMigration
import Foundation
import Testing

@Suite("Parity: joining two exports on appUserId", .timeLimit(.minutes(5)))
struct ParityTests {
    let decoder = SnapshotDecoder(adapters: [ToyAdapter()])

    func record(_ user: String?, _ entitlements: [(String, String?)]) -> String {
        let list = entitlements.map { id, expires in
            #"{"id": "\#(id)", "expires": \#(expires.map { "\"\($0)\"" } ?? "null")}"#
        }.joined(separator: ", ")
        let response = #"{"toy": {"entitlements": [\#(list)]}}"#
        guard let user else { return response }
        return #"{"appUserId": "\#(user)", "provider": "toy", "response": \#(response)}"#
    }

    func check(
        _ a: [String], _ b: [String], decoder: SnapshotDecoder? = nil, format: ProviderID? = nil,
        options: SnapshotDiff.Options = .init()
    ) throws -> (ParityCheck.Outcome, [String]) {
        var readerA = JSONLinesReader(data: Data(a.joined(separator: "\n").utf8))
        var readerB = JSONLinesReader(data: Data(b.joined(separator: "\n").utf8))
        var failures: [String] = []
        let outcome = try ParityCheck(
            decoder: decoder ?? self.decoder, format: format, at: TestValues.now, options: options
        ).run(
            a: &readerA, b: &readerB, processor: OrderedLineProcessor(jobs: 2, windowLineCount: 2),
            failed: { side, failure in failures.append("\(side.rawValue) \(failure)") })
        return (outcome, failures)
    }

    let july = "2025-07-01T00:00:00Z"

    @Test func everyCustomerIsCountedOnceAndEveryDifferenceListed() throws {
        let a = [
            record("carol", [("premium", july)]),
            record("alice", [("premium", july)]),
            record("bob", [("premium", july), ("pro", july)]),
            record("erin", [("old", "2024-01-01T00:00:00Z")]),
        ]
        let b = [
            record("alice", [("premium", july)]),
            record("frank", [("premium", nil)]),
            record("bob", [("premium", "2025-07-01T00:00:30Z"), ("pro", "2025-05-01T00:00:00Z")]),
            record("carol", []),
        ]
        let (outcome, failures) = try check(a, b)
        #expect(failures.isEmpty)
        #expect(outcome.isComplete)
        let report = outcome.report
        #expect(
            report.totals
                == ParityReport.Totals(
                    customersInA: 4, customersInB: 4, matched: 3, onlyInA: 1, onlyInB: 1,
                    withAccessDifferences: 2, withFieldDifferences: 1))
        #expect(report.onlyInA == ["erin"])
        #expect(report.onlyInB == ["frank"])
        #expect(
            report.accessDifferences.map { "\($0.appUserId) \($0.difference.entitlementId)" } == [
                "bob pro", "carol premium",
            ])
        #expect(
            report.fieldDifferences.map { "\($0.appUserId) \($0.difference.entitlementId) \($0.difference.field)" }
                == ["bob premium expirationDate", "bob pro expirationDate"])
        // frank has lifetime access on B only; erin's only entitlement has expired.
        #expect(report.oneSidedCustomersWithAccess == 1)
        #expect(report.hasAccessDifferences)
    }

    @Test func aToleranceAbsorbsSmallExpiryDrift() throws {
        let a = [record("bob", [("premium", july)])]
        let b = [record("bob", [("premium", "2025-07-01T00:00:30Z")])]
        let (outcome, _) = try check(a, b, options: .init(expiryTolerance: 30))
        #expect(outcome.report.totals.withFieldDifferences == 0)
        #expect(!outcome.report.hasAccessDifferences)
    }

    @Test func duplicatesAndUnjoinableRecordsAreReportedAndCountedNotDropped() throws {
        let a = [
            record("alice", [("premium", july)]),
            record(nil, [("premium", july)]),
            record("alice", []),
            "{not json",
        ]
        let b = [
            record("alice", [("premium", july)]),
            record("alice", [("premium", july)]),
        ]
        let (outcome, failures) = try check(a, b)
        #expect(
            failures == [
                "A line 2: appUserId: is required to join the two exports but missing (wrap the response in an envelope with an appUserId)",
                #"A line 3: appUserId: "alice" already appeared on line 1; a customer must appear once per file, so this record is not compared"#,
                "A line 4: $: unexpected 'n' where an object key was expected",
                #"B line 2: appUserId: "alice" already appeared on line 1; a customer must appear once per file, so this record is not compared"#,
            ])
        #expect(outcome.failuresInA == 3)
        #expect(outcome.failuresInB == 1)
        #expect(!outcome.isComplete)
        #expect(outcome.report.totals.customersInA == 1)
        #expect(outcome.report.totals.customersInB == 1)
        #expect(outcome.report.totals.matched == 1)
    }

    @Test func aFormatAppliesToBothExportsAndEnvelopesMustAgreeWithIt() throws {
        // Every object has the greedy format's shape too, so without a format nothing decodes.
        let greedy = SnapshotDecoder(adapters: [ToyAdapter(), GreedyAdapter()])
        let bare =
            #"{"appUserId": "alice", "response": {"toy": {"entitlements": [{"id": "premium", "expires": null}]}}}"#
        let (undetected, ambiguous) = try check([bare], [bare], decoder: greedy)
        #expect(ambiguous.count == 2)
        #expect(undetected.report.totals.matched == 0)

        let namedGreedy = #"{"appUserId": "bob", "provider": "greedy", "response": {}}"#
        let (outcome, failures) = try check(
            [bare, record("carol", [])], [bare, namedGreedy], decoder: greedy, format: ProviderID(rawValue: "toy"))
        #expect(failures == [#"B line 2: provider: "greedy" contradicts the requested format "toy""#])
        #expect(outcome.failuresInA == 0)
        #expect(outcome.failuresInB == 1)
        #expect(outcome.report.totals.matched == 1)
        #expect(outcome.report.onlyInA == ["carol"])
    }

    @Test func theJSONReportHasTheSpecifiedShapeWithCompleteSortedLists() throws {
        let a = [record("b", [("x", july), ("a", july)]), record("a", [("p", july)]), record("z", [])]
        let b = [record("b", []), record("a", [("p", "2025-08-01T00:00:00Z")]), record("y", [])]
        let (outcome, _) = try check(a, b)
        let expected = """
            {"accessDifferences":[\
            {"activeInA":true,"activeInB":false,"appUserId":"b","entitlementId":"a",\
            "reasonInA":{"code":"activeUntil","date":"2025-07-01T00:00:00Z"},"reasonInB":null},\
            {"activeInA":true,"activeInB":false,"appUserId":"b","entitlementId":"x",\
            "reasonInA":{"code":"activeUntil","date":"2025-07-01T00:00:00Z"},"reasonInB":null}],\
            "fieldDifferences":[{"a":"2025-07-01T00:00:00Z","appUserId":"a","b":"2025-08-01T00:00:00Z","entitlementId":"p","field":"expirationDate"}],\
            "onlyInA":["z"],"onlyInB":["y"],\
            "totals":{"customersInA":3,"customersInB":3,"matched":2,"onlyInA":1,"onlyInB":1,"withAccessDifferences":1,"withFieldDifferences":1}}
            """
        #expect(outcome.report.jsonValue.compactText == expected)
        #expect(outcome.report.oneSidedCustomersWithAccess == 0)
    }

    @Test func oneSidedCustomersWithoutAccessDoNotMakeAccessDiffer() throws {
        let (outcome, _) = try check(
            [record("a", []), record("gone", [("old", "2020-01-01T00:00:00Z")])], [record("a", [])])
        #expect(outcome.report.totals.onlyInA == 1)
        #expect(!outcome.report.hasAccessDifferences)
    }

    // "café" with a precomposed é, and "cafe" with a combining acute accent: Swift's `String` calls them
    // equal (canonical equivalence), a backend receives different bytes and keeps two customers.
    static let precomposed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// The ids as their bytes: `[String] ==` would call the two forms equal.
    static func bytes(_ ids: [String]) -> [[UInt8]] { ids.map { Array($0.utf8) } }

    @Test func canonicallyEquivalentIdsInAAndBAreTwoCustomers() throws {
        #expect(Self.precomposed == Self.decomposed, "the premise: String equality does not tell them apart")
        let (outcome, failures) = try check(
            [record(Self.precomposed, [("premium", july)])], [record(Self.decomposed, [("premium", july)])])
        #expect(failures.isEmpty)
        let report = outcome.report
        #expect(
            report.totals
                == ParityReport.Totals(
                    customersInA: 1, customersInB: 1, matched: 0, onlyInA: 1, onlyInB: 1,
                    withAccessDifferences: 0, withFieldDifferences: 0))
        #expect(Self.bytes(report.onlyInA) == Self.bytes([Self.precomposed]))
        #expect(Self.bytes(report.onlyInB) == Self.bytes([Self.decomposed]))
        // Each has access on one side only: access moves, so parity is not reached.
        #expect(report.oneSidedCustomersWithAccess == 2)
    }

    @Test func canonicallyEquivalentIdsInOneFileAreTwoCustomersNotADuplicate() throws {
        // Only the precomposed customer has access: joined to the wrong one, either side would differ.
        let both = [record(Self.precomposed, [("premium", july)]), record(Self.decomposed, [])]
        let (outcome, failures) = try check(both, both)
        #expect(failures.isEmpty)
        #expect(outcome.isComplete)
        #expect(
            outcome.report.totals
                == ParityReport.Totals(
                    customersInA: 2, customersInB: 2, matched: 2, onlyInA: 0, onlyInB: 0,
                    withAccessDifferences: 0, withFieldDifferences: 0))
        #expect(!outcome.report.hasAccessDifferences)
    }

    @Test func differencesOfCanonicallyEquivalentIdsAreListedByBytesNotInterleaved() throws {
        // Sorted by bytes, "cafe\u{301}" (65 CC 81) comes before "caf\u{E9}" (C3 A9), whatever the
        // entitlement ids: the two customers' entries stay apart.
        let a = [
            record(Self.precomposed, [("a", july), ("c", july)]), record(Self.decomposed, [("b", july)]),
        ]
        let b = [record(Self.precomposed, []), record(Self.decomposed, [])]
        let (outcome, failures) = try check(a, b)
        #expect(failures.isEmpty)
        let listed = outcome.report.accessDifferences.map { (Array($0.appUserId.utf8), $0.difference.entitlementId) }
        #expect(listed.map(\.0) == Self.bytes([Self.decomposed, Self.precomposed, Self.precomposed]))
        #expect(listed.map(\.1) == ["b", "a", "c"])
    }
}

import EntitlementKit
import Foundation
import Testing

/// `diff` and `parity` between a RevenueCat export and a Qonversion export of the same customers
/// (Fixtures/cross-provider, see its README): every planted difference is found and nothing else.
@Suite("entitlements diff and parity across RevenueCat and Qonversion", .timeLimit(.minutes(5)))
struct EndToEndCrossProviderTests {
    typealias Tool = EntitlementsTool

    static let at = ["--at", "2025-06-15T00:00:00Z"]
    static let exportA = Tool.crossProvider("customers.revenuecat.jsonl")
    static let exportB = Tool.crossProvider("customers.qonversion.jsonl")
    /// `diff`'s text when nothing differs: the same shape as with differences, both counts zero.
    static let noDifferences = "evaluated at 2025-06-15T00:00:00Z\naccess differences: 0\nfield differences: 0\n"

    // MARK: diff

    @Test func diffFindsCarolsLostRenewalAsAnAccessDifference() async throws {
        let a = Tool.crossProvider("carol.revenuecat.json")
        let b = Tool.crossProvider("carol.qonversion.json")
        let text = try await Tool.run(["diff"] + Self.at + [a, b])
        #expect(text.status == 1)
        #expect(text.stderr.isEmpty)
        #expect(
            text.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                access differences: 1
                  premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-06-05T08:00:00Z)
                field differences: 1
                  premium: expirationDate A "2025-07-05T08:00:00Z", B "2025-06-05T08:00:00Z"

                """)
        let json = try await Tool.run(["diff", "--json"] + Self.at + [a, b])
        #expect(json.status == 1)
        #expect(json.stdout == (try Tool.repositoryFile(Tool.crossProvider("carol.diff.expected.json"))))

        // Thirty days of tolerance absorb the expiry; the access difference stays.
        let tolerant = try await Tool.run(["diff", "--expiry-tolerance", "2592000"] + Self.at + [a, b])
        #expect(tolerant.status == 1)
        #expect(
            tolerant.stdout
                == "evaluated at 2025-06-15T00:00:00Z\naccess differences: 1\n  premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-06-05T08:00:00Z)\nfield differences: 0\n"
        )
    }

    @Test func diffOfHeidiFindsOnlyFieldDifferencesAndExitsZero() async throws {
        let a = Tool.crossProvider("heidi.revenuecat.json")
        let b = Tool.crossProvider("heidi.qonversion.json")
        let text = try await Tool.run(["diff"] + Self.at + [a, b])
        #expect(text.status == 0)
        #expect(
            text.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                access differences: 0
                field differences: 2
                  premium: store A "playStore", B "appStore"
                  pro: present A true, B false

                """)
        let json = try await Tool.run(["diff", "--json"] + Self.at + [a, b])
        #expect(json.status == 0)
        #expect(json.stdout == (try Tool.repositoryFile(Tool.crossProvider("heidi.diff.expected.json"))))

        let ignoring = try await Tool.run(
            ["diff", "--ignore-field", "store", "--ignore-field", "present"] + Self.at + [a, b])
        #expect(ignoring.status == 0)
        #expect(ignoring.stdout == Self.noDifferences)
    }

    @Test func diffReadsEitherSideFromStandardInputAndAnyFormat() async throws {
        let document = try Data(
            contentsOf: Tool.packageRoot.appendingPathComponent(Tool.crossProvider("heidi.revenuecat.json")))
        let same = try await Tool.run(
            ["diff"] + Self.at + ["-", Tool.crossProvider("heidi.revenuecat.json")], stdin: document)
        #expect(same.status == 0)
        #expect(same.stdout == Self.noDifferences)
        // A unified snapshot compares with the vendor document it came from.
        let unified = try await Tool.run(["convert"] + Self.at + [Tool.crossProvider("heidi.revenuecat.json")])
        let roundTrip = try await Tool.run(
            ["diff", "--json"] + Self.at + [Tool.crossProvider("heidi.revenuecat.json"), "-"],
            stdin: Data(unified.stdout.utf8))
        #expect(roundTrip.status == 0)
        #expect(roundTrip.stdout == "{\n  \"accessDifferences\": [],\n  \"fieldDifferences\": []\n}\n")
    }

    @Test func diffFromNamesTheFormatOfBothDocuments() async throws {
        let heidi = Tool.crossProvider("heidi.revenuecat.json")
        let same = try await Tool.run(["diff", "--from", "revenuecat"] + Self.at + [heidi, heidi])
        #expect(same.status == 0)
        #expect(same.stdout == Self.noDifferences)

        // Named as Qonversion, the RevenueCat document A is refused before B is read.
        let carolA = Tool.crossProvider("carol.revenuecat.json")
        let carolB = Tool.crossProvider("carol.qonversion.json")
        let wrong = try await Tool.run(["diff", "--from", "qonversion"] + Self.at + [carolA, carolB])
        #expect(wrong.status == 65)
        #expect(wrong.stdout.isEmpty)
        #expect(
            wrong.stderrLines == [
                "error: \(carolA): $: looks like a RevenueCat document, not qonversion as requested; name revenuecat, or let the format be detected"
            ])

        // An envelope's provider must agree with --from, in B as in A.
        let response = try Tool.repositoryFile(carolB)
        let envelope = #"{"appUserId": "carol", "provider": "qonversion", "response": \#(response)}"#
        let contradicted = try await Tool.run(
            ["diff", "--from", "revenuecat"] + Self.at + [carolA, "-"], stdin: Data(envelope.utf8))
        #expect(contradicted.status == 65)
        #expect(contradicted.stdout.isEmpty)
        #expect(
            contradicted.stderrLines == [
                #"error: <stdin>: provider: "qonversion" contradicts the requested format "revenuecat""#
            ])
    }

    @Test func diffWithABadDocumentNamesItAndPrintsNothing() async throws {
        let result = try await Tool.run(
            ["diff"] + Self.at + [
                Tool.crossProvider("carol.revenuecat.json"), "Fixtures/revenuecat/malformed-date.json",
            ])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(
            result.stderrLines.first?.hasPrefix("error: Fixtures/revenuecat/malformed-date.json: subscriber.") == true)
    }

    @Test func theSpecsExampleErrorLine() async throws {
        let document = """
            {"request_date": "2025-06-14T23:59:58Z", "subscriber": {"original_app_user_id": "alice",
             "first_seen": "2025-01-05T10:00:00Z", "entitlements": {"pro": {"product_identifier": "pro_monthly",
             "expires_date": "next tuesday", "purchase_date": "2025-06-01T00:00:00Z"}},
             "subscriptions": {"pro_monthly": {"purchase_date": "2025-06-01T00:00:00Z", "expires_date": "2025-07-01T00:00:00Z",
             "store": "app_store", "is_sandbox": false}}, "non_subscriptions": {}}}
            """
        let (_, directory) = try Tool.temporaryFile(named: "alice.json", contents: document)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["convert", "alice.json"], in: directory)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "error: alice.json: subscriber.entitlements.pro.expires_date: \"next tuesday\" is not an ISO 8601 date\n"
        )
    }

    // MARK: parity

    @Test func parityFindsEveryPlantedDifferenceAndNothingElse() async throws {
        let json = try await Tool.run(["parity", "--json"] + Self.at + [Self.exportA, Self.exportB])
        #expect(json.status == 1)
        #expect(json.stderr.isEmpty)
        #expect(json.stdout == (try Tool.repositoryFile(Tool.crossProvider("parity.expected.json"))))
    }

    @Test func parityTextShowsTotalsThenExamples() async throws {
        let text = try await Tool.run(["parity"] + Self.at + [Self.exportA, Self.exportB])
        #expect(text.status == 1)
        #expect(text.stderr.isEmpty)
        #expect(
            text.stdout == """
                evaluated at 2025-06-15T00:00:00Z
                customers in A           8
                customers in B           8
                matched                  7
                only in A                1
                only in B                1
                with access differences  2
                with field differences   4

                only in A (1):
                  erin

                only in B (1):
                  frank

                access differences (2):
                  carol: premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-06-05T08:00:00Z)
                  ivan: premium: active in B, not in A (A: not listed; B: until 2025-12-31T00:00:00Z)

                field differences (5):
                  bob: premium: expirationDate A "2025-07-03T10:00:00Z", B "2025-07-03T10:00:30Z"
                  carol: premium: expirationDate A "2025-07-05T08:00:00Z", B "2025-06-05T08:00:00Z"
                  dave: premium: renewState A "cancelled", B "willRenew"
                  heidi: premium: store A "playStore", B "appStore"
                  heidi: pro: present A true, B false

                note: 1 customer present on one side only has access there; the exit status counts that as an access difference

                """)
    }

    @Test func parityWithATolerancePlacesBobInLine() async throws {
        let result = try await Tool.run(
            ["parity", "--json", "--expiry-tolerance", "30", "--jobs", "1"] + Self.at + [Self.exportA, Self.exportB])
        #expect(result.status == 1)
        let report = try JSONValue.parse(result.stdout)
        #expect(report["totals"]?["withFieldDifferences"] == .integer(3))
        guard case .array(let fields)? = report["fieldDifferences"] else {
            Issue.record("no fieldDifferences")
            return
        }
        #expect(
            fields.compactMap { $0["appUserId"] } == [
                .string("carol"), .string("dave"), .string("heidi"), .string("heidi"),
            ])
    }

    @Test func swappingTheExportsMirrorsTheReport() async throws {
        let result = try await Tool.run(["parity", "--json"] + Self.at + [Self.exportB, Self.exportA])
        #expect(result.status == 1)
        let report = try JSONValue.parse(result.stdout)
        #expect(report["onlyInA"] == .array([.string("frank")]))
        #expect(report["onlyInB"] == .array([.string("erin")]))
        #expect(
            report["accessDifferences"]?.compactText
                == #"[{"activeInA":false,"activeInB":true,"appUserId":"carol","entitlementId":"premium","reasonInA":{"code":"expired","date":"2025-06-05T08:00:00Z"},"reasonInB":{"code":"activeUntil","date":"2025-07-05T08:00:00Z"}},"#
                + #"{"activeInA":true,"activeInB":false,"appUserId":"ivan","entitlementId":"premium","reasonInA":{"code":"activeUntil","date":"2025-12-31T00:00:00Z"},"reasonInB":null}]"#
        )
    }

    @Test func anExportComparedWithItselfIsInParity() async throws {
        let result = try await Tool.run(["parity"] + Self.at + [Self.exportB, Self.exportB])
        #expect(result.status == 0)
        #expect(
            result.stdout.hasPrefix(
                "evaluated at 2025-06-15T00:00:00Z\ncustomers in A           8\ncustomers in B           8\n"
                    + "matched                  8\n"))
        #expect(!result.stdout.contains("differences ("))
    }

    @Test func aCustomerWithAccessOnOneSideOnlyFailsParityOnItsOwn() async throws {
        // B is A without one customer: no matched customer differs, so the one-sided customer alone
        // decides the status — 1 when they have access (erin), 0 when they have none (ivan).
        let lines = try Tool.repositoryFile(Self.exportA).split(separator: "\n").map(String.init)
        for (left, status) in [("erin", Int32(1)), ("ivan", Int32(0))] {
            let rest = lines.filter { !$0.contains(#""appUserId":"\#(left)""#) }
            #expect(rest.count == lines.count - 1)
            let (file, directory) = try Tool.temporaryFile(named: "b.jsonl", contents: rest.joined(separator: "\n"))
            defer { try? FileManager.default.removeItem(at: directory) }
            for (a, b, side) in [(Self.exportA, file.path, "onlyInA"), (file.path, Self.exportA, "onlyInB")] {
                let result = try await Tool.run(["parity", "--json"] + Self.at + [a, b])
                #expect(result.status == status, "\(left) only in \(side)")
                #expect(result.stderr.isEmpty)
                let report = try JSONValue.parse(result.stdout)
                #expect(report[side] == .array([.string(left)]))
                #expect(report["accessDifferences"] == .array([]))
                #expect(report["totals"]?["withAccessDifferences"] == .integer(0))
            }
        }
    }

    @Test func parityFromNamesTheFormatOfEveryRecordWithoutAProvider() async throws {
        // Half of B's envelopes name "qonversion", half leave it out; --from qonversion agrees with both.
        let same = try await Tool.run(["parity", "--from", "qonversion"] + Self.at + [Self.exportB, Self.exportB])
        #expect(same.status == 0)
        #expect(same.stderr.isEmpty)
        #expect(
            same.stdout.hasPrefix(
                "evaluated at 2025-06-15T00:00:00Z\ncustomers in A           8\ncustomers in B           8\n"
                    + "matched                  8\n"))

        // It applies to both files: as RevenueCat, B's records fail — the bare ones do not decode, the
        // ones naming qonversion contradict --from — and parity is not proven.
        let wrong = try await Tool.run(
            ["parity", "--json", "--from", "revenuecat"] + Self.at + [Self.exportA, Self.exportB])
        #expect(wrong.status == 1)
        #expect(wrong.stderrLines.count == 9)
        #expect(wrong.stderrLines.filter { $0.hasPrefix("error: \(Self.exportB): line ") }.count == 8)
        #expect(
            wrong.stderrLines.filter {
                $0.hasSuffix(#"provider: "qonversion" contradicts the requested format "revenuecat""#)
            }.count == 4)
        #expect(wrong.stderrLines.last == "parity: records not compared: 8 in \(Self.exportB)")
        let report = try JSONValue.parse(wrong.stdout)
        #expect(report["totals"]?["customersInA"] == .integer(8))
        #expect(report["totals"]?["customersInB"] == .integer(0))
    }

    @Test func badAndDuplicateRecordsAreReportedCountedAndFailTheRun() async throws {
        var lines = try Tool.repositoryFile(Self.exportA).split(separator: "\n").map(String.init)
        lines.insert(lines[0], at: 3)  // alice again, line 4
        lines.insert(#"{"appUserId": "zed", "response": {"subscriber": {}}}"#, at: 5)  // line 6
        lines.insert("", at: 6)  // line 7, blank
        let (file, directory) = try Tool.temporaryFile(named: "a.jsonl", contents: lines.joined(separator: "\n"))
        defer { try? FileManager.default.removeItem(at: directory) }

        let result = try await Tool.run(["parity", "--json"] + Self.at + [file.path, Self.exportB])
        // Not 65: parity cannot be proven when records were not compared, so the answer is "no".
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 3)
        #expect(
            result.stderrLines[0]
                == #"error: \#(file.path): line 4: appUserId: "alice" already appeared on line 1; a customer must appear once per file, so this record is not compared"#
        )
        #expect(result.stderrLines[1] == "error: \(file.path): line 6: response.request_date: is required but missing")
        #expect(result.stderrLines[2] == "parity: records not compared: 2 in \(file.path)")
        // The report on stdout is still the complete comparison of the usable records.
        #expect(result.stdout == (try Tool.repositoryFile(Tool.crossProvider("parity.expected.json"))))
    }
}

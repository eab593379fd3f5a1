import Foundation
import Testing

@testable import entitlements

/// `entitlements shadow-report` (swap.md "Evidence across devices", cli.md): reports from many devices, added
/// up and gated. The expected figures are counted by hand from `Fixtures/shadow-reports/`: 11 reports, 7
/// agreed, 1 disagreed on access (premium), 1 on fields only (premium.renewState), 1 timed out, 1 skipped.
@Suite("entitlements shadow-report", .timeLimit(.minutes(5)))
struct EndToEndShadowReportTests {
    typealias Tool = EntitlementsTool

    static let folder = "Fixtures/shadow-reports"

    @Test func aFolderOfDevicesIsAddedUpAndTheDefaultGateWantsMoreComparisons() async throws {
        let result = try await Tool.run(["shadow-report", Self.folder])
        #expect(result.status == 1, "9 comparisons are fewer than the default 1,000")
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("reports                        11"))
        #expect(lines.contains("comparisons                    9"))
        #expect(lines.contains("  agreed                       7"))
        #expect(lines.contains("  with access differences      1"))
        #expect(lines.contains("  with field differences only  1"))
        #expect(lines.contains("shadow timed out               1"))
        #expect(lines.contains("skipped (anonymous)            1"))
        #expect(result.stdout.contains("access-difference rate         0.111111 (1 of 9)"))
        #expect(
            result.stdout.contains(
                "gate: does not hold (at least 1000 comparisons: 9; access-difference rate at most 0.001: 0.111111)"))
        #expect(result.stdout.contains("access differences by entitlement (1):\n  premium  1 reports\n"))
        #expect(
            result.stdout.contains(
                "field differences by entitlement and field (2):\n  premium.expirationDate  1 reports\n  premium.renewState      1 reports\n"
            ))
    }

    @Test func theGateHoldsOnlyWithinBothBounds() async throws {
        let device = Self.folder + "/device-a.jsonl"
        let other = Self.folder + "/device-b.jsonl"
        let holds = try await Tool.run([
            "shadow-report", "--min-comparisons", "9", "--max-access-difference-rate", "0.12", device, other,
        ])
        #expect(holds.status == 0)
        #expect(holds.stdout.contains("gate: holds"))
        let tooFew = try await Tool.run([
            "shadow-report", "--min-comparisons", "10", "--max-access-difference-rate", "0.12", device, other,
        ])
        #expect(tooFew.status == 1)
        let tooMany = try await Tool.run([
            "shadow-report", "--min-comparisons", "9", "--max-access-difference-rate", "0.11", device, other,
        ])
        #expect(tooMany.status == 1, "1 in 9 is over 0.11")
        // A device whose only disagreement is a field: no access difference, rate 0.
        let fieldsOnly = try await Tool.run([
            "shadow-report", "--min-comparisons", "5", "--max-access-difference-rate", "0", device,
        ])
        #expect(fieldsOnly.status == 0)
    }

    @Test func jsonGivesTheTotalsTheRateTheGateAndEveryDisagreement() async throws {
        let result = try await Tool.run(["shadow-report", "--json", "--min-comparisons", "9", Self.folder])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["reports"] as? Int == 11)
        #expect(object["comparisons"] as? Int == 9)
        #expect(object["agreed"] as? Int == 7)
        #expect(object["withAccessDifferences"] as? Int == 1)
        #expect(object["withFieldDifferencesOnly"] as? Int == 1)
        #expect(object["shadowTimedOut"] as? Int == 1)
        #expect(object["shadowFailed"] as? Int == 0)
        #expect(object["writeFailed"] as? Int == 0)
        #expect(object["skipped"] as? Int == 1)
        #expect(abs((object["accessDifferenceRate"] as? Double ?? 0) - 1.0 / 9) < 1e-12)
        let gate = try #require(object["gate"] as? [String: Any])
        #expect(gate["minComparisons"] as? Int == 9)
        #expect(gate["maxAccessDifferenceRate"] as? Double == 0.001)
        #expect(gate["holds"] as? Bool == false)
        let fields = try #require(object["fieldDisagreements"] as? [[String: Any]])
        #expect(fields.map { $0["field"] as? String } == ["expirationDate", "renewState"])
        let access = try #require(object["accessDisagreements"] as? [[String: Any]])
        #expect(access.map { $0["entitlementId"] as? String } == ["premium"])
    }

    @Test func aMalformedLineIsBadDataNamingItsFileAndLineAndPrintsNoReport() async throws {
        let (file, directory) = try Tool.temporaryFile(
            named: "device.jsonl",
            contents: """
                {"instant":"2025-06-01T08:00:00Z","serving":"revenuecat","shadow":"adapty","outcome":"agreed"}
                {"instant":"2025-06-01T08:00:00Z","serving":"revenuecat","shadow":"adapty","outcome":"maybe"}
                {"instant":"2025-06-01T08:00:00Z","serving":"revenuecat","shadow":"adapty","outcome":"agreed"

                """)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Tool.run(["shadow-report", "--min-comparisons", "0", file.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderrLines.first?.hasPrefix("error: \(file.path): line 2: outcome: \"maybe\" is not an outcome")
                == true)
        #expect(result.stderrLines.dropFirst().first?.hasPrefix("error: \(file.path): line 3: ") == true)
        #expect(result.stderrLines.last == "shadow-report: 2 malformed lines; no report")
    }

    @Test func usageAndUnreadableInputs() async throws {
        #expect(try await Tool.run(["shadow-report"]).status == 64)
        #expect(try await Tool.run(["shadow-report", "--min-comparisons", "-1", Self.folder]).status == 64)
        #expect(try await Tool.run(["shadow-report", "--min-comparisons", "many", Self.folder]).status == 64)
        #expect(try await Tool.run(["shadow-report", "--max-access-difference-rate", "2", Self.folder]).status == 64)
        #expect(try await Tool.run(["shadow-report", "--max-access-difference-rate", "nan", Self.folder]).status == 64)
        #expect(try await Tool.run(["shadow-report", "-", "-"]).status == 64)
        let missing = try await Tool.run(["shadow-report", "Fixtures/shadow-reports/no-such-device.jsonl"])
        #expect(missing.status == 66)
    }

    @Test func standardInputIsOneMoreDevice() async throws {
        let line =
            #"{"instant":"2025-06-05T08:00:00Z","serving":"revenuecat","shadow":"adapty","outcome":"agreed"}"# + "\n"
        let result = try await Tool.run(
            ["shadow-report", "--min-comparisons", "10", "--max-access-difference-rate", "0.12", Self.folder, "-"],
            stdin: Data(line.utf8))
        #expect(result.status == 0, "the tenth comparison came from standard input")
    }
}

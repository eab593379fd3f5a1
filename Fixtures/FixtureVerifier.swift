import EntitlementKit
import Foundation

/// Runs an adapter over a fixture scenario and reports every way the result differs from the
/// expectation.
public enum FixtureVerifier {
    /// The outcome of one scenario.
    public struct Result: Sendable, CustomStringConvertible {
        /// The scenario checked.
        public let scenario: FixtureScenario
        /// What went wrong; empty when the adapter did exactly what the fixture says.
        public let problems: [String]

        /// Whether the adapter matched the fixture.
        public var passed: Bool { problems.isEmpty }

        /// The scenario and one problem per line.
        public var description: String {
            passed ? "\(scenario): ok" : "\(scenario):\n" + problems.map { "  " + $0 }.joined(separator: "\n")
        }
    }

    /// The instant failure scenarios are mapped at. A malformed document must fail at any instant, so the
    /// value only has to be fixed (2025-06-15T15:06:40Z), not meaningful.
    public static let failureScenarioInstant = Date(millisecondsSince1970: 1_750_000_000_000)

    /// Maps the scenario's document with `adapter` at the expected snapshot's `evaluatedAt` and compares
    /// the canonical JSON field by field, or checks that it fails with the expected kind and path.
    public static func verify(_ scenario: FixtureScenario, with adapter: some EntitlementAdapter) throws -> Result {
        let document = try scenario.document()
        if let expected = try scenario.expectedSnapshotJSON() {
            let instantNode = try JSONNode(expected).required("evaluatedAt")
            let instant = try instantNode.date()
            var problems: [String] = []
            if let parsed = try? JSONValue.parse(document), !adapter.recognizes(parsed) {
                problems.append("the \(adapter.provider) adapter does not recognise the document's format")
            }
            do {
                let snapshot = try adapter.snapshot(from: document, at: instant)
                problems += expected.differences(to: snapshot.jsonValue).map(\.description)
                let decoded = try EntitlementSnapshot(json: snapshot.canonicalJSONData())
                if decoded != snapshot {
                    problems.append("the snapshot does not survive a canonical JSON round trip")
                }
            } catch {
                problems.append("expected a snapshot, the adapter failed: \(error)")
            }
            return Result(scenario: scenario, problems: problems)
        }
        guard let failure = try scenario.expectedFailure() else {
            return Result(scenario: scenario, problems: ["no expectation"])
        }
        do {
            let snapshot = try adapter.snapshot(from: document, at: failureScenarioInstant)
            return Result(
                scenario: scenario,
                problems: [
                    "expected \(failure.kind.rawValue) at \(failure.path), the adapter produced a snapshot with active \(snapshot.activeEntitlementIds)"
                ])
        } catch {
            var problems: [String] = []
            if error.kind != failure.kind {
                problems.append("expected error kind \(failure.kind.rawValue), got \(error.kind.rawValue): \(error)")
            }
            if error.path.description != failure.path {
                problems.append("expected error path \(failure.path), got \(error.path): \(error)")
            }
            return Result(scenario: scenario, problems: problems)
        }
    }
}

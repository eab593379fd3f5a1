import EntitlementKit
import EntitlementKitFixtures
import Foundation

/// Checks an adapter against a directory of recorded responses: `<name>.json` with
/// `<name>.expected.json` (the unified snapshot it must map to, at that snapshot's `evaluatedAt`) or
/// `<name>.expected-error.json` (`{"kind", "path"}` of the `DocumentError` it must fail with).
///
/// Each fixture is verified by the fixtures module's `FixtureVerifier` (one comparison, field by field,
/// for the bundled fixtures and yours). In **strict** mode, a snapshot that holds any `unknown` value
/// (a renew state, store, period type… the adapter could not name) also fails, with the path of each.
///
/// ```swift
/// let results = try FixtureHarness.verify(directory: url, adapter: RevenueCatAdapter(), strict: true)
/// for result in results { #expect(result.passed, "\(result)") }
/// ```
public enum FixtureHarness {
    /// Verifies every fixture in `directory` with `adapter`; `strict` also fails any `unknown` value.
    /// Throws when the directory cannot be listed or a file has no partner.
    public static func verify(directory: URL, adapter: some EntitlementAdapter, strict: Bool = false) throws
        -> [Result]
    {
        try FixtureCatalog.scenarios(in: directory, provider: adapter.provider).map { scenario in
            let result = try FixtureVerifier.verify(scenario, with: adapter)
            guard strict, let expected = try scenario.expectedSnapshotJSON() else {
                return Result(scenario: scenario, problems: result.problems)
            }
            let instant = try JSONNode(expected).required("evaluatedAt").date()
            guard let snapshot = try? adapter.snapshot(from: scenario.document(), at: instant) else {
                return Result(scenario: scenario, problems: result.problems)
            }
            let unknowns = unknownValues(in: snapshot.jsonValue, at: .root).map { "strict: \($0) is unknown" }
            return Result(scenario: scenario, problems: result.problems + unknowns)
        }
    }

    /// The outcome of one fixture.
    public struct Result: Sendable, CustomStringConvertible {
        /// The fixture checked.
        public let scenario: FixtureScenario
        /// Each difference (`path: expected …, actual …`) or strict-mode finding; empty when it passed.
        public let problems: [String]

        /// Whether the adapter did exactly what the fixture says.
        public var passed: Bool { problems.isEmpty }

        /// The fixture and one problem per line.
        public var description: String {
            passed ? "\(scenario): ok" : "\(scenario):\n" + problems.map { "  " + $0 }.joined(separator: "\n")
        }
    }

    /// The paths of every `"unknown"` string in `value`.
    public static func unknownValues(in value: JSONValue, at path: JSONPath = .root) -> [JSONPath] {
        switch value {
        case .string("unknown"):
            return [path]
        case .array(let elements):
            return elements.enumerated().flatMap { unknownValues(in: $1, at: path.appending(index: $0)) }
        case .object(let members):
            return members.keys.sorted().flatMap { key in
                members[key].map { unknownValues(in: $0, at: path.appending(key)) } ?? []
            }
        default:
            return []
        }
    }
}

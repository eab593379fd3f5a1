import EntitlementKit

/// One expectation that did not hold: where (file, provider, step counted from 1, action), what
/// (the expectation key) and how (expected and actual values as JSON).
public struct ScenarioFailure: Sendable, Hashable, CustomStringConvertible {
    /// The scenario file (or the name the run was given).
    public let file: String
    /// The backend flavour the story ran against.
    public let provider: ProviderID
    /// The step, counted from 1.
    public let step: Int
    /// The step's action (`logIn`, `check`, …).
    public let action: String
    /// The expectation key; for per-entitlement keys `renewState.premium`, `expirationDate.premium`.
    public let key: String
    /// What the file expects, as JSON.
    public let expected: JSONValue
    /// What the app saw, as JSON.
    public let actual: JSONValue

    /// Creates a failure.
    public init(
        file: String, provider: ProviderID, step: Int, action: String, key: String, expected: JSONValue,
        actual: JSONValue
    ) {
        self.file = file
        self.provider = provider
        self.step = step
        self.action = action
        self.key = key
        self.expected = expected
        self.actual = actual
    }

    /// One line: `story.json: revenuecat: step 3: logIn: active: expected ["premium"], actual []`.
    public var description: String {
        "\(file): \(provider): step \(step): \(action): \(key): expected \(expected.compactText), actual \(actual.compactText)"
    }

    /// `{"file", "provider", "step", "action", "key", "expected", "actual"}`.
    public var jsonValue: JSONValue {
        .object([
            "file": .string(file), "provider": .string(provider.rawValue), "step": .integer(Int64(step)),
            "action": .string(action), "key": .string(key), "expected": expected, "actual": actual,
        ])
    }
}

/// The outcome of one scenario run against one provider.
public struct ScenarioReport: Sendable, Hashable, CustomStringConvertible {
    /// The scenario file (or the name the run was given).
    public let file: String
    /// The backend flavour.
    public let provider: ProviderID
    /// How many steps ran.
    public let stepCount: Int
    /// Every expectation that did not hold, in step order.
    public let failures: [ScenarioFailure]

    /// Creates a report.
    public init(file: String, provider: ProviderID, stepCount: Int, failures: [ScenarioFailure]) {
        self.file = file
        self.provider = provider
        self.stepCount = stepCount
        self.failures = failures
    }

    /// Whether every expectation held.
    public var passed: Bool { failures.isEmpty }

    /// `file: provider: ok (N steps)`, or one line per failure.
    public var description: String {
        passed
            ? "\(file): \(provider): ok (\(stepCount) steps)"
            : failures.map(\.description).joined(separator: "\n")
    }

    /// `{"file", "provider", "steps", "passed", "failures": [...]}`.
    public var jsonValue: JSONValue {
        .object([
            "file": .string(file), "provider": .string(provider.rawValue), "steps": .integer(Int64(stepCount)),
            "passed": .bool(passed), "failures": .array(failures.map(\.jsonValue)),
        ])
    }
}

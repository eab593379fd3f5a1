import EntitlementKit
import EntitlementKitFixtures
import Testing

/// `JSONDifference`, the field-by-field report of golden-file tests. It is a test helper, so it lives in
/// the fixtures module, not in the core's API: the module-qualified name below only compiles there.
/// (Here because this target already reads the fixtures; the core's tests use it for its golden file.)
@Suite("JSONDifference: the golden-file report, from the fixtures module", .timeLimit(.minutes(5)))
struct JSONDifferenceTests {
    typealias Difference = EntitlementKitFixtures.JSONDifference

    @Test func everyDifferingLeafIsReportedInPathOrder() async throws {
        let expected = try JSONValue.parse(#"{"b": {"y": 1, "x": [1, 2]}, "a": "same", "c": null}"#)
        let actual = try JSONValue.parse(#"{"b": {"y": 2, "x": [1]}, "a": "same", "d": true}"#)
        let differences: [Difference] = expected.differences(to: actual)
        #expect(
            differences.map(\.description) == [
                "b.x[1]: expected 2, got (absent)",
                "b.y: expected 1, got 2",
                "c: expected null, got (absent)",
                "d: expected (absent), got true",
            ])
        #expect(expected.differences(to: expected).isEmpty)
    }
}

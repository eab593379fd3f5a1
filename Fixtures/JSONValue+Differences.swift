import EntitlementKit

/// One place where two JSON documents disagree: what fixture and golden-file tests print. A test helper,
/// so it lives with the fixtures, not in the core's API.
public struct JSONDifference: Sendable, Hashable, CustomStringConvertible {
    /// Where they disagree.
    public var path: JSONPath
    /// The value in the expected document; `nil` when it lacks the member.
    public var expected: JSONValue?
    /// The value in the actual document; `nil` when it lacks the member.
    public var actual: JSONValue?

    /// Creates a difference.
    public init(path: JSONPath, expected: JSONValue?, actual: JSONValue?) {
        self.path = path
        self.expected = expected
        self.actual = actual
    }

    /// `entitlements.pro.renewState: expected "cancelled", got "willRenew"`.
    public var description: String {
        "\(path): expected \(expected?.compactText ?? "(absent)"), got \(actual?.compactText ?? "(absent)")"
    }
}

extension JSONValue {
    /// Every leaf where `actual` differs from this (expected) value, in path order: the field-by-field
    /// report golden-file tests print. Arrays are compared element by element.
    public func differences(to actual: JSONValue, at path: JSONPath = .root) -> [JSONDifference] {
        switch (self, actual) {
        case (.object(let expectedMembers), .object(let actualMembers)):
            let keys = Set(expectedMembers.keys).union(actualMembers.keys)
            // Sorted by UTF-8 bytes, the canonical writer's key order.
            return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.flatMap {
                key -> [JSONDifference] in
                let memberPath = path.appending(key)
                switch (expectedMembers[key], actualMembers[key]) {
                case (let expected?, let actual?): return expected.differences(to: actual, at: memberPath)
                case (let expected, let actual):
                    return [JSONDifference(path: memberPath, expected: expected, actual: actual)]
                }
            }
        case (.array(let expectedElements), .array(let actualElements)):
            var found: [JSONDifference] = []
            for index in 0..<max(expectedElements.count, actualElements.count) {
                let elementPath = path.appending(index: index)
                let expected = index < expectedElements.count ? expectedElements[index] : nil
                let actual = index < actualElements.count ? actualElements[index] : nil
                if let expected, let actual {
                    found += expected.differences(to: actual, at: elementPath)
                } else {
                    found.append(JSONDifference(path: elementPath, expected: expected, actual: actual))
                }
            }
            return found
        default:
            return self == actual ? [] : [JSONDifference(path: path, expected: self, actual: actual)]
        }
    }
}

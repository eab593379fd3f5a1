import Testing

// The test target depends on the `entitlements` executable target (Package.swift), which is what makes
// `swift test` build the tool the end-to-end tests run; this import fails to compile without it.
@testable import entitlements

@Suite("Spelling: did-you-mean suggestions", .timeLimit(.minutes(5)))
struct SpellingTests {
    @Test func oneOrTwoEditsAreTyposFurtherIsAnotherWord() {
        let commands = ["convert", "check", "diff", "migrate", "parity", "validate-user-id", "fetch"]
        #expect(Spelling.suggestion(for: "chek", among: commands) == "check")
        #expect(Spelling.suggestion(for: "CHECK", among: commands) == "check")
        #expect(Spelling.suggestion(for: "partiy", among: commands) == "parity")  // swapped neighbours: one edit
        #expect(Spelling.suggestion(for: "migrat", among: commands) == "migrate")
        #expect(Spelling.suggestion(for: "dif", among: commands) == "diff")
        #expect(Spelling.suggestion(for: "frobnicate", among: commands) == nil)
        #expect(Spelling.suggestion(for: "xy", among: commands) == nil)
        // Short words allow one edit only: "fix" is not "diff".
        #expect(Spelling.suggestion(for: "fix", among: commands) == nil)
    }

    @Test func editDistanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
        func distance(_ a: String, _ b: String) -> Int { Spelling.editDistance(Array(a), Array(b)) }
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "") == 3)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("abc", "abd") == 1)
        #expect(distance("abc", "acb") == 1)
        #expect(distance("abc", "abcd") == 1)
        #expect(distance("--ignore-feild", "--ignore-field") == 1)
        #expect(distance("kitten", "sitting") == 3)
    }
}

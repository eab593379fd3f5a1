import EntitlementKitMigration
import Foundation
import Testing

@Suite("JSONTextLayout: one document or JSON Lines", .timeLimit(.minutes(5)))
struct JSONTextLayoutTests {
    func multiLine(_ text: String) -> Bool { JSONTextLayout.startsWithMultiLineDocument(Data(text.utf8)) }
    func jsonLines(_ text: String) -> Bool { JSONTextLayout.isJSONLines(Data(text.utf8)) }

    @Test func aPrettyPrintedDocumentIsMultiLine() {
        #expect(multiLine("{\n  \"subscriber\": {}\n}\n"))
        #expect(multiLine("\n  \r\n[\n1]"))
        #expect(multiLine(#"{"a": "}]", "b": ["# + "\n1]}"), "brackets inside strings do not count")
        #expect(multiLine(#"{"a": "\"}", "b": ["# + "\n1]}"), "an escaped quote does not end the string")
    }

    @Test func jsonLinesAndOtherTextAreNot() {
        #expect(!multiLine(#"{"a": 1}"# + "\n" + #"{"a": 2}"# + "\n"))
        #expect(!multiLine(#"{"a": 1} junk"# + "\n{"), "closed on its first line: the reader reports the junk")
        #expect(!multiLine("\"text\"\n"))
        #expect(!multiLine("nonsense {\n"))
        #expect(!multiLine(""))
        #expect(!multiLine(#"{"a": "unfinished"#), "no line break yet: the first record may just be long")
        #expect(!multiLine(#"{"a": "broken"# + "\nstring\"}"), "a line break inside a string is not JSON")
    }

    @Test func severalDocumentsOnePerLineAreJSONLines() {
        #expect(jsonLines(#"{"a": 1}"# + "\n" + #"{"a": 2}"#))
        #expect(jsonLines("\n  \n" + #"{"a": 1}"# + "\r\n\r\n" + #"{"a": 2}"# + "\r\n"))
        #expect(!jsonLines(#"{"a": 1}"# + "\n"), "one document is one document")
        #expect(!jsonLines("{\n\"a\": 1\n}\n"), "a pretty-printed document is not")
        #expect(!jsonLines(#"{"a": 1} {"a": 2}"#))
    }
}

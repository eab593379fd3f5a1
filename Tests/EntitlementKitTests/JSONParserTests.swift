import EntitlementKit
import Foundation
import TestSupport
import Testing

@Suite("Strict JSON parsing", .timeLimit(.minutes(5)))
struct JSONParserTests {
    func error(parsing text: String) -> DocumentError? {
        do {
            _ = try JSONValue.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("a quoted value is cut even when it is one character carrying thousands of combining marks")
    func aValueOfCombiningMarksIsCut() {
        let value = "e" + String(repeating: "\u{301}", count: 5_000)
        let error = DocumentError(kind: .invalidValue, path: JSONPath.root, value: value, reason: "is odd")
        #expect((error.value?.unicodeScalars.count ?? .max) <= 4 * DocumentError.maximumValueLength)
        #expect(error.value?.hasSuffix("…") == true)
        let short = "e" + String(repeating: "\u{301}", count: 10)
        #expect(DocumentError(kind: .invalidValue, path: JSONPath.root, value: short, reason: "x").value == short)
    }

    @Test("values keep their JSON types apart")
    func types() throws {
        let value = try JSONValue.parse(
            #"{"a": 1, "b": true, "c": 1.5, "d": "x", "e": null, "f": [1, "2"], "g": {}, "h": -0, "i": 1e3}"#)
        #expect(value["a"] == .integer(1))
        #expect(value["b"] == .bool(true))
        #expect(value["c"] == .double(1.5))
        #expect(value["d"] == .string("x"))
        #expect(value["e"] == .null)
        #expect(value["f"] == .array([.integer(1), .string("2")]))
        #expect(value["g"] == .object([:]))
        #expect(value["h"] == .integer(0))
        #expect(value["i"] == .double(1000))
    }

    @Test("escapes, surrogate pairs and raw UTF-8 decode")
    func strings() throws {
        let value = try JSONValue.parse(#"["a\"b\\c\/d\n\t", "\u00e9\ud83d\ude00", "é😀"]"#)
        #expect(value == .array([.string("a\"b\\c/d\n\t"), .string("é😀"), .string("é😀")]))
    }

    @Test("writing and parsing again gives the same value")
    func writerRoundTrip() throws {
        let text = #"{"z": [1, 2.5, "\u0001\"", {"k": null}], "a": {"b": false}, "é": "\\/"}"#
        let value = try JSONValue.parse(text)
        #expect(try JSONValue.parse(value.prettyText) == value)
        #expect(try JSONValue.parse(value.compactText) == value)
        #expect(value.compactText == #"{"a":{"b":false},"z":[1,2.5,"\u0001\"",{"k":null}],"é":"\\/"}"#)
    }

    @Test(
        "malformed documents fail with a located syntax error",
        arguments: [
            (
                #"{"subscriber": {"entitlements": {"pro": {"expires_date": "2025-"#,
                "subscriber.entitlements.pro.expires_date", 1
            ),
            ("{\n\"a\": 1,\n\"a\": 2\n}", "a", 3),
            (#"{"a": [1, 2,]}"#, "a[2]", 1),
            (#"{"a": 01}"#, "a", 1),
            (#"{"a": tru}"#, "a", 1),
            ("", "$", 1),
            ("{} {}", "$", 1),
            (#"{"a": "\ud800"}"#, "a", 1),
            (#"{"a": "\x"}"#, "a", 1),
            ("{\"a\": \"line\nbreak\"}", "a", 1),
            (#"{"a" 1}"#, "$", 1),
            (#"[1e999]"#, "[0]", 1),
        ])
    func syntaxErrors(text: String, path: String, line: Int) throws {
        let failure = try #require(error(parsing: text))
        #expect(failure.kind == .syntax)
        #expect(failure.path.description == path, "\(failure)")
        #expect(failure.line == line, "\(failure)")
    }

    @Test("a syntax error names the document line after the reason, only for multi-line documents")
    func syntaxErrorDescription() throws {
        let multiLine = try #require(error(parsing: "{\n\"a\": [1,\n"))
        #expect(multiLine.description == "a[1]: the document ends where a value was expected (line 3)")
        let oneLine = try #require(error(parsing: #"{"a": tru}"#))
        #expect(oneLine.description == "a: unexpected 't' where a value was expected")
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() throws {
        var bytes = Array(#"{"a": "x"}"#.utf8)
        bytes[7] = 0xFF
        #expect(throws: DocumentError.self) { try JSONValue.parse(Data(bytes)) }
    }

    @Test("nesting beyond the limit is refused instead of exhausting the stack")
    func deepNesting() throws {
        let deep = String(repeating: "[", count: 100_000)
        let failure = try #require(error(parsing: deep))
        #expect(failure.kind == .syntax)
        let allowed = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        #expect(throws: Never.self) { try JSONValue.parse(allowed) }
    }

    @Test("a UTF-8 byte order mark is tolerated")
    func byteOrderMark() throws {
        #expect(try JSONValue.parse(Data([0xEF, 0xBB, 0xBF] + Array("[]".utf8))) == .array([]))
    }

    @Test("JSON paths print dotted, with brackets for indices and unusual keys")
    func pathDescription() {
        let path = JSONPath.root.appending("data").appending("permissions").appending(index: 2).appending("a key")
            .appending("id")
        #expect(path.description == #"data.permissions[2]["a key"].id"#)
        #expect(JSONPath.root.description == "$")
    }

    @Test("node accessors fail with the node's path and value")
    func nodeAccessors() throws {
        let root = try JSONNode(
            parsing: Data(#"{"a": {"n": "3", "d": 1.5, "s": 1586369486, "big": 1700000000000}}"#.utf8))
        let a = try root.required("a")
        let n = try #require(a.member("n"))
        #expect(throws: DocumentError.self) { try n.integer() }
        do {
            _ = try n.integer()
        } catch {
            #expect(error.description == #"a.n: "3" must be a number, not a string"#)
        }
        #expect(try a.required("s").dateFromEpochSeconds() == instant("2020-04-08T18:11:26Z"))
        #expect(try a.required("d").dateFromEpochSeconds() == instant("1970-01-01T00:00:01.500Z"))
        #expect(throws: DocumentError.self) { try a.required("big").dateFromEpochSeconds() }
        #expect(throws: DocumentError.self) { try a.required("missing") }
        #expect(try a.optional("missing") == nil)
        #expect(throws: DocumentError.self) { try n.optional("x") }
    }
}

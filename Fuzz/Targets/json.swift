// fuzz-modules: EntitlementKit JSONOracle
// fuzz-seeds: Fixtures/revenuecat Fixtures/qonversion Fixtures/malformed
import EntitlementKit
import Foundation
import JSONOracle

/// The strict JSON reader every format goes through: the tape accepts exactly what the tree parser it
/// replaced (the oracle) accepts, with the same value or the same located error; an accepted document
/// survives writing and reading back unchanged, and a refusal is one bounded line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let tape = Result(catching: { () throws(DocumentError) -> JSONValue in try JSONValue.parse(data) })
    let oracle = Result(catching: { () throws(DocumentError) -> JSONValue in try OracleJSONParser.parse(data) })
    if tape != oracle { fatalError("the tape and the oracle disagree: \(tape) vs \(oracle)") }
    let value: JSONValue
    switch tape {
    case .success(let parsed): value = parsed
    case .failure(let error):
        checkRefusal(error)
        return 0
    }
    let written = value.compactText
    do {
        let reread = try JSONValue.parse(written)
        if !sameJSON(reread, value) { fatalError("written JSON reads back different: \(written.prefix(200))") }
    } catch {
        fatalError("the reader refuses the writer's output: \(error)")
    }
    return 0
}

/// Equality of JSON meaning: a number is its value, whether it was written `3`, `3.0` or `-0`.
func sameJSON(_ left: JSONValue, _ right: JSONValue) -> Bool {
    switch (left, right) {
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.integer(let a), .double(let b)), (.double(let b), .integer(let a)): return Double(a) == b
    case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { sameJSON($0, $1) }
    case (.object(let a), .object(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameJSON(value, $0) } ?? false }
    default: return left == right
    }
}

// fuzz-modules: EntitlementKitQonversion JSONOracle
// fuzz-seeds: Fixtures/qonversion Fixtures/cross-provider/carol.qonversion.json Fixtures/cross-provider/heidi.qonversion.json Fixtures/malformed
import EntitlementKit
import EntitlementKitQonversion
import Foundation
import JSONOracle

/// Qonversion's launch result and v3/v4 lists through the adapter: the byte path (fast
/// reader, then the general path) and the tree path give the same snapshot or the same error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQonversion(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    exerciseBothPaths(QonversionAdapter(), data, oracle: OracleJSONParser.parse)
    return 0
}

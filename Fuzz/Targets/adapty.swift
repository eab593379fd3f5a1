// fuzz-modules: EntitlementKitAdapty JSONOracle
// fuzz-seeds: Fixtures/adapty Fixtures/malformed
import EntitlementKit
import EntitlementKitAdapty
import Foundation
import JSONOracle

/// Adapty's four profile documents (SDK backend envelope, server API v1, bridge, server API v2) through
/// the adapter: the byte path (`snapshot(from: Data…)`) and the tree path give the same snapshot or the
/// same error, and every accepted snapshot survives storage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAdapty(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    exerciseBothPaths(AdaptyAdapter(), data, oracle: OracleJSONParser.parse)
    return 0
}

// fuzz-modules: EntitlementKitRevenueCat JSONOracle
// fuzz-seeds: Fixtures/revenuecat Fixtures/cross-provider/carol.revenuecat.json Fixtures/cross-provider/heidi.revenuecat.json Fixtures/malformed
import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import JSONOracle

/// RevenueCat's subscriber JSON through the adapter, as an app or the CLI reads a response: the tape and the
/// tree parser it replaced (the oracle) give the same snapshot or the same error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRevenueCat(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    exerciseBothPaths(RevenueCatAdapter(), data, oracle: OracleJSONParser.parse)
    return 0
}

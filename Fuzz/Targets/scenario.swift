// fuzz-modules: EntitlementKitTesting
// fuzz-seeds: Fixtures/scenarios
import EntitlementKit
import EntitlementKitTesting
import Foundation

/// The scenario file reader of the test kit: a scenario is read strictly before anything runs, so a
/// malformed file must be a bounded, located refusal, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    do {
        _ = try Scenario(json: data)
    } catch {
        checkRefusal(error)
    }
    return 0
}

// fuzz-modules: EntitlementKit
// fuzz-seeds: Fixtures/revenuecat Fixtures/qonversion Fixtures/malformed
import EntitlementKit
import Foundation

/// The unified snapshot decoder: what a stored snapshot (a cache entry, `--from unified`) goes through.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUnified(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    exercise { () throws(DocumentError) in try EntitlementSnapshot(json: data).evaluated(at: fuzzInstant) }
    return 0
}

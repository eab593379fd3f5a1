// fuzz-modules: EntitlementKitAppStore
// fuzz-seeds: Fixtures/appstore/signed/test-root.der Fixtures/appstore/signed/other-root.der Fixtures/appstore/signed/test-root.pem
// fuzz-flags: -max_len=4096
import EntitlementKit
import EntitlementKitAppStore
import Foundation

/// The DER and X.509 readers (through the PEM/DER certificate loader) on hostile bytes: no crash, no
/// read past the input, and a DER input that is accepted comes back byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDER(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    guard let certificates = try? AppStoreJWSVerifier.certificates(fromPEMOrDER: data) else { return 0 }
    if !String(decoding: data, as: UTF8.self).contains("-----BEGIN "), certificates != [data] {
        fatalError("an accepted DER certificate did not come back as it was read")
    }
    // A root that reads is used: verifying nothing against it must not crash either.
    _ = try? AppStoreJWSVerifier(rootCertificates: certificates).verify("e30.e30.AA", path: .root)
    return 0
}

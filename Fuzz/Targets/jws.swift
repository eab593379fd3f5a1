// fuzz-modules: EntitlementKitAppStore
// fuzz-seeds: Fixtures/appstore/signed
// fuzz-flags: -max_len=16384
import EntitlementKit
import EntitlementKitAppStore
import Foundation

/// App Store documents of signed transactions on hostile bytes: the JSON, the JWS parts, base64url, the
/// header, the x5c certificates and the signature, end to end through the adapter. No crash, no hang, and
/// nothing verifies without a root (none is configured here, so any "verified" snapshot is a bug).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(UnsafeBufferPointer(start: start, count: count))
    let adapter = AppStoreAdapter(allowsUnverifiedTestData: true, rootCertificates: [])
    if let snapshot = try? adapter.snapshot(from: data, at: Date(timeIntervalSince1970: 1_750_000_000)),
        snapshot.verification == .verified
    {
        fatalError("a document verified with no root configured")
    }
    let text = String(decoding: data, as: UTF8.self)
    if (try? AppStoreJWSVerifier(rootCertificates: []).verify(text, path: .root)) != nil {
        fatalError("a JWS verified with no root configured")
    }
    return 0
}

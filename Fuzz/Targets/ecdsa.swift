// fuzz-modules: EntitlementKitAppStore
// fuzz-flags: -max_len=1024
import EntitlementKit
import EntitlementKitAppStore

/// The ECDSA signature and key readers on hostile bytes (a certificate's signature and key, a JWS's
/// signature): no crash, and the strict DER reader accepts only the one canonical encoding of what it
/// reads — written back minimally, an accepted signature is the input byte for byte.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzECDSA(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    if let (r, s) = ECDSASignatureDER.integers(of: bytes) {
        let canonical = derSequence(derInteger(r) + derInteger(s))
        if canonical != bytes { fatalError("DER reader accepted a non-canonical signature: \(bytes)") }
    }
    for key in fuzzKeys {
        // The input as signature and as digest: a full verification whenever the form is right (the
        // arithmetic meets whatever r and s come), a cheap refusal otherwise.
        _ = key.isValidSignature(derEncoded: bytes, digest: bytes)
        _ = key.isValidSignature(rawRepresentation: bytes, digest: bytes)
    }
    for curve in [ECDSACurve.p256, .p384] {
        if let key = try? ECDSAPublicKey(curve: curve, x963Representation: bytes),
            key.x963Representation != bytes
        {
            fatalError("an accepted key does not encode back to its bytes: \(bytes)")
        }
    }
    return 0
}

/// RFC 6979's example keys (A.2.5, A.2.6).
let fuzzKeys: [ECDSAPublicKey] = [
    (
        ECDSACurve.p256,
        "0460fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
            + "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"
    ),
    (
        ECDSACurve.p384,
        "04ec3a4e415b4e19a4568618029f427fa5da9a8bc4ae92e02e06aae5286b300c64def8f0ea9055866064a254515480bc13"
            + "8015d9b72d7d57244ea8ef9ac0c621896708a59367f9dfb9f54ca84b3f1c9db1288b231c3ae0d4fe7344fd2533264720"
    ),
].map { curve, hex in
    let digits = Array(hex.utf8)
    let point = stride(from: 0, to: digits.count, by: 2).compactMap {
        UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)
    }
    guard let key = try? ECDSAPublicKey(curve: curve, x963Representation: point) else {
        fatalError("the example key does not load")
    }
    return key
}

/// A non-negative INTEGER in its one DER encoding.
func derInteger(_ magnitude: ArraySlice<UInt8>) -> [UInt8] {
    var content = Array(magnitude.drop { $0 == 0 })
    if content.first.map({ $0 & 0x80 != 0 }) ?? true { content.insert(0, at: 0) }
    return [0x02] + derLength(content.count) + content
}

func derSequence(_ content: [UInt8]) -> [UInt8] { [0x30] + derLength(content.count) + content }

func derLength(_ length: Int) -> [UInt8] {
    switch length {
    case ..<0x80: [UInt8(length)]
    case ..<0x100: [0x81, UInt8(length)]
    default: [0x82, UInt8(length >> 8), UInt8(length & 0xff)]
    }
}

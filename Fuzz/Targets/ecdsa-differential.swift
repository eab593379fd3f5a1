// fuzz-modules: EntitlementKit CryptoOracles
// fuzz-flags: -max_len=512
import CryptoOracles
import EntitlementKitCrypto

/// The fixed-width P-256/P-384 arithmetic against the first, generic implementation (`ECDSAOracle`): for
/// keys, digests and signatures drawn from the input, both give the same verdict. Most inputs carry a
/// signature made with the oracle (which must verify), then altered or not, so "valid" is met as often as
/// "invalid"; the rest are arbitrary bytes as r and s.
///
/// Input: byte 0 picks the curve and the mode, then the private key, the nonce and the digest (each the
/// curve's length, zero-padded when the input runs out), then an alteration.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzECDSADifferential(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    guard let control = bytes.first else { return 0 }
    let curve: ECDSACurve = control & 1 == 0 ? .p256 : .p384
    let size = curve.coordinateByteCount
    var rest = bytes.dropFirst()
    func take(_ length: Int) -> [UInt8] {
        let part = Array(rest.prefix(length))
        rest = rest.dropFirst(length)
        return part + [UInt8](repeating: 0, count: length - part.count)
    }
    var privateKey = take(size)
    // Small keys (1, 2, n − 1 …) reach the tables' edge cases: Q = ±G makes the two sums meet.
    if control & 2 != 0 { privateKey = [UInt8](repeating: 0, count: size - 1) + [privateKey[0] | 1] }
    let nonce = take(size)
    let digest = take(size)
    guard let key = ECDSAOracle.generatorMultiple(curve: curve, scalar: privateKey),
        let publicKey = try? ECDSAPublicKey(curve: curve, x963Representation: key)
    else { return 0 }
    if publicKey.x963Representation != key { fatalError("a key does not encode back: \(key)") }
    var r: [UInt8]
    var s: [UInt8]
    if control & 4 == 0,
        let signature = ECDSAOracle.testSignature(
            curve: curve, privateKey: privateKey, nonce: nonce, digest: digest)
    {
        (r, s) = signature
    } else {
        (r, s) = (nonce, take(size))
    }
    // An alteration: one byte of r, s or the digest changed (or none).
    var signedDigest = digest
    if let position = rest.first, let delta = rest.dropFirst().first, delta != 0 {
        switch Int(position) % 3 {
        case 0: r[Int(position) % size] ^= delta
        case 1: s[Int(position) % size] ^= delta
        default: signedDigest[Int(position) % size] ^= delta
        }
    }
    let expected = ECDSAOracle.isValidSignature(
        curve: curve, x963Representation: key, r: r, s: s, digest: signedDigest)
    let actual = publicKey.isValidSignature(r: r, s: s, digest: signedDigest)
    if expected != actual {
        fatalError("verdicts differ (oracle \(String(describing: expected)), fast \(actual)): \(bytes)")
    }
    return 0
}

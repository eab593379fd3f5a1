import EntitlementKit
import Foundation

/// Signs App Store JWS the way Apple does — ES256, the `x5c` chain leaf ← intermediate ← root in the
/// header — with the test kit's **throwaway test chain** (its README says how it was made). The root is
/// not Apple's, so nothing signed here verifies outside a test that trusts ``rootCertificate``.
///
/// ```swift
/// let signer = try AppStoreTestSigner()
/// let jws = signer.sign(payload)                      // a transaction or renewal info payload
/// let provider = AppStoreOnDeviceProvider(source: source, rootCertificates: [signer.rootCertificate])
/// ```
public struct AppStoreTestSigner: Sendable {
    /// The test root (DER): the only root that trusts what this signer signs.
    public let rootCertificate: Data
    /// The header every JWS carries: `alg` ES256 and the chain.
    private let encodedHeader: String
    private let key: TestP256Signer
    /// JWS already made, by payload: signing is slow in a debug build, and a simulation signs the same
    /// transaction at every read.
    private let signed = SignatureMemo()

    /// The test kit's chain, read from its resources.
    public init() throws {
        guard let folder = Bundle.module.url(forResource: "TestChain", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        func read(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
        let root = try read("test-root.der")
        let chain = try [read("test-leaf.der"), read("test-intermediate.der"), root]
        let pem = String(decoding: try read("test-leaf-private-key.NOT-A-SECRET.pem"), as: UTF8.self)
        guard let key = TestP256Signer(pem: pem) else { throw CocoaError(.fileReadCorruptFile) }
        self.key = key
        rootCertificate = root
        let header = JSONValue.object([
            "alg": .string("ES256"), "x5c": .array(chain.map { .string($0.base64EncodedString()) }),
        ])
        encodedHeader = Self.base64URL(Array(header.compactText.utf8))
    }

    /// `payload` (a JSON object: a transaction or renewal info) as a signed JWS.
    public func sign(_ payload: JSONValue) -> String {
        sign(payload: Array(payload.compactText.utf8))
    }

    /// The JSON bytes `payload` as a signed JWS.
    public func sign(payload: [UInt8]) -> String {
        if let jws = signed[payload] { return jws }
        let signingInput = encodedHeader + "." + Self.base64URL(payload)
        let jws = signingInput + "." + Self.base64URL(key.signature(of: Array(signingInput.utf8)))
        signed[payload] = jws
        return jws
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}

/// The signer's memo of JWS by payload, shared by its copies. A class with a lock: signing is synchronous.
private final class SignatureMemo: @unchecked Sendable {
    /// Past this many, the memo starts again (a long simulation never grows it without bound).
    private static let limit = 4096
    // Guards `jws`.
    private let lock = NSLock()
    private var jws: [[UInt8]: String] = [:]

    subscript(payload: [UInt8]) -> String? {
        get { lock.withLock { jws[payload] } }
        set {
            lock.withLock {
                if jws.count >= Self.limit { jws.removeAll() }
                jws[payload] = newValue
            }
        }
    }
}

import EntitlementKit
import Foundation

/// Opens the items of a document — each a JWS string or its payload given decoded — and applies the
/// rules every item obeys whatever it holds: test environments only when allowed, the configured
/// bundle id.
struct AppStoreItemReader: Sendable {
    /// The environments StoreKit testing produces (`Xcode`) and Apple's library tests with
    /// (`LocalTesting`). Apple's servers never sign them.
    static let testEnvironments: Set<String> = ["Xcode", "LocalTesting"]

    var signatures: any AppStoreSignatureChecking
    var allowsUnverifiedTestData: Bool
    var bundleId: String?

    /// The payload of the item at `node` as an object node at the item's own path (so a payload error
    /// reads `signedTransactions[0].expiresDate` whether the item was signed or decoded), and whether
    /// its signature was checked.
    func open(_ node: JSONNode) throws(DocumentError) -> (payload: JSONNode, isVerified: Bool) {
        switch node.kind {
        case .string:
            let jws = try node.string()
            // Test data is read unverified (when allowed); a payload that is trusted is always the one the
            // verification covered.
            return try signatures.payload(of: jws, path: node.path) { payload throws(DocumentError) in
                try isTestData(payload)
            }
        case .object:
            _ = try isTestData(node)
            return (node, false)
        default:
            throw node.typeMismatch("a JWS string or its decoded payload (an object)")
        }
    }

    /// Whether `payload` is test data that may be read; test data that may not be read is an error.
    private func isTestData(_ payload: JSONNode) throws(DocumentError) -> Bool {
        guard let node = try payload.optional(Field.environment), Self.testEnvironments.contains(try node.string())
        else { return false }
        guard allowsUnverifiedTestData else {
            throw node.invalid(
                "is StoreKit test data, which Apple does not sign; it is read only when unverified test data is allowed"
            )
        }
        return true
    }

    /// Checks a transaction's `bundleId` against the configured one.
    func checkBundleId(of payload: JSONNode) throws(DocumentError) {
        guard let bundleId else { return }
        guard let node = try payload.optional(Field.bundleId) else {
            throw DocumentError(
                kind: .missingField, path: payload.path.appending(Field.bundleId),
                reason: "is required when a bundle id is configured (\(DocumentError.shortened(bundleId)))")
        }
        // Bytes, not Swift's canonical equivalence: "café" precomposed and decomposed are different ids.
        guard try node.string().utf8.elementsEqual(bundleId.utf8) else {
            throw node.invalid(
                "is not the configured bundle id \(DocumentError.quoted(bundleId))")
        }
    }

    /// A payload's bytes as an object node at `path`.
    static func payloadNode(_ data: Data, at path: JSONPath) throws(DocumentError) -> JSONNode {
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            throw DocumentError(kind: error.kind, path: path, reason: "holds a payload that is not JSON: \(error)")
        }
        let node = JSONNode(value, path: path)
        guard case .object = value else {
            throw DocumentError(
                kind: .wrongType, path: path, reason: "holds a payload that is \(value.typeDescription), not an object")
        }
        return node
    }
}

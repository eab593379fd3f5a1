import EntitlementKit
import Foundation

/// A deliberately tiny vendor format for testing format detection and bulk conversion without a real
/// backend's adapter: `{"toy": {"user": "alice", "entitlements": [{"id": "premium", "expires": "…" | null}]}}`.
struct ToyAdapter: EntitlementAdapter {
    var provider: ProviderID { ProviderID(rawValue: "toy") }

    func recognizes(_ document: JSONValue) -> Bool {
        document["toy"] != nil
    }

    /// `{"toyError": "…"}` is the toy backend's answer to a failed request: a vendor error, and no
    /// format claims it.
    func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        if let error = document.member("toyError") {
            throw DocumentError(
                kind: .vendorError, path: error.path, offending: error.value, reason: "is a toy error response")
        }
        let toy = try document.required("toy")
        var entitlements: [Entitlement] = []
        for node in try toy.required("entitlements").elements() {
            entitlements.append(
                Entitlement(
                    id: try node.required("id").string(),
                    renewState: .willRenew,
                    store: .appStore,
                    expirationDate: try node.optional("expires")?.date(),
                    at: instant
                ))
        }
        return EntitlementSnapshot(
            provider: provider, appUserId: try toy.optional("user")?.string(),
            evaluatedAt: instant, entitlements: entitlements)
    }
}

/// Another format whose recognizer overlaps the toy one, to test ambiguous detection.
struct GreedyAdapter: EntitlementAdapter {
    var provider: ProviderID { ProviderID(rawValue: "greedy") }

    func recognizes(_ document: JSONValue) -> Bool {
        if case .object = document { return true }
        return false
    }

    func snapshot(from document: JSONNode, at instant: Date) throws(DocumentError) -> EntitlementSnapshot {
        EntitlementSnapshot(provider: provider, evaluatedAt: instant)
    }
}

import EntitlementKit
import Foundation

extension EntitlementSnapshot {
    /// Maps a read Qonversion document, evaluated at `instant`.
    ///
    /// Two elements with the same entitlement id make the document ambiguous (the SDKs silently keep
    /// the later one, which may withdraw or grant access depending on order), so that is an
    /// `inconsistent` error naming the second element.
    init(qonversion document: QonversionWireDocument, provider: ProviderID, at instant: Date) throws(DocumentError) {
        var entitlements: [Entitlement] = []
        entitlements.reserveCapacity(document.entitlements.count)
        // By index: a `for … in` copies each wire entitlement out of the array.
        for index in document.entitlements.indices {
            entitlements.append(Entitlement(qonversion: document.entitlements[index], at: instant))
        }
        self.init(
            provider: provider,
            appUserId: document.userId,
            requestDate: document.serverTime,
            evaluatedAt: instant,
            originalApplicationVersion: document.originalApplicationVersion,
            entitlements: consume entitlements
        )
        // The snapshot holds one entitlement per id, so it holds fewer than the document lists exactly when an id
        // repeats: only then are the ids hashed to find the repeat.
        if self.entitlements.count != document.entitlements.count { try Self.refuseRepeatedId(in: document) }
    }

    /// Throws the `inconsistent` error for the first element whose id an earlier element has.
    private static func refuseRepeatedId(in document: QonversionWireDocument) throws(DocumentError) {
        // Nodes, not paths: a path is spelled out (a walk from the root) only for the error.
        var firstNodeById: [String: JSONNode] = Dictionary(minimumCapacity: document.entitlements.count)
        for wire in document.entitlements {
            if let earlier = firstNodeById[wire.id] {
                throw DocumentError(
                    kind: .inconsistent, path: wire.idNode.path, offending: .string(wire.id),
                    reason: "repeats the entitlement id at \(earlier.path); the response is ambiguous")
            }
            firstNodeById[wire.id] = wire.idNode
        }
    }
}

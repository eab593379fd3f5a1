import Foundation

// Snapshot → JSON: the canonical form of unified-snapshot.md. Every key is written, `null` when unset, except
// the optional `aliases`, written only when set.

extension EntitlementSnapshot {
    /// The snapshot as a JSON value in the unified form (schema version 3): the canonical writer's text
    /// read back (see ``canonicalJSON(compact:)``).
    public var jsonValue: JSONValue { CanonicalJSONEncoder.value { $0.write(self) } }

    /// The canonical JSON text: sorted keys, every key present, UTC dates with `Z`.
    ///
    /// - Parameter compact: one line without spaces (JSON Lines) instead of the pretty form.
    public func canonicalJSON(compact: Bool = false) -> String {
        String(decoding: CanonicalJSONEncoder.encode(self, pretty: !compact), as: UTF8.self)
    }

    /// The compact canonical text followed by `\n`: one JSON Lines record.
    package func canonicalJSONLine() -> Data {
        CanonicalJSONEncoder.encodeLine(self)
    }

    /// ``canonicalJSON(compact:)`` as UTF-8 bytes.
    public func canonicalJSONData(compact: Bool = false) -> Data {
        CanonicalJSONEncoder.encodeData(self, pretty: !compact)
    }
}

extension Entitlement {
    /// The entitlement as a JSON value in the unified form, as the canonical writer writes it.
    public var jsonValue: JSONValue { CanonicalJSONEncoder.value { $0.write(self) } }
}

extension Denial {
    /// `{"code", "raw"}`, as the unified form writes an entitlement's `denial`: `raw` always present.
    public var jsonValue: JSONValue { CanonicalJSONEncoder.value { $0.write(self) } }
}

extension Transaction {
    /// The transaction as a JSON value in the unified form, as the canonical writer writes it.
    public var jsonValue: JSONValue { CanonicalJSONEncoder.value { $0.write(self) } }
}

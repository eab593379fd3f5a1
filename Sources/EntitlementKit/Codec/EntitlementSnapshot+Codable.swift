import Foundation

// `Codable` goes through the unified JSON form, so a snapshot inside an app's own Codable types (a cache
// record, a test fixture) has the same keys, dates and strictness as `canonicalJSON`, whatever the
// encoder's date strategy.

extension EntitlementSnapshot: Codable {
    /// Decodes the unified JSON form; failures surface as `DecodingError.dataCorrupted` carrying the
    /// located ``DocumentError`` as underlying error.
    public init(from decoder: any Decoder) throws {
        self = try decodeThroughJSON(decoder) { node throws(DocumentError) in try EntitlementSnapshot(json: node) }
    }

    /// Encodes the unified JSON form.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

// An entitlement is only `Encodable`: its JSON form has no instant of its own (the snapshot's `evaluatedAt`
// judges it), so it is decoded as part of a snapshot, or with `Entitlement(json:evaluatedAt:)`.
extension Entitlement: Encodable {
    /// Encodes the unified JSON form.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

extension Transaction: Codable {
    /// Decodes one transaction in the unified JSON form.
    public init(from decoder: any Decoder) throws {
        self = try decodeThroughJSON(decoder) { node throws(DocumentError) in try Transaction(json: node) }
    }

    /// Encodes the unified JSON form.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

private func decodeThroughJSON<Value>(
    _ decoder: any Decoder, _ read: (JSONNode) throws(DocumentError) -> Value
) throws -> Value {
    let value = try JSONValue(from: decoder)
    do {
        return try read(JSONNode(value))
    } catch {
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
    }
}

/// Where a record stands among the statements of its kind about one purchase: the greater key is the
/// newer statement. Each source builds its own from its own facts (Apple: `signedDate`, verified, bytes;
/// Play: the fetch instant, bytes; Stripe: `created`, the event's rank, the event id), so any arrival
/// order keeps the same record. Compared part by part; a key that is a prefix of another is smaller.
public struct LedgerOrderKey: Sendable, Hashable, Comparable, Codable {
    /// One part of a key.
    public enum Part: Sendable, Hashable, Comparable, Codable {
        /// A number (milliseconds, a rank).
        case number(Int64)
        /// Bytes, compared lexicographically (an id, a body).
        case bytes([UInt8])

        /// Numbers before bytes; numbers by value, bytes lexicographically.
        public static func < (lhs: Part, rhs: Part) -> Bool {
            switch (lhs, rhs) {
            case (.number(let a), .number(let b)): a < b
            case (.bytes(let a), .bytes(let b)): a.lexicographicallyPrecedes(b)
            case (.number, .bytes): true
            case (.bytes, .number): false
            }
        }
    }

    /// The parts, most significant first.
    public var parts: [Part]

    /// A key of `parts`, most significant first.
    public init(_ parts: [Part]) {
        self.parts = parts
    }

    public static func < (lhs: LedgerOrderKey, rhs: LedgerOrderKey) -> Bool {
        lhs.parts.lexicographicallyPrecedes(rhs.parts)
    }
}

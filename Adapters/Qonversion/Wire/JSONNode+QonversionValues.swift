import EntitlementKit
import Foundation

// Field readers shared by the three wire shapes. Every present, non-null value must have the JSON type
// Qonversion documents for it; `null` and absence both mean "not said". Enumerations are the exception:
// they decide no access, so a value of the wrong type reads as "not recognised", like an unknown string.

extension JSONNode {
    /// The entitlement id of an element: required, a non-empty string. An element without one could be
    /// any entitlement, so it fails the document rather than being skipped.
    func qonversionEntitlementId() throws(DocumentError) -> (id: String, node: JSONNode) {
        let node = try required(Field.id)
        guard let id = try node.identifier() else {
            throw node.invalid("is empty: an entitlement element needs an id")
        }
        return (id, node)
    }

    /// The server's activity flag: `0`/`1` on v1, a JSON boolean on the REST APIs; both are accepted
    /// everywhere. Any other number is refused rather than read as "non-zero means active".
    func qonversionFlag() throws(DocumentError) -> QonversionActiveFlag {
        switch kind {
        case .bool:
            return QonversionActiveFlag(boolean: try bool())
        case .number:
            switch try integer() {
            case 0: return .zero
            case 1: return .one
            default: throw invalid("must be 0 or 1")
            }
        default:
            throw typeMismatch("0 or 1 or a boolean")
        }
    }

    /// `renew_state`: an integer code (v1) or a name (REST, and some v1 servers). Anything else (a
    /// boolean, a fraction) is a code no table lists, so it maps to `unknown`.
    func qonversionRenewState() -> QonversionRenewStateCode {
        if let name = stringValue { return .name(name) }
        if isInteger, let code = try? integer() { return .code(code) }
        guard let number = try? self.number(), number.rounded() == number, abs(number) < 1e15 else { return .name("") }
        return .code(Int64(number))
    }

    /// The member `key` when it is a string; `nil` when absent, `null` or of another JSON type. For
    /// enumerations only, which map every unreadable value to `unknown` and never fail a document.
    func optionalEnumerationString(_ key: String) throws(DocumentError) -> String? {
        try optional(key)?.stringValue
    }

    /// The member `key` as a store transaction id, `nil` when absent, `null` or empty. Servers answering
    /// in 2023 sent the ids as JSON integers, which both SDKs read: an integer is taken as its decimal
    /// string (`2000000123456789` → `"2000000123456789"`). A fraction, a negative number or any other type is
    /// not an id and fails the document.
    func optionalTransactionIdentifier(_ key: String) throws(DocumentError) -> String? {
        guard let node = try optional(key) else { return nil }
        switch node.kind {
        case .number where node.isInteger:
            let number = try node.integer()
            guard number >= 0 else { throw node.invalid("is not a transaction id (negative)") }
            return String(number)
        case .string:
            return try node.identifier()
        case .number:
            // `3.0`, `1e3` or an integer too large to hold exactly: the digits of the id are not known.
            throw node.invalid("is not written as an integer, so it is not a transaction id")
        default:
            throw node.typeMismatch("a string or an integer")
        }
    }

    /// The member `key` as a count of seconds since the epoch (v1, v3), `nil` when absent or `null`.
    func optionalEpochSeconds(_ key: String) throws(DocumentError) -> Date? {
        try optional(key)?.dateFromEpochSeconds()
    }

    /// The member `key` as a count, `nil` when absent or `null`. At most `Int32.max`, the largest count the
    /// unified form stores, so every accepted response can be stored and read back.
    func optionalCount(_ key: String) throws(DocumentError) -> Int? {
        guard let node = try optional(key) else { return nil }
        let count = try node.integer()
        guard count >= 0 else { throw node.invalid("must not be negative") }
        guard count <= Int64(Int32.max) else { throw node.invalid("is larger than any count (2147483647)") }
        return Int(count)
    }

    /// The member `key` as an object, `nil` when absent or `null`.
    func optionalObject(_ key: String) throws(DocumentError) -> JSONNode? {
        guard let node = try optional(key) else { return nil }
        guard node.kind == .object else { throw node.typeMismatch("an object") }
        return node
    }
}

/// Where a value sits inside a JSON document: `subscriber.entitlements.pro.expires_date`,
/// `data.permissions[2].store_transactions[0].type`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// The steps from the document root; empty for the root itself.
    public var components: [Component]

    /// The path of the document root.
    public static let root = JSONPath(components: [])

    /// Creates a path from its steps.
    public init(components: [Component]) {
        self.components = components
    }

    /// The path one object member further down.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// The path one array element further down.
    public func appending(index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// Dotted form; keys that are not plain identifiers are written `["a key"]`, the root is `$`. A key
    /// longer than ``maximumKeyLength`` characters is written shortened, `["kkk…"]`, so a hostile
    /// document cannot make an error message as large as itself.
    public var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if key.utf8.count <= Self.maximumKeyLength, Self.isPlainKey(key) {
                    if !text.isEmpty { text += "." }
                    text += key
                } else {
                    text += "[" + Self.quotedKey(key) + "]"
                }
            }
        }
        return text
    }

    /// The longest key, in characters, written whole in a path or a message.
    public static let maximumKeyLength = 60

    /// `key` as a JSON string for messages, shortened to ``maximumKeyLength`` characters.
    package static func quotedKey(_ key: String) -> String {
        guard key.utf8.count > maximumKeyLength, key.count > maximumKeyLength else { return JSONWriter.quoted(key) }
        return JSONWriter.quoted(String(key.prefix(maximumKeyLength - 1)) + "…")
    }

    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F || byte == 0x2D || byte == 0x24 || byte == 0x3A
            }
    }
}

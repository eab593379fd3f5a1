import Foundation

/// An object's members, indexed by name in one pass, for a reader that looks up many of them.
///
/// ``JSONNode/member(_:)`` steps through the object's keys for every name asked for, so reading a dozen
/// fields of a 17-member object compares about a hundred keys. A `JSONObject` places each key once in a
/// small hash table (held inline, nothing allocated), and each name asked for is then found in about one
/// comparison. Names compare exactly as ``JSONNode/member(_:)`` compares them: the answers are the same.
package struct JSONObject {
    /// The object read.
    package let node: JSONNode
    /// 64 slots of 16 bits, each 0 (empty) or a plain key's tape index relative to the object's, placed
    /// by the key's ``hash(_:count:)`` with linear probing.
    private var slots: [UInt16] = []
    /// Whether a key is not in the table (escaped or non-ASCII): a name the table misses may still equal
    /// it as a string, so it is looked for by scanning.
    private var hasUnindexedKeys = false

    private static let slotCount = 64
    /// Objects with fewer keys are scanned: a few keys compare faster than a table is built.
    private static let smallestIndexedObject = 8
    /// At most this many keys are indexed (the table at most half full).
    private static let indexedKeyLimit = 32

    /// Indexes `node`'s members. Fails when `node` is not an object.
    package init(_ node: JSONNode) throws(DocumentError) {
        try node.requireObject()
        self.node = node
        let document = node.document
        let object = node.index
        let end = document.next(after: object)
        let keyCount = document.childCount(at: object)
        guard end - object <= Int(UInt16.max), keyCount >= Self.smallestIndexedObject, keyCount <= Self.indexedKeyLimit,
            let words = document.tape.baseAddress, let text = document.bytes.baseAddress
        else { return }
        var unindexed = false
        slots = [UInt16](unsafeUninitializedCapacity: Self.slotCount) { table, count in
            table.initialize(repeating: 0)
            count = Self.slotCount
            var key = object + 1
            while key < end {
                let word = words[key]
                let length = JSONDocument.storedLength(of: word)
                if JSONDocument.isASCIIString(word), length != JSONDocument.lengthLimit {
                    var slot = Self.hash(text + JSONDocument.offset(of: word), count: length)
                    while table[slot] != 0 { slot = (slot + 1) & (Self.slotCount - 1) }
                    table[slot] = UInt16(truncatingIfNeeded: key - object)
                } else {
                    unindexed = true
                }
                let value = words[key + 1]
                key += JSONDocument.isContainer(value) ? 2 + JSONDocument.offset(of: value) : 2
            }
        }
        hasUnindexedKeys = unindexed
    }

    /// Where the object sits in its document.
    package var path: JSONPath { node.path }

    /// The member `key` when the object has it, `null` included.
    package func member(_ key: String) -> JSONNode? {
        guard !slots.isEmpty else { return node.member(key) }
        let document = node.document
        let object = node.index
        let unindexed = hasUnindexedKeys
        let found = slots.withUnsafeBufferPointer { table in
            key.utf8.withContiguousStorageIfAvailable { name in
                Self.find(name, table: table, document: document, object: object, hasUnindexedKeys: unindexed)
            }
        }
        guard let found else { return node.member(key) }
        return found.map { JSONNode(document, $0) }
    }

    /// Whether the object has a member `key` (`null` included).
    package func has(_ key: String) -> Bool { member(key) != nil }

    /// The member `key` when present and not `null`.
    package func optional(_ key: String) -> JSONNode? {
        guard let found = member(key), !found.isNull else { return nil }
        return found
    }

    /// The member `key`; absent or `null` is a `missingField` error.
    package func required(_ key: String) throws(DocumentError) -> JSONNode {
        guard let found = optional(key) else { throw DocumentError.missing(key, in: path) }
        return found
    }

    /// The member `key` as an identifier (``JSONNode/identifier()``), `nil` when absent, `null` or empty.
    package func optionalIdentifier(_ key: String) throws(DocumentError) -> String? {
        try optional(key)?.identifier()
    }

    /// The member `key` as an RFC 3339 date-time string (``JSONNode/date()``), `nil` when absent or `null`.
    package func optionalDate(_ key: String) throws(DocumentError) -> Date? {
        try optional(key)?.date()
    }

    /// The tape index of member `name`'s value in the object at `object`, or `nil`, found through `table`.
    private static func find(
        _ name: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt16>, document: JSONDocument, object: Int,
        hasUnindexedKeys: Bool
    ) -> Int? {
        guard name.count < JSONDocument.lengthLimit, let base = name.baseAddress,
            let words = document.tape.baseAddress, let text = document.bytes.baseAddress
        else { return document.member(utf8: name, ofObjectAt: object) }
        // A plain key's kind and length against the name's in one comparison, then its bytes.
        let target = JSONDocument.Kind.asciiString.rawValue << 60 | UInt64(name.count) << 32
        var slot = hash(base, count: name.count)
        while true {
            let relative = Int(table[slot])
            if relative == 0 { break }
            let word = words[object + relative]
            if word & 0xFFFF_FFFF_0000_0000 == target,
                JSONDocument.sameBytes(
                    UnsafeBufferPointer(start: text + JSONDocument.offset(of: word), count: name.count), name)
            {
                return object + relative + 1
            }
            slot = (slot + 1) & (slotCount - 1)
        }
        // Not a plain key. A key the table does not hold, or a name that is not plain ASCII (the Kelvin sign
        // equals `K` as a string), may still be the same string: compared as strings.
        guard hasUnindexedKeys || !JSONDocument.isPlainASCII(name) else { return nil }
        return document.member(utf8: name, ofObjectAt: object)
    }

    /// A slot for `count` bytes at `base`, from their length and their first and last bytes (keys of one
    /// object mostly differ there: `expires_date`, `purchase_date`, `grace_period_expires_date`).
    @inline(__always)
    private static func hash(_ base: UnsafePointer<UInt8>, count: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if count >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            head = UInt64(raw.loadUnaligned(as: UInt32.self))
            tail = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        } else if count > 0 {
            head = UInt64(base[0]) << 16 | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1])
        }
        let mixed = (head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
        return Int(truncatingIfNeeded: ((mixed ^ mixed >> 31) &* 0x94D0_49BB_1331_11EB) >> 58)
    }

}

extension JSONNode {
    /// This object with its members indexed by name (``JSONObject``), for reading many of them. Fails when
    /// this is not an object.
    package func object() throws(DocumentError) -> JSONObject { try JSONObject(self) }
}

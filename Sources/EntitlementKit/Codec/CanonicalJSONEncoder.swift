import Foundation

/// The one writer of the unified form: a snapshot's canonical JSON straight into UTF-8 bytes.
///
/// The keys of the unified form are known, so they are written in their sorted order as literals instead
/// of being sorted per object, strings are copied whole unless a byte needs an escape, and dates are
/// formatted from their integer milliseconds. `migrate` spent most of its time in a tree and the generic
/// writer (issue 12). The trees (``EntitlementSnapshot/jsonValue``, ``Entitlement/jsonValue``, …) are this
/// writer's text read back, so the schema's keys are listed here alone; `CanonicalEncoderTests` checks that
/// the generic writer gives the same bytes for them (sorted keys, the same escapes and dates).
struct CanonicalJSONEncoder: ~Copyable {
    /// The text written so far.
    private var bytes: ByteSink
    private let pretty: Bool
    private var depth = 0
    /// Whether the container being written has no member yet (no comma before the next).
    private var isFirstMember = true

    /// - Parameter pretty: two-space indentation and `"key": value`, with a final newline after the
    ///   top-level value; otherwise one line without spaces.
    init(pretty: Bool, capacity: Int = 4096) {
        self.pretty = pretty
        bytes = ByteSink(capacity: capacity)
    }

    /// The canonical text of `snapshot`.
    static func encode(_ snapshot: EntitlementSnapshot, pretty: Bool) -> [UInt8] {
        var encoder = CanonicalJSONEncoder(pretty: pretty)
        encoder.writeDocument(snapshot)
        return encoder.bytes.array
    }

    /// The canonical text of `snapshot` as `Data`.
    static func encodeData(_ snapshot: EntitlementSnapshot, pretty: Bool) -> Data {
        var encoder = CanonicalJSONEncoder(pretty: pretty)
        encoder.writeDocument(snapshot)
        // Room for the line break a JSON Lines writer appends, so that append does not copy the line again.
        return encoder.bytes.data(spare: 1)
    }

    /// The compact text of `snapshot` and a line break: one JSON Lines record, handed over without a copy.
    static func encodeLine(_ snapshot: EntitlementSnapshot) -> Data {
        var encoder = CanonicalJSONEncoder(pretty: false)
        encoder.write(snapshot)
        encoder.put(0x0A)
        return encoder.bytes.takeData()
    }

    /// What `write` writes, read back as a tree: the unified form's values for callers that build a larger
    /// document around them (cache files, reports).
    static func value(_ write: (inout CanonicalJSONEncoder) -> Void) -> JSONValue {
        var encoder = CanonicalJSONEncoder(pretty: false)
        write(&encoder)
        do {
            return try JSONValue.parse(encoder.bytes.data)
        } catch {
            // The writer escapes every string and writes only integers, dates and literals.
            preconditionFailure("the canonical writer wrote text it cannot read back: \(error)")
        }
    }

    private mutating func writeDocument(_ snapshot: EntitlementSnapshot) {
        write(snapshot)
        if pretty { put(0x0A) }
    }

    // Keys in UTF-8 byte order, as the canonical writer sorts them.
    mutating func write(_ snapshot: EntitlementSnapshot) {
        beginObject()
        key("activeEntitlementIds")
        // The ids sorted once, as positions in the dictionary: `activeEntitlementIds` is the entitlements
        // filtered, and sorting copies of the entitlements (``EntitlementSnapshot/all``) cost more than
        // writing them. Each key is its entitlement's id.
        let entitlements = snapshot.entitlements
        var order = Array(entitlements.indices)
        order.sort { entitlements.keys[$0].utf8.lexicographicallyPrecedes(entitlements.keys[$1].utf8) }
        if !order.contains(where: { entitlements.values[$0].isActive }) {
            raw("[]")
        } else {
            beginArray()
            for index in order where entitlements.values[index].isActive {
                element()
                string(entitlements.keys[index])
            }
            endArray()
        }
        if let aliases = snapshot.aliases {
            // The one optional member: only a ledger's export and replay state the customer's other ids.
            key("aliases")
            if aliases.isEmpty {
                raw("[]")
            } else {
                beginArray()
                for alias in aliases {
                    element()
                    string(alias)
                }
                endArray()
            }
        }
        key("appUserId")
        string(snapshot.appUserId)
        key("entitlements")
        if order.isEmpty {
            raw("{}")
        } else {
            beginObject()
            for index in order {
                dynamicKey(entitlements.keys[index])
                write(entitlements.values[index])
            }
            endObject()
        }
        key("evaluatedAt")
        date(snapshot.evaluatedAt)
        key("firstSeen")
        date(snapshot.firstSeen)
        key("managementUrl")
        string(snapshot.managementURL?.absoluteString)
        key("nonSubscriptionTransactions")
        write(snapshot.nonSubscriptionTransactions)
        key("originalAppUserId")
        string(snapshot.originalAppUserId)
        key("originalApplicationVersion")
        string(snapshot.originalApplicationVersion)
        key("originalPurchaseDate")
        date(snapshot.originalPurchaseDate)
        key("provider")
        string(snapshot.provider.rawValue)
        key("requestDate")
        date(snapshot.requestDate)
        key("schemaVersion")
        integer(Int64(EntitlementSnapshot.schemaVersion))
        key("verification")
        string(snapshot.verification.rawValue)
        endObject()
    }

    mutating func write(_ entitlement: Entitlement) {
        beginObject()
        key("billingIssueDetectedAt")
        date(entitlement.billingIssueDetectedAt)
        key("cancellationReason")
        string(entitlement.cancellationReason?.canonicalRawValue)
        key("cancellationReasonRaw")
        string(entitlement.cancellationReasonRaw)
        key("denial")
        if let denial = entitlement.denial { write(denial) } else { raw("null") }
        key("expirationDate")
        date(entitlement.expirationDate)
        key("firstPurchaseDate")
        date(entitlement.firstPurchaseDate)
        key("gracePeriodExpirationDate")
        date(entitlement.gracePeriodExpirationDate)
        key("grantType")
        string(entitlement.grantType.canonicalRawValue)
        key("id")
        string(entitlement.id)
        key("isActive")
        bool(entitlement.isActive)
        key("isSandbox")
        bool(entitlement.isSandbox)
        key("lastActivatedOfferCode")
        string(entitlement.lastActivatedOfferCode)
        key("latestPurchaseDate")
        date(entitlement.latestPurchaseDate)
        key("originalPurchaseDate")
        date(entitlement.originalPurchaseDate)
        key("ownershipType")
        string(entitlement.ownershipType.canonicalRawValue)
        key("periodType")
        string(entitlement.periodType.canonicalRawValue)
        key("productId")
        string(entitlement.productId)
        key("productPlanId")
        string(entitlement.productPlanId)
        key("refundedAt")
        date(entitlement.refundedAt)
        key("renewState")
        string(entitlement.renewState.canonicalRawValue)
        key("renewsCount")
        if let count = entitlement.renewsCount { integer(Int64(count)) } else { raw("null") }
        key("store")
        string(entitlement.store.canonicalRawValue)
        key("storeRaw")
        string(entitlement.storeRaw)
        key("transactions")
        write(entitlement.transactions)
        key("trialStartDate")
        date(entitlement.trialStartDate)
        key("unsubscribeDetectedAt")
        date(entitlement.unsubscribeDetectedAt)
        key("willRenew")
        bool(entitlement.willRenew)
        endObject()
    }

    mutating func write(_ denial: Denial) {
        beginObject()
        key("code")
        string(denial.code.canonicalRawValue)
        key("raw")
        string(denial.raw)
        endObject()
    }

    private mutating func write(_ transactions: [Transaction]) {
        guard !transactions.isEmpty else { return raw("[]") }
        beginArray()
        for transaction in transactions {
            element()
            write(transaction)
        }
        endArray()
    }

    mutating func write(_ transaction: Transaction) {
        beginObject()
        key("environment")
        string(transaction.environment.canonicalRawValue)
        key("expirationDate")
        date(transaction.expirationDate)
        key("offerCode")
        string(transaction.offerCode)
        key("originalTransactionId")
        string(transaction.originalTransactionId)
        key("ownershipType")
        string(transaction.ownershipType.canonicalRawValue)
        key("productId")
        string(transaction.productId)
        key("revocationDate")
        date(transaction.revocationDate)
        key("store")
        string(transaction.store.canonicalRawValue)
        key("transactionDate")
        date(transaction.transactionDate)
        key("transactionId")
        string(transaction.transactionId)
        key("type")
        string(transaction.type.canonicalRawValue)
        endObject()
    }

    // MARK: Structure

    /// Room for `needed` more bytes at the returned pointer; ``commit(_:)`` what was written. Works on the
    /// sink's storage directly: calls into the JSON module per write are not inlined by this toolchain.
    @inline(__always)
    private mutating func reserve(_ needed: Int) -> UnsafeMutablePointer<UInt8> {
        if bytes.count + needed > bytes.capacity { bytes.grow(to: bytes.count + needed) }
        return bytes.base + bytes.count
    }

    @inline(__always)
    private mutating func commit(_ written: Int) {
        bytes.count += written
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1).pointee = byte
        commit(1)
    }

    private mutating func beginObject() {
        put(UInt8(ascii: "{"))
        depth += 1
        isFirstMember = true
    }

    private mutating func endObject() {
        depth -= 1
        if pretty { newline() }
        put(UInt8(ascii: "}"))
        isFirstMember = false
    }

    private mutating func beginArray() {
        put(UInt8(ascii: "["))
        depth += 1
        isFirstMember = true
    }

    private mutating func endArray() {
        depth -= 1
        if pretty { newline() }
        put(UInt8(ascii: "]"))
        isFirstMember = false
    }

    private mutating func separator() {
        if !isFirstMember { put(UInt8(ascii: ",")) }
        isFirstMember = false
        if pretty { newline() }
    }

    private mutating func element() {
        separator()
    }

    /// A key of the unified form: plain ASCII that needs no escaping. Written in one reservation, with
    /// the separator before it.
    private mutating func key(_ name: StaticString) {
        let length = name.utf8CodeUnitCount
        let start = reserve(length + 6 + 2 * depth)
        var cursor = start
        if !isFirstMember {
            cursor.pointee = UInt8(ascii: ",")
            cursor += 1
        }
        isFirstMember = false
        if pretty { cursor = newline(at: cursor) }
        cursor.pointee = UInt8(ascii: "\"")
        (cursor + 1).update(from: name.utf8Start, count: length)
        cursor += length + 1
        cursor[0] = UInt8(ascii: "\"")
        cursor[1] = UInt8(ascii: ":")
        cursor += 2
        if pretty {
            cursor.pointee = UInt8(ascii: " ")
            cursor += 1
        }
        commit(cursor - start)
    }

    /// A line break and the indentation of `depth` at `cursor` (room reserved by the caller); the end.
    private func newline(at cursor: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        cursor.pointee = 0x0A
        (cursor + 1).update(repeating: 0x20, count: 2 * depth)
        return cursor + 1 + 2 * depth
    }

    /// A key that comes from the data (an entitlement id).
    private mutating func dynamicKey(_ name: String) {
        separator()
        string(name)
        if pretty {
            put(UInt8(ascii: ":"))
            put(UInt8(ascii: " "))
        } else {
            put(UInt8(ascii: ":"))
        }
    }

    private mutating func newline() {
        put(0x0A)
        for _ in 0..<depth {
            put(0x20)
            put(0x20)
        }
    }

    private mutating func raw(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length).update(from: text.utf8Start, count: length)
        commit(length)
    }

    // MARK: Values

    private mutating func bool(_ flag: Bool) {
        flag ? raw("true") : raw("false")
    }

    private mutating func integer(_ value: Int64) {
        guard value >= 0 else { return bytes.append(contentsOf: String(value).utf8) }
        appendDigits(UInt64(value), minimumWidth: 1)
    }

    private mutating func string(_ text: String?) {
        guard let text else { return raw("null") }
        string(text)
    }

    /// A JSON string: the escapes the canonical writer uses (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`,
    /// `\u00XX` in lowercase for other control characters), every other byte copied as it is.
    private mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            // Most strings (ids, enum values) need no escape: copied with their quotes in one reservation.
            if !Self.needsEscape(utf8) {
                let start = reserve(utf8.count + 2)
                start.pointee = UInt8(ascii: "\"")
                if let source = utf8.baseAddress { (start + 1).update(from: source, count: utf8.count) }
                start[utf8.count + 1] = UInt8(ascii: "\"")
                commit(utf8.count + 2)
                return
            }
            put(UInt8(ascii: "\""))
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
            put(UInt8(ascii: "\""))
        }
    }

    /// Whether `utf8` holds a byte the canonical writer escapes (`"`, `\\`, a control character); eight
    /// bytes at a time.
    private static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // Per byte: zero after the xor (a quote or a backslash), or below 0x20 (high bit clear only).
            let marked =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if marked & high != 0 { return true }
            index += 8
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    private mutating func escape(_ byte: UInt8) {
        put(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(byte)
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        case 0x08: put(UInt8(ascii: "b"))
        case 0x0C: put(UInt8(ascii: "f"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            for digit in [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] {
                put(digit)
            }
        }
    }

    private mutating func date(_ date: Date?) {
        guard let date else { return raw("null") }
        self.date(date)
    }

    /// ``RFC3339/string(from:)`` without the intermediate strings.
    private mutating func date(_ date: Date) {
        let milliseconds = date.millisecondsSince1970
        guard RFC3339.supportedMilliseconds.contains(milliseconds) else {
            // Years outside 1…9999 are written by the general formatter; no adapter produces them.
            put(UInt8(ascii: "\""))
            bytes.append(contentsOf: RFC3339.string(from: date).utf8)
            put(UInt8(ascii: "\""))
            return
        }
        let (year, month, day, millisecondOfDay) = CivilCalendar.components(ofMilliseconds: milliseconds)
        // `"YYYY-MM-DDTHH:MM:SS.sssZ"` at most: written in place in one reservation.
        let start = reserve(26)
        start[0] = UInt8(ascii: "\"")
        Self.twoDigits(year / 100, at: start + 1)
        Self.twoDigits(year % 100, at: start + 3)
        start[5] = UInt8(ascii: "-")
        Self.twoDigits(month, at: start + 6)
        start[8] = UInt8(ascii: "-")
        Self.twoDigits(day, at: start + 9)
        start[11] = UInt8(ascii: "T")
        Self.twoDigits(millisecondOfDay / 3_600_000, at: start + 12)
        start[14] = UInt8(ascii: ":")
        Self.twoDigits(millisecondOfDay / 60_000 % 60, at: start + 15)
        start[17] = UInt8(ascii: ":")
        Self.twoDigits(millisecondOfDay / 1000 % 60, at: start + 18)
        var length = 20
        let fraction = millisecondOfDay % 1000
        if fraction != 0 {
            start[20] = UInt8(ascii: ".")
            start[21] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: fraction / 100)
            Self.twoDigits(fraction % 100, at: start + 22)
            length = 24
        }
        start[length] = UInt8(ascii: "Z")
        start[length + 1] = UInt8(ascii: "\"")
        commit(length + 2)
    }

    /// `value` (0…99) as two decimal digits at `cursor`.
    @inline(__always)
    private static func twoDigits(_ value: Int64, at cursor: UnsafeMutablePointer<UInt8>) {
        cursor[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        cursor[1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
    }

    /// The decimal digits of `value`, zero-padded on the left to `minimumWidth`.
    private mutating func appendDigits(_ value: UInt64, minimumWidth: Int) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        guard value < 10_000_000_000 else { return bytes.append(contentsOf: String(value).utf8) }
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            while count < minimumWidth {
                buffer[count] = UInt8(ascii: "0")
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { put(buffer[index]) }
        }
    }
}

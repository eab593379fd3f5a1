import Foundation

/// The one writer of the unified form: a snapshot's canonical JSON straight into UTF-8 bytes.
///
/// The keys of the unified form are known, so they are written in their sorted order, each with the
/// punctuation around it in one copy, instead of being sorted per object; strings are copied whole unless a
/// byte needs an escape, and dates are formatted from their integer milliseconds. The writer writes the
/// compact form only, which is what `migrate` writes per record; the pretty form is that text indented
/// (``indented(_:)``), so the schema's layout is written once. The trees (``EntitlementSnapshot/jsonValue``,
/// ``Entitlement/jsonValue``, …) are this writer's text read back; the keys are ``UnifiedSchemaKey``'s, shared
/// with the reader, and `CanonicalEncoderTests` checks that the generic writer gives the same bytes for them
/// (sorted keys, the same escapes and dates, the same indentation).
struct CanonicalJSONEncoder: ~Copyable {
    /// The text written so far.
    private var bytes: ByteSink

    init(capacity: Int = 4096) {
        bytes = ByteSink(capacity: capacity)
    }

    /// The canonical text of `snapshot`.
    ///
    /// - Parameter pretty: two-space indentation and `"key": value`, with a final newline after the
    ///   top-level value; otherwise one line without spaces.
    static func encode(_ snapshot: EntitlementSnapshot, pretty: Bool) -> [UInt8] {
        var encoder = CanonicalJSONEncoder()
        encoder.write(snapshot)
        guard pretty else { return encoder.bytes.array }
        return Self.indented(encoder.bytes).array
    }

    /// The canonical text of `snapshot` as `Data`.
    static func encodeData(_ snapshot: EntitlementSnapshot, pretty: Bool) -> Data {
        var encoder = CanonicalJSONEncoder()
        encoder.write(snapshot)
        // Room for the line break a JSON Lines writer appends, so that append does not copy the line again.
        guard pretty else { return encoder.bytes.data(spare: 1) }
        return Self.indented(encoder.bytes).data(spare: 1)
    }

    /// The compact text of `snapshot` and a line break: one JSON Lines record, handed over without a copy.
    static func encodeLine(_ snapshot: EntitlementSnapshot) -> Data {
        var encoder = CanonicalJSONEncoder()
        encoder.write(snapshot)
        encoder.put(0x0A)
        return encoder.bytes.takeData()
    }

    /// What `write` writes, read back as a tree: the unified form's values for callers that build a larger
    /// document around them (cache files, reports).
    static func value(_ write: (inout CanonicalJSONEncoder) -> Void) -> JSONValue {
        var encoder = CanonicalJSONEncoder()
        write(&encoder)
        do {
            return try JSONValue.parse(encoder.bytes.data)
        } catch {
            // The writer escapes every string and writes only integers, dates and literals.
            preconditionFailure("the canonical writer wrote text it cannot read back: \(error)")
        }
    }

    // Keys in UTF-8 byte order, as the canonical writer sorts them.
    mutating func write(_ snapshot: EntitlementSnapshot) {
        // The dictionary's positions sorted by id (each key is its entitlement's id), and each entitlement read
        // where it is: reading a dictionary value copies the whole entitlement, and so does handing an element of
        // a copied-out array to `write`, so the value is read once, straight into `write`.
        let entitlements = snapshot.entitlements
        var sorted = Array(entitlements.indices)
        sorted.sort { entitlements.keys[$0].utf8.lexicographicallyPrecedes(entitlements.keys[$1].utf8) }
        member(.activeEntitlementIds, first: true)
        var isFirst = true
        for index in sorted where entitlements.values[index].isActive {
            put(isFirst ? UInt8(ascii: "[") : UInt8(ascii: ","))
            isFirst = false
            string(entitlements.keys[index])
        }
        if isFirst { put(UInt8(ascii: "[")) }
        put(UInt8(ascii: "]"))
        if let aliases = snapshot.aliases {
            // The one optional member: only a ledger's export and replay state the customer's other ids.
            member(.aliases)
            array(aliases) { $0.string($1) }
        }
        member(.appUserId)
        string(snapshot.appUserId)
        member(.entitlements)
        if sorted.isEmpty { put(UInt8(ascii: "{")) }
        for (position, index) in sorted.enumerated() {
            put(position == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            string(entitlements.keys[index])
            put(UInt8(ascii: ":"))
            write(entitlements.values[index])
        }
        put(UInt8(ascii: "}"))
        member(.evaluatedAt)
        date(snapshot.evaluatedAt)
        member(.firstSeen)
        date(snapshot.firstSeen)
        member(.managementUrl)
        string(snapshot.managementURL?.absoluteString)
        member(.nonSubscriptionTransactions)
        array(snapshot.nonSubscriptionTransactions) { $0.write($1) }
        member(.originalAppUserId)
        string(snapshot.originalAppUserId)
        member(.originalApplicationVersion)
        string(snapshot.originalApplicationVersion)
        member(.originalPurchaseDate)
        date(snapshot.originalPurchaseDate)
        member(.provider)
        string(snapshot.provider.rawValue)
        member(.requestDate)
        date(snapshot.requestDate)
        member(.schemaVersion)
        integer(Int64(EntitlementSnapshot.schemaVersion))
        member(.verification)
        string(snapshot.verification.rawValue)
        put(UInt8(ascii: "}"))
    }

    mutating func write(_ entitlement: Entitlement) {
        member(.billingIssueDetectedAt, first: true)
        date(entitlement.billingIssueDetectedAt)
        member(.cancellationReason)
        value(entitlement.cancellationReason)
        member(.cancellationReasonRaw)
        string(entitlement.cancellationReasonRaw)
        member(.denial)
        if let denial = entitlement.denial { write(denial) } else { raw("null") }
        member(.expirationDate)
        date(entitlement.expirationDate)
        member(.firstPurchaseDate)
        date(entitlement.firstPurchaseDate)
        member(.gracePeriodExpirationDate)
        date(entitlement.gracePeriodExpirationDate)
        member(.grantType)
        value(entitlement.grantType)
        member(.id)
        string(entitlement.id)
        member(.isActive)
        bool(entitlement.isActive)
        member(.isSandbox)
        bool(entitlement.isSandbox)
        member(.lastActivatedOfferCode)
        string(entitlement.lastActivatedOfferCode)
        member(.latestPurchaseDate)
        date(entitlement.latestPurchaseDate)
        member(.originalPurchaseDate)
        date(entitlement.originalPurchaseDate)
        member(.ownershipType)
        value(entitlement.ownershipType)
        member(.periodType)
        value(entitlement.periodType)
        member(.productId)
        string(entitlement.productId)
        member(.productPlanId)
        string(entitlement.productPlanId)
        member(.refundedAt)
        date(entitlement.refundedAt)
        member(.renewState)
        value(entitlement.renewState)
        member(.renewsCount)
        if let count = entitlement.renewsCount { integer(Int64(count)) } else { raw("null") }
        member(.store)
        value(entitlement.store)
        member(.storeRaw)
        string(entitlement.storeRaw)
        member(.transactions)
        array(entitlement.transactions) { $0.write($1) }
        member(.trialStartDate)
        date(entitlement.trialStartDate)
        member(.unsubscribeDetectedAt)
        date(entitlement.unsubscribeDetectedAt)
        member(.willRenew)
        bool(entitlement.willRenew)
        put(UInt8(ascii: "}"))
    }

    mutating func write(_ denial: Denial) {
        member(.code, first: true)
        value(denial.code)
        member(.raw)
        string(denial.raw)
        put(UInt8(ascii: "}"))
    }

    mutating func write(_ transaction: Transaction) {
        member(.environment, first: true)
        value(transaction.environment)
        member(.expirationDate)
        date(transaction.expirationDate)
        member(.offerCode)
        string(transaction.offerCode)
        member(.originalTransactionId)
        string(transaction.originalTransactionId)
        member(.ownershipType)
        value(transaction.ownershipType)
        member(.productId)
        string(transaction.productId)
        member(.revocationDate)
        date(transaction.revocationDate)
        member(.store)
        value(transaction.store)
        member(.transactionDate)
        date(transaction.transactionDate)
        member(.transactionId)
        string(transaction.transactionId)
        member(.type)
        value(transaction.type)
        put(UInt8(ascii: "}"))
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

    /// `{"key":` for an object's first member (`first`), else `,"key":`: the key with its punctuation in one
    /// reservation.
    @inline(__always)
    private mutating func member(_ key: UnifiedSchemaKey, first: Bool = false) {
        let length = key.name.utf8CodeUnitCount
        let start = reserve(length + 4)
        start[0] = first ? UInt8(ascii: "{") : UInt8(ascii: ",")
        start[1] = UInt8(ascii: "\"")
        (start + 2).update(from: key.name.utf8Start, count: length)
        start[length + 2] = UInt8(ascii: "\"")
        start[length + 3] = UInt8(ascii: ":")
        commit(length + 4)
    }

    /// `elements` as a JSON array, each written by `write`.
    private mutating func array<Element>(
        _ elements: [Element], _ write: (inout CanonicalJSONEncoder, Element) -> Void
    ) {
        guard !elements.isEmpty else { return raw("[]") }
        for index in elements.indices {
            put(index == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
            write(&self, elements[index])
        }
        put(UInt8(ascii: "]"))
    }

    @inline(__always)
    private mutating func raw(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length).update(from: text.utf8Start, count: length)
        commit(length)
    }

    /// The pretty form of the compact text `compact`: two-space indentation, `"key": value`, empty
    /// containers as `[]` and `{}`, and a final newline. Bytes inside strings are copied as they are.
    private static func indented(_ compact: borrowing ByteSink) -> ByteSink {
        let text = UnsafeBufferPointer(start: compact.base, count: compact.count)
        var output = ByteSink(capacity: compact.count * 2 + 64)
        var depth = 0
        var inString = false
        var escaped = false
        func newline(_ output: inout ByteSink, _ depth: Int) {
            output.append(0x0A)
            for _ in 0..<depth {
                output.append(0x20)
                output.append(0x20)
            }
        }
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                output.append(byte)
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                output.append(byte)
                if index < text.count, text[index] == byte + 2 {
                    // `{}` and `[]`: an empty container stays on its line.
                    output.append(text[index])
                    index += 1
                } else {
                    depth += 1
                    newline(&output, depth)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline(&output, depth)
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                newline(&output, depth)
            case UInt8(ascii: ":"):
                output.append(byte)
                output.append(0x20)
            default:
                output.append(byte)
            }
        }
        output.append(0x0A)
        return output
    }

    // MARK: Values

    private mutating func bool(_ flag: Bool) {
        flag ? raw("true") : raw("false")
    }

    private mutating func integer(_ value: Int64) {
        guard value >= 0 else { return bytes.append(contentsOf: String(value).utf8) }
        appendDigits(UInt64(value), minimumWidth: 1)
    }

    /// An enumeration's value as the unified form writes it (``OpenEnumeration/canonicalRawValue``), or
    /// `null`. Written without looking for bytes to escape: a canonical value is one of the schema's own
    /// camelCase literals.
    private mutating func value(_ value: (some OpenEnumeration)?) {
        guard let value else { return raw("null") }
        self.value(value)
    }

    /// ``OpenEnumeration/canonicalRawValue`` of a value that is there, its raw value lent rather than copied out.
    private mutating func value<Value: OpenEnumeration>(_ value: Value) {
        if value.isKnown { literal(value.rawValue) } else { literal(Value.unknown.rawValue) }
    }

    /// `text` between quotes without looking for bytes to escape: one of the schema's own literals.
    private mutating func literal(_ text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { quoted($0) }
        if written == nil { string(text) }
    }

    private mutating func string(_ text: String?) {
        guard let text else { return raw("null") }
        string(text)
    }

    /// A JSON string: the escapes the canonical writer uses (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`,
    /// `\u00XX` in lowercase for other control characters), every other byte copied as it is.
    private mutating func string(_ text: String) {
        // Native strings lend their bytes without the copy `withUTF8` needs (it is mutating).
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { string(utf8: $0) }
        if written == nil {
            var text = text
            text.withUTF8 { string(utf8: $0) }
        }
    }

    private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        // Most strings (ids, enum values) need no escape: copied with their quotes in one reservation.
        if !Self.needsEscape(utf8) { return quoted(utf8) }
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

    /// `utf8` between quotes, in one reservation: text that needs no escape.
    @inline(__always)
    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let start = reserve(utf8.count + 2)
        start.pointee = UInt8(ascii: "\"")
        if let source = utf8.baseAddress { (start + 1).update(from: source, count: utf8.count) }
        start[utf8.count + 1] = UInt8(ascii: "\"")
        commit(utf8.count + 2)
    }

    /// Whether `utf8` holds a byte the canonical writer escapes (`"`, `\\`, a control character); eight
    /// bytes at a time, the last eight overlapping the word before, and a shorter string as one word
    /// padded with a byte that needs no escape.
    private static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let count = utf8.count
        guard count >= 8 else {
            var word = 0x4141_4141_4141_4141 as UInt64
            withUnsafeMutableBytes(of: &word) { padded in
                for index in 0..<count { padded[index] = base[index] }
            }
            return marksEscape(word)
        }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= count {
            if marksEscape(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        return index < count && marksEscape(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether one of the eight bytes of `word` may need an escape: exact for every byte up to the first
    /// that does (a borrow can mark bytes after it, which only sends the string to the exact loop).
    @inline(__always)
    private static func marksEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        // Per byte: zero after the xor (a quote or a backslash), or below 0x20 (high bit clear only).
        let marked = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
        return marked & 0x8080_8080_8080_8080 != 0
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
        // The year (1…9999) and the time of day in 32 bits, whose divisions by constants are the cheapest.
        let (seconds, fraction) = UInt32(truncatingIfNeeded: millisecondOfDay).quotientAndRemainder(dividingBy: 1000)
        let (hour, secondOfHour) = seconds.quotientAndRemainder(dividingBy: 3600)
        let (minute, second) = secondOfHour.quotientAndRemainder(dividingBy: 60)
        let (century, yearOfCentury) = UInt32(truncatingIfNeeded: year).quotientAndRemainder(dividingBy: 100)
        // `"YYYY-MM-DDTHH:MM:SS.sssZ"` at most: written in place in one reservation.
        let start = reserve(26)
        start[0] = UInt8(ascii: "\"")
        Self.twoDigits(century, at: start + 1)
        Self.twoDigits(yearOfCentury, at: start + 3)
        start[5] = UInt8(ascii: "-")
        Self.twoDigits(UInt32(truncatingIfNeeded: month), at: start + 6)
        start[8] = UInt8(ascii: "-")
        Self.twoDigits(UInt32(truncatingIfNeeded: day), at: start + 9)
        start[11] = UInt8(ascii: "T")
        Self.twoDigits(hour, at: start + 12)
        start[14] = UInt8(ascii: ":")
        Self.twoDigits(minute, at: start + 15)
        start[17] = UInt8(ascii: ":")
        Self.twoDigits(second, at: start + 18)
        var length = 20
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

    /// `value` (0…99) as two decimal digits at `cursor`, copied from the table of the hundred pairs.
    @inline(__always)
    private static func twoDigits(_ value: UInt32, at cursor: UnsafeMutablePointer<UInt8>) {
        let pairs = UnsafeRawPointer(digitPairs.utf8Start).loadUnaligned(
            fromByteOffset: 2 * Int(value), as: UInt16.self)
        UnsafeMutableRawPointer(cursor).storeBytes(of: pairs, as: UInt16.self)
    }

    /// `00`, `01`, … `99`: a constant in the binary (computed, so no lazy initialization guards it).
    private static var digitPairs: StaticString {
        """
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
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

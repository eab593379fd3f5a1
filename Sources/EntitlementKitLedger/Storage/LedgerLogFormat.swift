import Foundation

/// The bytes of a ``DirectoryLedgerStore``'s log (`ledger.log`), all integers little-endian:
///
/// - the file: `EKLEDGR1`, then records;
/// - a record (one commit): a 24-byte head — `u32` mark, `u32` body length, `u64` sequence (1, 2, … in
///   the file), `u32` row count, `u32` CRC-32C of the head's first 20 bytes — then its rows;
/// - a row: `u32` key length, `u32` value length, `u8` table, `u8` kind (removed, value, damaged), `u32`
///   CRC-32C of the value, `u32` CRC-32C of these 14 bytes and the key; then the key (UTF-8), the value.
///
/// The row's own checksums let a damaged value refuse that row only; a damaged head or frame makes the
/// log unreadable past it (nothing after it can be placed), which the store refuses as a whole.
/// CRC-32C finds accidental damage (a disk's, a torn write's); like the SHA-256 it replaces, it is no
/// defence against a writer that means harm — the directory's permissions are.
enum LedgerLogFormat {
    static let fileMagic: [UInt8] = Array("EKLEDGR1".utf8)
    static let recordMark: UInt32 = 0x4C47_5245
    static let recordHeadSize = 24
    static let rowHeadSize = 18
    /// A record larger than this is damage, not a commit (a commit writes a few rows).
    static let maximumRecordBody = 1 << 30

    enum Kind: UInt8 {
        case removed = 0
        case value = 1
        /// A row an earlier layout held damaged: its key is known, its value is not.
        case damaged = 2
    }

    /// A table's number in the log; stable whatever the order of ``LedgerTable``'s cases.
    static func code(_ table: LedgerTable) -> UInt8 {
        switch table {
        case .threads: 1
        case .statements: 2
        case .threadAliases: 3
        case .customers: 4
        case .appUserIds: 5
        case .accountLinks: 6
        case .unlinkedThreads: 7
        case .notifications: 8
        case .counters: 9
        case .purchaseLinks: 10
        }
    }

    static let tables: [UInt8: LedgerTable] = Dictionary(
        uniqueKeysWithValues: LedgerTable.allCases.map { (code($0), $0) })

    /// A row to write.
    struct Row {
        var table: LedgerTable
        var key: String
        var kind: Kind
        var value: Data
    }

    /// The bytes of one record holding `rows`.
    static func record(sequence: UInt64, rows: [Row]) -> [UInt8] {
        var frames: [RowFrame] = []
        return record(sequence: sequence, rows: rows, frames: &frames)
    }

    /// The bytes of one record holding `rows`, and in `frames` where each row's value is in them (what
    /// ``parse(_:)`` would find, without reading the bytes again).
    static func record(sequence: UInt64, rows: [Row], frames: inout [RowFrame]) -> [UInt8] {
        let bodySize = rows.reduce(0) { $0 + rowHeadSize + $1.key.utf8.count + $1.value.count }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(recordHeadSize + bodySize)
        append(recordMark, to: &bytes)
        append(UInt32(bodySize), to: &bytes)
        append(sequence, to: &bytes)
        append(UInt32(rows.count), to: &bytes)
        append(CRC32C.checksum(bytes), to: &bytes)
        frames.reserveCapacity(rows.count)
        for row in rows { frames.append(appendRow(row, to: &bytes)) }
        return bytes
    }

    /// Appends `row`'s bytes; where its value is in `bytes`.
    @discardableResult
    static func appendRow(_ row: Row, to bytes: inout [UInt8]) -> RowFrame {
        let start = bytes.count
        var key = row.key
        let keyLength = key.utf8.count
        let valueCRC = row.value.withUnsafeBytes { CRC32C.checksum($0) }
        append(UInt32(keyLength), to: &bytes)
        append(UInt32(row.value.count), to: &bytes)
        bytes.append(code(row.table))
        bytes.append(row.kind.rawValue)
        append(valueCRC, to: &bytes)
        var headCRC = bytes[start...].withUnsafeBytes { CRC32C.checksum($0) }
        key.withUTF8 { key in
            headCRC = CRC32C.checksum(UnsafeRawBufferPointer(key), continuing: headCRC)
            append(headCRC, to: &bytes)
            bytes.append(contentsOf: key)
        }
        let valueStart = bytes.count
        bytes.append(contentsOf: row.value)
        return RowFrame(
            table: row.table, key: row.key, kind: row.kind, valueStart: valueStart, valueLength: row.value.count,
            valueCRC: valueCRC)
    }

    static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    static func uint32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    static func uint64(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// A row as read from a record: where its value is (relative to the record's bytes).
    struct RowFrame {
        var table: LedgerTable
        var key: String
        var kind: Kind
        var valueStart: Int
        var valueLength: Int
        var valueCRC: UInt32
    }

    /// What the bytes at the start of `bytes` hold.
    enum Parsed {
        /// A whole record, `length` bytes, with its sequence and rows.
        case record(length: Int, sequence: UInt64, rows: [RowFrame])
        /// Fewer bytes than the record needs: the end of what is written (a commit in progress, or one
        /// a killed writer left unfinished); `length` is the record's whole size when its head is whole.
        case incomplete(length: Int?)
        /// A head of zeros: the end of what is written when only zeros follow (a file system may extend
        /// a file cut by a power loss with zeros), else damage.
        case zeros
        /// Bytes that are no record (`reason`).
        case damaged(String)
    }

    /// Parses the record at the start of `bytes`.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Parsed {
        guard bytes.count >= recordHeadSize else { return .incomplete(length: nil) }
        if bytes[0..<recordHeadSize].allSatisfy({ $0 == 0 }) { return .zeros }
        guard uint32(bytes, 0) == recordMark,
            uint32(bytes, 20) == CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<20]))
        else { return .damaged("a record's head does not match its checksum") }
        let bodyLength = Int(uint32(bytes, 4))
        guard bodyLength <= maximumRecordBody else { return .damaged("a record's length is out of range") }
        let length = recordHeadSize + bodyLength
        guard bytes.count >= length else { return .incomplete(length: length) }
        let count = Int(uint32(bytes, 16))
        var rows: [RowFrame] = []
        rows.reserveCapacity(min(count, bodyLength / rowHeadSize))
        var offset = recordHeadSize
        for _ in 0..<count {
            guard length - offset >= rowHeadSize else { return .damaged("a record's rows overrun it") }
            let keyLength = Int(uint32(bytes, offset))
            let valueLength = Int(uint32(bytes, offset + 4))
            let keyStart = offset + rowHeadSize
            guard keyLength <= length - keyStart, valueLength <= length - keyStart - keyLength else {
                return .damaged("a record's rows overrun it")
            }
            var crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 14)]))
            crc = CRC32C.checksum(
                UnsafeRawBufferPointer(rebasing: bytes[keyStart..<(keyStart + keyLength)]), continuing: crc)
            guard crc == uint32(bytes, offset + 14), let table = tables[bytes[offset + 8]],
                let kind = Kind(rawValue: bytes[offset + 9])
            else { return .damaged("a row's head does not match its checksum") }
            let key = String(
                decoding: UnsafeRawBufferPointer(rebasing: bytes[keyStart..<(keyStart + keyLength)]), as: UTF8.self)
            rows.append(
                RowFrame(
                    table: table, key: key, kind: kind, valueStart: keyStart + keyLength, valueLength: valueLength,
                    valueCRC: uint32(bytes, offset + 10)))
            offset = keyStart + keyLength + valueLength
        }
        guard offset == length else { return .damaged("a record's length does not match its rows") }
        return .record(length: length, sequence: uint64(bytes, 8), rows: rows)
    }
}

/// CRC-32C (Castagnoli), the checksum of the log's heads and values; eight bytes a step (slicing by 8).
enum CRC32C {
    /// Table `k` (at `k * 256`) holds the CRC of a byte followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = ~previous
        tables.withUnsafeBufferPointer { table in
            var offset = 0
            while bytes.count - offset >= 8 {
                let word =
                    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                    ^ UInt64(crc)
                crc =
                    table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
                    ^ table[3 * 256 + Int((word >> 32) & 0xFF)] ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
                    ^ table[256 + Int((word >> 48) & 0xFF)] ^ table[Int(word >> 56)]
                offset += 8
            }
            while offset < bytes.count {
                crc = table[Int((crc ^ UInt32(bytes[offset])) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
        }
        return ~crc
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}

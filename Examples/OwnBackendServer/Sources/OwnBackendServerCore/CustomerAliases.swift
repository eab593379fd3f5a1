import EntitlementKitLedger
import Foundation

/// The app user ids of the customer an id belongs to, read through the store: the login route needs it to
/// tell an anonymous id no identified customer holds from one that was logged in already, and the ledger
/// has no public call that answers it for one id (``EntitlementLedger/namedCustomers()`` reads them all).
///
/// It reads two of the ledger's rows as the ledger writes them — `appUserIds` (the customer's number) and
/// the head of `customers` (its number, then its ids) — in the current layout (a version byte `0xB2`, then
/// fields: unsigned LEB128 numbers, signed ones zig-zagged first, strings prefixed with their byte count)
/// or the first one (JSON). A row in neither is a storage failure (503), never a guess: the login is
/// refused until it reads. The end-to-end sessions test fails the day the layout moves on.
struct CustomerAliases: Sendable {
    let store: any LedgerStore

    /// The ids of `appUserId`'s customer, the original first; empty when no customer has it.
    func ids(of appUserId: String) async throws(LedgerRefusal) -> [String] {
        try await store.transaction { transaction throws(LedgerRefusal) in
            guard let number = try await transaction.value(in: .appUserIds, key: appUserId) else { return [] }
            let id = try Self.customerNumber(number)
            guard let row = try await transaction.value(in: .customers, key: String(id)) else { return [] }
            return try Self.appUserIds(row)
        }
    }

    static let currentLayout: UInt8 = 0xB2

    static func customerNumber(_ row: Data) throws(LedgerRefusal) -> Int64 {
        if row.first == currentLayout {
            var reader = RowReader(row.dropFirst())
            return try reader.integer()
        }
        do {
            return try JSONDecoder().decode(LedgerCustomerID.self, from: row).rawValue
        } catch {
            throw LedgerRefusal(.storage, "an appUserIds row does not read")
        }
    }

    static func appUserIds(_ row: Data) throws(LedgerRefusal) -> [String] {
        if row.first == currentLayout {
            var reader = RowReader(row.dropFirst())
            _ = try reader.integer()
            return try (0..<reader.count()).map { _ throws(LedgerRefusal) in try reader.string() }
        }
        do {
            return try JSONDecoder().decode(LedgerCustomer.self, from: row).appUserIds
        } catch {
            throw LedgerRefusal(.storage, "a customers row does not read")
        }
    }

    /// The leading fields of a row of the current layout.
    struct RowReader {
        private let bytes: [UInt8]
        private var offset = 0

        init(_ bytes: some Collection<UInt8>) { self.bytes = Array(bytes) }

        mutating func unsigned() throws(LedgerRefusal) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            throw LedgerRefusal(.storage, "a customer row ends inside a number")
        }

        mutating func integer() throws(LedgerRefusal) -> Int64 {
            let value = try unsigned()
            return Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
        }

        mutating func count() throws(LedgerRefusal) -> Int {
            let value = try unsigned()
            guard value <= UInt64(bytes.count - offset) else {
                throw LedgerRefusal(.storage, "a customer row counts more than it holds")
            }
            return Int(value)
        }

        mutating func string() throws(LedgerRefusal) -> String {
            let length = try count()
            defer { offset += length }
            guard let text = String(bytes: bytes[offset..<offset + length], encoding: .utf8) else {
                throw LedgerRefusal(.storage, "a customer row holds an id that is not UTF-8")
            }
            return text
        }
    }
}

import EntitlementKit
import Foundation

/// A purchase's identity in the ledger: its source and the source's key for it.
public struct LedgerThreadID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The source.
    public var source: LedgerSourceID
    /// The source's key (`originalTransactionId`, the first purchase token, a subscription id).
    public var key: String

    /// The thread `key` of `source`.
    public init(source: LedgerSourceID, key: String) {
        self.source = source
        self.key = key
    }

    /// `source:key`.
    public var description: String { "\(source.rawValue):\(key)" }

    public static func < (lhs: LedgerThreadID, rhs: LedgerThreadID) -> Bool {
        lhs.source != rhs.source ? lhs.source < rhs.source : lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
    }
}

/// One purchase's life: the newest record of each statement, and who owns it.
public struct LedgerThread: Sendable, Hashable, Codable {
    /// The thread.
    public var id: LedgerThreadID
    /// The newest record of each statement, sorted by statement.
    public internal(set) var records: [LedgerRecord]
    /// The customer that owns it (named by the customer's first app user id), or `nil` while unlinked.
    public internal(set) var owner: LedgerCustomerID?

    package init(id: LedgerThreadID) {
        self.id = id
        self.records = []
    }

    init(id: LedgerThreadID, records: [LedgerRecord], owner: LedgerCustomerID?) {
        self.id = id
        self.records = records
        self.owner = owner
    }

    /// Keeps `record` when it is newer than the kept record of its statement (or the first of it);
    /// whether the thread changed.
    package mutating func keep(_ record: LedgerRecord) -> Bool {
        if let index = records.firstIndex(where: { $0.statement == record.statement }) {
            guard records[index].order < record.order else { return false }
            records[index] = record
            return true
        }
        let index = records.firstIndex { record.statement.utf8.lexicographicallyPrecedes($0.statement.utf8) }
        records.insert(record, at: index ?? records.endIndex)
        return true
    }
}

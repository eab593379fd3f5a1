/// A customer's identity in a ledger: a number that never changes (the older of two customers has the
/// smaller one), whatever ids are aliased to it.
public struct LedgerCustomerID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The number.
    public var rawValue: Int64

    /// The customer numbered `rawValue`.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: LedgerCustomerID, rhs: LedgerCustomerID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A customer: the app user ids aliased to it (the first is the original) and the purchases it owns.
public struct LedgerCustomer: Sendable, Hashable, Codable {
    /// Its number.
    public let id: LedgerCustomerID
    /// Its app user ids, the original first.
    public internal(set) var appUserIds: [String]
    /// The threads it owns, sorted.
    public internal(set) var threads: [LedgerThreadID]
    /// Made from a record's token that no one registered, and its id not yet used by the app (read,
    /// posted as, logged in from or to): a later `link` of that token moves its purchases to the
    /// customer linked and removes it. Absent (not `false`) in the stored row of every other customer.
    var placeholder: Bool?

    init(id: LedgerCustomerID, appUserIds: [String], threads: [LedgerThreadID] = [], placeholder: Bool = false) {
        self.id = id
        self.appUserIds = appUserIds
        self.threads = threads
        self.placeholder = placeholder ? true : nil
    }

    /// Whether it is still a placeholder.
    public var isPlaceholder: Bool { placeholder == true }

    /// The original app user id.
    public var originalAppUserId: String { appUserIds.first ?? "" }

    mutating func own(_ thread: LedgerThreadID) {
        guard !threads.contains(thread) else { return }
        threads.append(thread)
        threads.sort()
    }

    mutating func disown(_ thread: LedgerThreadID) {
        threads.removeAll { $0 == thread }
    }
}

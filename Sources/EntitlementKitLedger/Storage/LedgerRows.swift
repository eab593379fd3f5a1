import Foundation

/// The ledger's typed view of one store transaction: each row's key and JSON form.
struct LedgerRows: Sendable {
    let transaction: any LedgerStoreTransaction

    private static func decode<Value: Decodable>(_ type: Value.Type, _ data: Data, _ table: LedgerTable)
        throws(LedgerRefusal) -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw LedgerRefusal(.storage, "a row of \(table.rawValue) does not read: \(error)")
        }
    }

    private static func encode(_ value: some Encodable, _ table: LedgerTable) throws(LedgerRefusal) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw LedgerRefusal(.storage, "a row of \(table.rawValue) does not write: \(error)")
        }
    }

    private func read<Value: Decodable>(_ type: Value.Type, _ table: LedgerTable, _ key: String)
        async throws(LedgerRefusal) -> Value?
    {
        guard let data = try await transaction.value(in: table, key: key) else { return nil }
        return try Self.decode(type, data, table)
    }

    private func write(_ value: (some Encodable)?, _ table: LedgerTable, _ key: String) async throws(LedgerRefusal) {
        let data: Data? = if let value { try Self.encode(value, table) } else { nil }
        try await transaction.setValue(data, in: table, key: key)
    }

    static func key(_ thread: LedgerThreadID) -> String { "\(thread.source.rawValue):\(thread.key)" }

    static func key(_ account: LedgerAccountKey) -> String { "\(account.kind.rawValue):\(account.value)" }

    // MARK: Threads

    func thread(_ id: LedgerThreadID) async throws(LedgerRefusal) -> LedgerThread? {
        try await read(LedgerThread.self, .threads, Self.key(id))
    }

    func save(_ thread: LedgerThread) async throws(LedgerRefusal) {
        try await write(thread, .threads, Self.key(thread.id))
    }

    func removeThread(_ id: LedgerThreadID) async throws(LedgerRefusal) {
        try await write(LedgerThread?.none, .threads, Self.key(id))
    }

    /// The thread key `alias` was folded into, if any.
    func threadKey(aliasedBy alias: LedgerThreadID) async throws(LedgerRefusal) -> String? {
        try await read(String.self, .threadAliases, Self.key(alias))
    }

    func setThreadKey(_ key: String, aliasedBy alias: LedgerThreadID) async throws(LedgerRefusal) {
        try await write(key, .threadAliases, Self.key(alias))
    }

    // MARK: Customers

    func customer(_ id: LedgerCustomerID) async throws(LedgerRefusal) -> LedgerCustomer? {
        try await read(LedgerCustomer.self, .customers, String(id.rawValue))
    }

    func save(_ customer: LedgerCustomer) async throws(LedgerRefusal) {
        try await write(customer, .customers, String(customer.id.rawValue))
    }

    func removeCustomer(_ id: LedgerCustomerID) async throws(LedgerRefusal) {
        try await write(LedgerCustomer?.none, .customers, String(id.rawValue))
    }

    func customerIDs() async throws(LedgerRefusal) -> [LedgerCustomerID] {
        try await transaction.keys(in: .customers).compactMap { Int64($0).map(LedgerCustomerID.init) }.sorted()
    }

    func customerID(forAppUserId appUserId: String) async throws(LedgerRefusal) -> LedgerCustomerID? {
        try await read(LedgerCustomerID.self, .appUserIds, appUserId)
    }

    func setCustomerID(_ id: LedgerCustomerID, forAppUserId appUserId: String) async throws(LedgerRefusal) {
        try await write(id, .appUserIds, appUserId)
    }

    func removeCustomerID(forAppUserId appUserId: String) async throws(LedgerRefusal) {
        try await write(LedgerCustomerID?.none, .appUserIds, appUserId)
    }

    /// A new customer number, larger than every one before.
    func nextCustomerID() async throws(LedgerRefusal) -> LedgerCustomerID {
        let next = (try await read(Int64.self, .counters, "customers") ?? 0) + 1
        try await write(next, .counters, "customers")
        return LedgerCustomerID(rawValue: next)
    }

    // MARK: Links

    func registeredAppUserId(for account: LedgerAccountKey) async throws(LedgerRefusal) -> String? {
        try await read(String.self, .accountLinks, Self.key(account))
    }

    func register(_ account: LedgerAccountKey, appUserId: String) async throws(LedgerRefusal) {
        try await write(appUserId, .accountLinks, Self.key(account))
    }

    func unlinkedThreads(for account: LedgerAccountKey) async throws(LedgerRefusal) -> [LedgerThreadID] {
        try await read([LedgerThreadID].self, .unlinkedThreads, Self.key(account)) ?? []
    }

    func setUnlinkedThreads(_ threads: [LedgerThreadID], for account: LedgerAccountKey) async throws(LedgerRefusal) {
        try await write(threads.isEmpty ? nil : threads, .unlinkedThreads, Self.key(account))
    }

    // MARK: Notifications

    /// When the notification `id` of `source` was first received, if it was.
    func seen(_ id: String, of source: LedgerSourceID) async throws(LedgerRefusal) -> Date? {
        try await read(Date.self, .notifications, "\(source.rawValue):\(id)")
    }

    func markSeen(_ id: String, of source: LedgerSourceID, at instant: Date) async throws(LedgerRefusal) {
        try await write(instant, .notifications, "\(source.rawValue):\(id)")
    }

    /// Forgets every notification id first received before `instant`; how many.
    func purgeSeen(before instant: Date) async throws(LedgerRefusal) -> Int {
        var purged = 0
        for key in try await transaction.keys(in: .notifications) {
            guard let seen = try await read(Date.self, .notifications, key), seen < instant else { continue }
            try await write(Date?.none, .notifications, key)
            purged += 1
        }
        return purged
    }
}

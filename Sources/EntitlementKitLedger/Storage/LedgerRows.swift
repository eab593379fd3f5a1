import EntitlementKit
import Foundation

/// The ledger's typed view of one store transaction: each row's key and bytes (``LedgerRowFormat``).
struct LedgerRows: Sendable {
    let transaction: any LedgerStoreTransaction

    static func key(_ thread: LedgerThreadID) -> String { "\(thread.source.rawValue):\(thread.key)" }

    static func key(_ account: LedgerAccountKey) -> String { "\(account.kind.rawValue):\(account.value)" }

    /// A statement's row: its thread's key, that key's length first so that no other thread key and
    /// statement spell the same row, then the statement.
    static func key(_ thread: LedgerThreadID, statement: String) -> String {
        "\(thread.source.rawValue):\(thread.key.utf8.count):\(thread.key) \(statement)"
    }

    private func data(_ table: LedgerTable, _ key: String) async throws(LedgerRefusal) -> Data? {
        try await transaction.value(in: table, key: key)
    }

    private func set(_ row: LedgerRowWriter?, _ table: LedgerTable, _ key: String) async throws(LedgerRefusal) {
        try await transaction.setValue(row?.data, in: table, key: key)
    }

    /// A row of `table` read by `read`, or by `legacy` when the first layout wrote it.
    private func read<Value>(
        _ table: LedgerTable, _ key: String, legacy: (Data) throws(LedgerRefusal) -> Value,
        _ read: (inout LedgerRowReader) throws(LedgerRefusal) -> Value
    ) async throws(LedgerRefusal) -> Value? {
        guard let data = try await data(table, key) else { return nil }
        guard LedgerRowFormat.isCurrent(data) else { return try legacy(data) }
        var reader = LedgerRowReader(data, table: table)
        return try read(&reader)
    }

    /// A row of one field (a string, a number): `read` reads it, the first layout's JSON of the same type
    /// is decoded.
    private func field<Value: Decodable>(
        _ table: LedgerTable, _ key: String, _ read: (inout LedgerRowReader) throws(LedgerRefusal) -> Value
    ) async throws(LedgerRefusal) -> Value? {
        try await self.read(
            table, key,
            legacy: { data throws(LedgerRefusal) in try LedgerLegacyRows.decode(Value.self, data, table) }, read)
    }

    /// Sets (or, with `nil`, removes) a row of one field, written by `write`.
    private func setField<Value>(
        _ value: Value?, _ table: LedgerTable, _ key: String, _ write: (inout LedgerRowWriter, Value) -> Void
    ) async throws(LedgerRefusal) {
        var row: LedgerRowWriter?
        if let value {
            var writer = LedgerRowWriter()
            write(&writer, value)
            row = writer
        }
        try await set(row, table, key)
    }

    private func string(_ table: LedgerTable, _ key: String) async throws(LedgerRefusal) -> String? {
        try await field(table, key) { reader throws(LedgerRefusal) in try reader.string() }
    }

    private func setString(_ value: String?, _ table: LedgerTable, _ key: String) async throws(LedgerRefusal) {
        try await setField(value, table, key) { $0.string($1) }
    }

    private func integer(_ table: LedgerTable, _ key: String) async throws(LedgerRefusal) -> Int64? {
        try await field(table, key) { reader throws(LedgerRefusal) in try reader.integer() }
    }

    private func setInteger(_ value: Int64?, _ table: LedgerTable, _ key: String) async throws(LedgerRefusal) {
        try await setField(value, table, key) { $0.integer($1) }
    }

    // MARK: Threads

    /// The head of the thread `id`: a row of the first layout (the whole thread) is split into its head
    /// and one row per statement, written in this transaction.
    func head(_ id: LedgerThreadID) async throws(LedgerRefusal) -> LedgerThreadHead? {
        guard let data = try await data(.threads, Self.key(id)) else { return nil }
        guard LedgerRowFormat.isCurrent(data) else {
            let thread = try LedgerLegacyRows.decode(LedgerThread.self, data, .threads)
            var head = LedgerThreadHead(id: id, owner: thread.owner)
            for record in thread.records {
                head.addStatement(record.statement)
                try await setRecord(record, of: id)
            }
            head.rebuildLeads(from: thread.records)
            try await save(head)
            return head
        }
        var reader = LedgerRowReader(data, table: .threads)
        let owner = try reader.bool() ? LedgerCustomerID(rawValue: try reader.integer()) : nil
        var leads: [LedgerThreadHead.LinkLead] = []
        for _ in 0..<(try reader.count()) {
            leads.append(
                LedgerThreadHead.LinkLead(
                    link: try reader.accountLink(), statement: try reader.string(), index: try reader.count(),
                    order: try reader.order()))
        }
        return LedgerThreadHead(id: id, owner: owner, leads: leads, statementBytes: Array(reader.rest()))
    }

    func save(_ head: LedgerThreadHead) async throws(LedgerRefusal) {
        var row = LedgerRowWriter()
        row.bool(head.owner != nil)
        if let owner = head.owner { row.integer(owner.rawValue) }
        row.count(head.leads.count)
        for lead in head.leads {
            row.accountLink(lead.link)
            row.string(lead.statement)
            row.count(lead.index)
            row.order(lead.order)
        }
        var bytes = row.bytes
        bytes += head.statementBytes
        try await transaction.setValue(Data(bytes), in: .threads, key: Self.key(head.id))
    }

    /// Removes the thread's head and every statement row.
    func removeThread(_ head: LedgerThreadHead) async throws(LedgerRefusal) {
        for statement in try head.statements() {
            try await transaction.setValue(nil, in: .statements, key: Self.key(head.id, statement: statement))
        }
        try await transaction.setValue(nil, in: .threads, key: Self.key(head.id))
    }

    /// The kept record of `statement` in the thread `id`.
    func record(_ statement: String, of id: LedgerThreadID) async throws(LedgerRefusal) -> LedgerRecord? {
        let table = LedgerTable.statements
        return try await read(
            table, Self.key(id, statement: statement),
            legacy: { _ throws(LedgerRefusal) in
                throw LedgerRefusal(.storage, "a row of \(table.rawValue) is not of this layout")
            }
        ) { reader throws(LedgerRefusal) in
            let thread = try reader.string()
            var aliases: [String] = []
            for _ in 0..<(try reader.count()) { aliases.append(try reader.string()) }
            let statement = try reader.string()
            let order = try reader.order()
            let body = Data(try reader.byteArray())
            let isVerified = try reader.bool()
            let instant = try reader.date()
            let environment = try reader.optionalString().map(Environment.init(rawValue:))
            var links: [LedgerAccountLink] = []
            for _ in 0..<(try reader.count()) { links.append(try reader.accountLink()) }
            return LedgerRecord(
                thread: thread, threadAliases: aliases, statement: statement, order: order, body: body,
                isVerified: isVerified, instant: instant, environment: environment, accountLinks: links)
        }
    }

    /// Keeps `record` as its statement's record in the thread `id`.
    func setRecord(_ record: LedgerRecord, of id: LedgerThreadID) async throws(LedgerRefusal) {
        var row = LedgerRowWriter()
        row.string(record.thread)
        row.count(record.threadAliases.count)
        for alias in record.threadAliases { row.string(alias) }
        row.string(record.statement)
        row.order(record.order)
        row.bytes(record.body)
        row.bool(record.isVerified)
        row.date(record.instant)
        row.optionalString(record.environment?.rawValue)
        row.count(record.accountLinks.count)
        for link in record.accountLinks { row.accountLink(link) }
        try await set(row, .statements, Self.key(id, statement: record.statement))
    }

    /// The whole thread `id`: its head and every statement's record (what a snapshot maps).
    func thread(_ id: LedgerThreadID) async throws(LedgerRefusal) -> LedgerThread? {
        guard let head = try await head(id) else { return nil }
        return try await thread(of: head)
    }

    func thread(of head: LedgerThreadHead) async throws(LedgerRefusal) -> LedgerThread {
        var records: [LedgerRecord] = []
        for statement in try head.statements() {
            guard let record = try await record(statement, of: head.id) else {
                throw LedgerRefusal(
                    .storage, "the thread \(head.id) lists the statement \(statement), whose row is missing")
            }
            records.append(record)
        }
        records.sort { $0.statement.utf8.lexicographicallyPrecedes($1.statement.utf8) }
        return LedgerThread(id: head.id, records: records, owner: head.owner)
    }

    /// The thread key `alias` was folded into, if any.
    func threadKey(aliasedBy alias: LedgerThreadID) async throws(LedgerRefusal) -> String? {
        try await string(.threadAliases, Self.key(alias))
    }

    func setThreadKey(_ key: String, aliasedBy alias: LedgerThreadID) async throws(LedgerRefusal) {
        try await setString(key, .threadAliases, Self.key(alias))
    }

    // MARK: Customers

    func customer(_ id: LedgerCustomerID) async throws(LedgerRefusal) -> LedgerCustomer? {
        try await read(
            .customers, String(id.rawValue),
            legacy: { data throws(LedgerRefusal) in
                try LedgerLegacyRows.decode(LedgerCustomer.self, data, .customers)
            }
        ) { reader throws(LedgerRefusal) in
            let id = LedgerCustomerID(rawValue: try reader.integer())
            var appUserIds: [String] = []
            for _ in 0..<(try reader.count()) { appUserIds.append(try reader.string()) }
            var threads: [LedgerThreadID] = []
            for _ in 0..<(try reader.count()) { threads.append(try reader.threadID()) }
            return LedgerCustomer(id: id, appUserIds: appUserIds, threads: threads, placeholder: try reader.bool())
        }
    }

    func save(_ customer: LedgerCustomer) async throws(LedgerRefusal) {
        var row = LedgerRowWriter()
        row.integer(customer.id.rawValue)
        row.count(customer.appUserIds.count)
        for appUserId in customer.appUserIds { row.string(appUserId) }
        row.count(customer.threads.count)
        for thread in customer.threads { row.threadID(thread) }
        row.bool(customer.isPlaceholder)
        try await set(row, .customers, String(customer.id.rawValue))
    }

    func removeCustomer(_ id: LedgerCustomerID) async throws(LedgerRefusal) {
        try await set(nil, .customers, String(id.rawValue))
    }

    func customerIDs() async throws(LedgerRefusal) -> [LedgerCustomerID] {
        try await transaction.keys(in: .customers).compactMap { Int64($0).map(LedgerCustomerID.init) }.sorted()
    }

    func customerID(forAppUserId appUserId: String) async throws(LedgerRefusal) -> LedgerCustomerID? {
        try await integer(.appUserIds, appUserId).map(LedgerCustomerID.init(rawValue:))
    }

    func setCustomerID(_ id: LedgerCustomerID, forAppUserId appUserId: String) async throws(LedgerRefusal) {
        try await setInteger(id.rawValue, .appUserIds, appUserId)
    }

    func removeCustomerID(forAppUserId appUserId: String) async throws(LedgerRefusal) {
        try await set(nil, .appUserIds, appUserId)
    }

    /// A new customer number, larger than every one before.
    func nextCustomerID() async throws(LedgerRefusal) -> LedgerCustomerID {
        let next = (try await integer(.counters, "customers") ?? 0) + 1
        try await setInteger(next, .counters, "customers")
        return LedgerCustomerID(rawValue: next)
    }

    // MARK: Links

    func registeredAppUserId(for account: LedgerAccountKey) async throws(LedgerRefusal) -> String? {
        try await string(.accountLinks, Self.key(account))
    }

    func register(_ account: LedgerAccountKey, appUserId: String) async throws(LedgerRefusal) {
        try await setString(appUserId, .accountLinks, Self.key(account))
    }

    func unlinkedThreads(for account: LedgerAccountKey) async throws(LedgerRefusal) -> [LedgerThreadID] {
        try await read(
            .unlinkedThreads, Self.key(account),
            legacy: { data throws(LedgerRefusal) in
                try LedgerLegacyRows.decode([LedgerThreadID].self, data, .unlinkedThreads)
            }
        ) { reader throws(LedgerRefusal) in
            var threads: [LedgerThreadID] = []
            for _ in 0..<(try reader.count()) { threads.append(try reader.threadID()) }
            return threads
        } ?? []
    }

    func setUnlinkedThreads(_ threads: [LedgerThreadID], for account: LedgerAccountKey) async throws(LedgerRefusal) {
        var row: LedgerRowWriter?
        if !threads.isEmpty {
            row = LedgerRowWriter()
            row?.count(threads.count)
            for thread in threads { row?.threadID(thread) }
        }
        try await set(row, .unlinkedThreads, Self.key(account))
    }

    // MARK: Notifications

    private func seen(key: String) async throws(LedgerRefusal) -> Date? {
        try await field(.notifications, key) { reader throws(LedgerRefusal) in try reader.date() }
    }

    /// When the notification `id` of `source` was first received, if it was.
    func seen(_ id: String, of source: LedgerSourceID) async throws(LedgerRefusal) -> Date? {
        try await seen(key: "\(source.rawValue):\(id)")
    }

    func markSeen(_ id: String, of source: LedgerSourceID, at instant: Date) async throws(LedgerRefusal) {
        try await setField(instant, .notifications, "\(source.rawValue):\(id)") { $0.date($1) }
    }

    /// Forgets every notification id first received before `instant`; how many.
    func purgeSeen(before instant: Date) async throws(LedgerRefusal) -> Int {
        var purged = 0
        for key in try await transaction.keys(in: .notifications) {
            guard let seen = try await seen(key: key), seen < instant else { continue }
            try await set(nil, .notifications, key)
            purged += 1
        }
        return purged
    }
}

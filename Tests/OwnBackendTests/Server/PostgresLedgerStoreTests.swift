import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import Testing

/// The article's PostgreSQL store under a real ledger, over a stand-in for the database that runs its
/// six statements on rows in memory (no PostgreSQL here) and can abort a transaction as SERIALIZABLE does.
@Suite(.timeLimit(.minutes(5))) struct PostgresLedgerStoreTests {
    @Test func aLedgerOnTheTableKeepsPurchasesAndRetriesASerializationFailure() async throws {
        let database = RowDatabase()
        let store = PostgresLedgerStore(
            connect: { RowSession(database: database) }, isSerializationFailure: { $0 is SerializationFailure })
        let ledger = EntitlementLedger(
            sources: [GooglePlayLedgerSource(catalog: LedgerBackedServer.catalog, packageName: "com.example.app")],
            store: store)
        let instant = RFC3339.date(from: "2025-09-10T12:00:00Z") ?? .distantPast
        let document = LedgerDocument(
            source: .googlePlay, body: PlayStoreDouble.subscription(expires: "2025-10-01T00:00:00Z"),
            purchaseToken: "token-1", appUserId: "alice", receivedAt: instant)
        database.failNextWrite()
        #expect(try await ledger.apply(document) == .applied(customers: ["alice"]))
        #expect(database.rolledBack == 1, "the aborted attempt kept nothing")
        #expect(try await ledger.snapshot(for: "alice", at: instant).activeEntitlementIds == ["premium"])
        #expect(try await ledger.apply(document).name == "noChange", "the same document again changes nothing")
    }
}

struct SerializationFailure: Error {}

/// `ledger_rows` in memory, with a transaction's writes kept apart until COMMIT.
final class RowDatabase: @unchecked Sendable {
    // Sessions run one at a time in these tests; the lock keeps the rows consistent anyway.
    private let lock = NSLock()
    private var rows: [String: [Data: Data]] = [:]
    private var failWrite = false
    private(set) var rolledBack = 0

    func failNextWrite() { lock.withLock { failWrite = true } }
    func takeFailure() -> Bool {
        lock.withLock {
            defer { failWrite = false }
            return failWrite
        }
    }
    var committed: [String: [Data: Data]] { lock.withLock { rows } }
    func commit(_ changes: [String: [Data: Data?]]) {
        lock.withLock {
            for (table, values) in changes { for (key, value) in values { rows[table, default: [:]][key] = value } }
        }
    }
    func noteRollback() { lock.withLock { rolledBack += 1 } }
}

/// One session: the statements of `PostgresLedgerStore`, nothing else.
final class RowSession: PostgresSession, @unchecked Sendable {
    // One transaction's task at a time uses a session.
    private let lock = NSLock()
    private let database: RowDatabase
    private var pending: [String: [Data: Data?]] = [:]

    init(database: RowDatabase) { self.database = database }

    func query(_ sql: String, _ binds: [Data]) async throws -> [[Data?]] {
        let table = binds.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let statement = sql.split(separator: " ").first.map(String.init) ?? ""
        return try lock.withLock { () throws -> [[Data?]] in
            var view = database.committed[table, default: [:]]
            for (key, value) in pending[table, default: [:]] { view[key] = value }
            switch statement {
            case "BEGIN": return []
            case "COMMIT": database.commit(pending)
            case "ROLLBACK":
                pending = [:]
                database.noteRollback()
            case "SELECT" where sql.hasPrefix("SELECT value"): return view[binds[1]].map { [[$0]] } ?? []
            case "SELECT": return view.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { [$0] }
            case "INSERT", "DELETE":
                if database.takeFailure() { throw SerializationFailure() }
                pending[table, default: [:]][binds[1]] = statement == "INSERT" ? binds[2] : .some(nil)
            default: Issue.record("unexpected statement \(sql)")
            }
            return []
        }
    }
}

import EntitlementKitLedger
import Foundation
import Logging
import PostgresNIO

/// A `LedgerStore` on one PostgreSQL table, `ledger_rows (table_name, key, value)`: a thin mapping of the
/// protocol. Each ledger transaction is one SERIALIZABLE transaction on a connection of the pool, run
/// again from the start when PostgreSQL aborts it (SQLSTATE 40001, or a deadlock, 40P01), so several
/// server processes on one database lose nothing. Keys are `bytea`: they sort and compare by their bytes,
/// as the ledger compares ids.
///
/// Serialization failures are not rare here: every new customer takes the next number of one counter row,
/// and PostgreSQL's predicate locks cover index pages, so inputs about different customers conflict too.
/// An input that failed ``optimisticAttempts`` times is therefore run with the table's write lock taken
/// first (`LOCK TABLE … IN EXCLUSIVE MODE`, before its snapshot): no writer runs beside it, so it cannot
/// lose again, and no input under contention is answered 503 for having lost too often.
public struct PostgresLedgerStore: LedgerStore {
    /// How many times one transaction runs beside other writers before it takes the table's write lock.
    public static let optimisticAttempts = 2
    /// How many times one transaction is tried before the input is answered as a storage failure (the
    /// store retries it: Apple, Google and Stripe resend what was not answered 2xx). Attempts under the
    /// write lock fail only on a deadlock with a writer that started before them.
    public static let attempts = 20
    /// How long the database answers `/healthz` within.
    public static let connectionWait: Duration = .seconds(5)
    /// How long one attempt of a transaction (its wait for a connection included) may take before the
    /// input is answered as a storage failure: while the database is down the server answers 503 within
    /// this rather than holding every request until it is back.
    public static let transactionLimit: Duration = .seconds(30)

    private let client: PostgresClient
    private let logger: Logger

    /// A store over `client`'s pool (which the caller runs).
    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Creates the table when missing. Two processes starting at once may race to create it; the loser
    /// finds it made.
    public func createTable() async throws {
        let statement: PostgresQuery = """
            CREATE TABLE IF NOT EXISTS ledger_rows (
                table_name text NOT NULL, key bytea NOT NULL, value bytea NOT NULL, PRIMARY KEY (table_name, key))
            """
        for attempt in 1...3 {
            do {
                try await client.query(statement, logger: logger)
                return
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" && attempt < 3 {
                continue  // unique_violation on the catalog: the other process made it
            }
        }
    }

    /// Whether the database answers.
    public func isReachable() async -> Bool {
        (try? await withDeadline(Self.connectionWait) { try await client.query("SELECT 1", logger: logger) }) != nil
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result {
        for attempt in 1...Self.attempts {
            let conflict = ConflictNote()
            let exclusive = attempt > Self.optimisticAttempts
            do {
                // The deadline's task ends before this call returns: `body` does not outlive it.
                return try await withoutActuallyEscaping(body) { body in
                    try await withDeadline(Self.transactionLimit) { [client, logger] in
                        try await client.withConnection { connection in
                            try await Self.run(
                                body, on: connection, exclusive: exclusive, logger: logger, conflict: conflict)
                        }
                    }
                }
            } catch {
                guard conflict.happened || Self.isConflict(error) else {
                    throw error as? LedgerRefusal ?? LedgerRefusal(.storage, "PostgreSQL: \(String(reflecting: error))")
                }
            }
            if !exclusive {
                // Let the winner commit before the next try (a random while: two losers do not meet again).
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...8)))
            }
        }
        throw LedgerRefusal(.storage, "PostgreSQL: \(Self.attempts) serialization failures in a row")
    }

    /// `body` in one SERIALIZABLE transaction on `connection`; `exclusive`: with the table's write lock
    /// taken before the first read, so the snapshot sees every writer before it and none runs beside it.
    private static func run<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result,
        on connection: PostgresConnection, exclusive: Bool, logger: Logger, conflict: ConflictNote
    ) async throws -> Result {
        try await connection.query("BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger)
        do {
            if exclusive { try await connection.query("LOCK TABLE ledger_rows IN EXCLUSIVE MODE", logger: logger) }
            let result = try await body(
                PostgresLedgerTransaction(connection: connection, logger: logger, conflict: conflict))
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    static func isConflict(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }
}

/// One transaction's reads and writes of `ledger_rows`, on the connection the transaction holds.
struct PostgresLedgerTransaction: LedgerStoreTransaction {
    let connection: PostgresConnection
    let logger: Logger
    let conflict: ConflictNote

    func value(in table: LedgerTable, key: String) async throws(LedgerRefusal) -> Data? {
        try await rows("SELECT value FROM ledger_rows WHERE table_name = $1 AND key = $2", table, key).first
    }

    func setValue(_ value: Data?, in table: LedgerTable, key: String) async throws(LedgerRefusal) {
        if let value {
            _ = try await rows(
                """
                INSERT INTO ledger_rows (table_name, key, value) VALUES ($1, $2, $3)
                ON CONFLICT (table_name, key) DO UPDATE SET value = EXCLUDED.value
                """, table, key, value)
        } else {
            _ = try await rows("DELETE FROM ledger_rows WHERE table_name = $1 AND key = $2", table, key)
        }
    }

    func keys(in table: LedgerTable) async throws(LedgerRefusal) -> [String] {
        try await rows("SELECT key FROM ledger_rows WHERE table_name = $1 ORDER BY key", table)
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// The first column of every row `sql` answers with `$1` the table's name, `$2` the key's bytes and
    /// `$3` the value.
    private func rows(_ sql: String, _ table: LedgerTable, _ key: String? = nil, _ value: Data? = nil)
        async throws(LedgerRefusal) -> [Data]
    {
        do {
            var binds = PostgresBindings()
            binds.append(table.rawValue)
            if let key { try binds.append(Data(key.utf8)) }
            if let value { try binds.append(value) }
            var values: [Data] = []
            let answer = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            for try await column in answer.decode(Data.self) { values.append(column) }
            return values
        } catch {
            if PostgresLedgerStore.isConflict(error) { conflict.record() }
            throw LedgerRefusal(.storage, "PostgreSQL: \(String(reflecting: error))")
        }
    }
}

/// Whether a statement of the transaction hit a serialization failure: the ledger's body sees only a
/// refusal, the store must know to run the transaction again.
final class ConflictNote: @unchecked Sendable {
    // Set by the transaction's statements, read by the store after the body returned or threw.
    private let lock = NSLock()
    private var seen = false

    func record() { lock.withLock { seen = true } }
    var happened: Bool { lock.withLock { seen } }
}

/// The storage failure a wait longer than `limit` becomes.
struct DeadlineExceeded: Error {}

/// `operation`, or `DeadlineExceeded` after `limit` (the operation is cancelled).
func withDeadline<Value: Sendable>(
    _ limit: Duration, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlineExceeded()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded() }
        return first
    }
}

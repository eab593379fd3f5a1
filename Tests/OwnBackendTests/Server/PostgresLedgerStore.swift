import EntitlementKitLedger
import Foundation

/// What the store needs of a PostgreSQL driver (PostgresNIO or any other): queries with `$1…` bound to
/// bytes, on one connection. The package ships no database client; your driver's calls go here.
protocol PostgresSession: Sendable {
    /// Runs `sql` with `binds`; the rows, each column's bytes (`nil` for SQL NULL).
    func query(_ sql: String, _ binds: [Data]) async throws -> [[Data?]]
}

/// A `LedgerStore` on one PostgreSQL table, `ledger_rows`: each input is one SERIALIZABLE transaction, so
/// several server processes on several machines share one ledger. PostgreSQL may abort such a
/// transaction at any statement (SQLSTATE 40001); the store then runs it again from the start.
struct PostgresLedgerStore: LedgerStore {
    /// A session for one transaction (a connection from your pool).
    let connect: @Sendable () async throws -> any PostgresSession
    /// Whether `error` is PostgreSQL's serialization failure (SQLSTATE 40001).
    let isSerializationFailure: @Sendable (any Error) -> Bool

    func transaction<Result: Sendable>(
        _ body: @Sendable (any LedgerStoreTransaction) async throws(LedgerRefusal) -> Result
    ) async throws(LedgerRefusal) -> Result {
        for _ in 1...5 {
            let conflict = ConflictNote()
            do {
                let session = try await connect()
                _ = try await session.query("BEGIN ISOLATION LEVEL SERIALIZABLE", [])
                do {
                    let result = try await body(
                        PostgresLedgerTransaction(session: session, isConflict: isSerializationFailure, note: conflict))
                    _ = try await session.query("COMMIT", [])
                    return result
                } catch {
                    _ = try? await session.query("ROLLBACK", [])
                    throw error
                }
            } catch {
                if conflict.happened || isSerializationFailure(error) { continue }
                throw error as? LedgerRefusal ?? LedgerRefusal(.storage, "PostgreSQL: \(error)")
            }
        }
        throw LedgerRefusal(.storage, "PostgreSQL: five serialization failures in a row")
    }
}

/// One transaction's reads and writes of `ledger_rows`.
struct PostgresLedgerTransaction: LedgerStoreTransaction {
    let session: any PostgresSession
    let isConflict: @Sendable (any Error) -> Bool
    let note: ConflictNote

    func value(in table: LedgerTable, key: String) async throws(LedgerRefusal) -> Data? {
        let rows = try await run("SELECT value FROM ledger_rows WHERE table_name = $1 AND key = $2", table, key)
        return rows.first?.first ?? nil
    }

    func setValue(_ value: Data?, in table: LedgerTable, key: String) async throws(LedgerRefusal) {
        guard let value else {
            _ = try await run("DELETE FROM ledger_rows WHERE table_name = $1 AND key = $2", table, key)
            return
        }
        _ = try await run(
            """
            INSERT INTO ledger_rows (table_name, key, value) VALUES ($1, $2, $3)
            ON CONFLICT (table_name, key) DO UPDATE SET value = EXCLUDED.value
            """, table, key, value)
    }

    func keys(in table: LedgerTable) async throws(LedgerRefusal) -> [String] {
        let rows = try await run("SELECT key FROM ledger_rows WHERE table_name = $1 ORDER BY key", table)
        return rows.compactMap { row in row.first.flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) } }
    }

    private func run(_ sql: String, _ table: LedgerTable, _ key: String? = nil, _ value: Data? = nil)
        async throws(LedgerRefusal) -> [[Data?]]
    {
        var binds = [Data(table.rawValue.utf8)]
        if let key { binds.append(Data(key.utf8)) }
        if let value { binds.append(value) }
        do {
            return try await session.query(sql, binds)
        } catch {
            if isConflict(error) { note.record() }
            throw LedgerRefusal(.storage, "PostgreSQL: \(error)")
        }
    }
}

/// Whether a statement of the transaction hit a serialization failure (the body sees only a refusal).
final class ConflictNote: @unchecked Sendable {
    // Set by the transaction's statements, read by the store after the body.
    private let lock = NSLock()
    private var seen = false

    func record() { lock.withLock { seen = true } }
    var happened: Bool { lock.withLock { seen } }
}

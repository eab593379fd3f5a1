import EntitlementKitLedger
import Foundation
import Logging
import OwnBackendServerCore
import PostgresNIO
import Testing

/// The PostgreSQL store itself, on a real database: contention costs time, never an input.
@Suite(.timeLimit(.minutes(5)), .enabled(if: TestDatabase.isEnabled))
struct PostgresLedgerStoreTests {
    @Test func inputsFightingOverOneRowAllCommit() async throws {
        let address = try DatabaseAddress(url: try TestDatabase.fresh(), password: nil)
        let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
        let client = PostgresClient(
            configuration: .init(
                host: address.host, port: address.port, username: address.user, password: nil,
                database: address.database, tls: .disable),
            backgroundLogger: logger)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let store = PostgresLedgerStore(client: client, logger: logger)
        try await store.createTable()
        // Every input takes the next number of one counter, as every new customer does, among the reads of
        // an input: under SERIALIZABLE all but one of those running at once lose each time. 100 of them,
        // more than the pool's 20 connections, each allowed `PostgresLedgerStore.attempts` tries.
        let inputs = 100
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<inputs {
                group.addTask {
                    do {
                        try await store.transaction { transaction throws(LedgerRefusal) in
                            let value = try await transaction.value(in: .counters, key: "customers")
                            for key in 0..<10 { _ = try await transaction.value(in: .threads, key: "appStore:\(key)") }
                            let next = (value.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0) + 1
                            try await transaction.setValue(Data(String(next).utf8), in: .counters, key: "customers")
                        }
                        return 0
                    } catch {
                        return 1
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0, "\(failures) of \(inputs) inputs were refused")
        let final = try await store.transaction { transaction throws(LedgerRefusal) in
            try await transaction.value(in: .counters, key: "customers")
        }
        #expect(final.map { String(decoding: $0, as: UTF8.self) } == String(inputs - failures))
    }
}

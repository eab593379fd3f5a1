import EntitlementKitLedger
import Foundation
import Hummingbird
import Logging
import PostgresNIO

/// The server: the store the configuration names (PostgreSQL, or the embedded `DirectoryLedgerStore`),
/// a ledger over it and the routes, served until SIGTERM or SIGINT.
public enum OwnBackendServer {
    /// Runs the server as `configuration` says.
    public static func run(_ configuration: ServerConfiguration) async throws {
        var logger = Logger(label: "own-backend-server")
        logger.logLevel = .info
        let fetchers = StoreFetchers(configuration: configuration)
        let sessions = DevelopmentSessions(tokens: configuration.sessions)
        let address = BindAddress.hostname(configuration.host, port: configuration.port)
        let router = Router()
        if let database = configuration.database {
            let client = PostgresClient(
                configuration: .init(
                    host: database.host, port: database.port, username: database.user, password: database.password,
                    database: database.database, tls: .disable),
                backgroundLogger: Logger(label: "postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
            let store = PostgresLedgerStore(
                client: client, logger: Logger(label: "postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
            let ledger = EntitlementLedger(
                sources: configuration.sources, store: store, configuration: configuration.ledger)
            LedgerRoutes(
                ledger: ledger, sessions: sessions, fetchers: fetchers, isHealthy: { await store.isReachable() }
            )
            .add(to: router)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                try await store.createTable()
                logger.info("ledger in PostgreSQL at \(database.host):\(database.port)/\(database.database)")
                let app = Application(router: router, configuration: .init(address: address), logger: logger)
                try await app.runService()
                group.cancelAll()
            }
        } else {
            let store = try DirectoryLedgerStore(directory: configuration.stateDirectory)
            let ledger = EntitlementLedger(
                sources: configuration.sources, store: store, configuration: configuration.ledger)
            LedgerRoutes(ledger: ledger, sessions: sessions, fetchers: fetchers, isHealthy: { true }).add(to: router)
            logger.info("ledger in \(configuration.stateDirectory.path) (the embedded store)")
            let app = Application(router: router, configuration: .init(address: address), logger: logger)
            try await app.runService()
        }
    }
}

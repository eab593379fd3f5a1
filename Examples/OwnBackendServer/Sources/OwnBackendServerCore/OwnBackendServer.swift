import EntitlementKitLedger
import Foundation
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle

/// The server: the store the configuration names (PostgreSQL, or the embedded `DirectoryLedgerStore`),
/// a ledger over it and the routes, served until SIGTERM or SIGINT.
public enum OwnBackendServer {
    /// How long the requests in flight at SIGTERM or SIGINT get to finish before they are cancelled: an
    /// input cut short is rolled back and not answered 2xx, so its store sends it again.
    public static let gracefulShutdownLimit: Duration = .seconds(5)
    /// When the process exits after SIGTERM or SIGINT whatever still runs (a request that ignores its
    /// cancellation, a client that never finishes its body, a pool waiting for a stopped database).
    public static let shutdownDeadline: Duration = .seconds(10)

    /// Runs the server as `configuration` says, until SIGTERM or SIGINT and at most
    /// ``shutdownDeadline`` after it.
    public static func run(_ configuration: ServerConfiguration) async throws {
        let logger = {
            var logger = Logger(label: "own-backend-server")
            logger.logLevel = .info
            return logger
        }()
        let quiet = Logger(label: "postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let address = BindAddress.hostname(configuration.host, port: configuration.port)
        var services: [any Service] = []
        let store: any LedgerStore
        let isHealthy: @Sendable () async -> Bool
        let prepare: @Sendable () async throws -> Void
        if let database = configuration.database {
            let client = PostgresClient(
                configuration: .init(
                    host: database.host, port: database.port, username: database.user, password: database.password,
                    database: database.database, tls: .disable),
                backgroundLogger: quiet)
            let postgres = PostgresLedgerStore(client: client, logger: quiet)
            services.append(client)
            store = postgres
            isHealthy = { await postgres.isReachable() }
            prepare = {
                try await postgres.createTable()
                logger.info("ledger in PostgreSQL at \(database.host):\(database.port)/\(database.database)")
            }
        } else {
            store = try DirectoryLedgerStore(directory: configuration.stateDirectory)
            isHealthy = { true }
            prepare = { logger.info("ledger in \(configuration.stateDirectory.path) (the embedded store)") }
        }
        let ledger = EntitlementLedger(
            sources: configuration.sources, store: store, configuration: configuration.ledger)
        let router = Router()
        LedgerRoutes(
            ledger: ledger, sessions: DevelopmentSessions(tokens: configuration.sessions),
            fetchers: StoreFetchers(configuration: configuration), isHealthy: isHealthy, logger: logger
        )
        .add(to: router)
        let app = Application(router: router, configuration: .init(address: address), logger: logger)
        // Shut down in reverse: the deadline is armed first, then the routes finish, then the pool closes.
        services += [ServingAfter(prepare: prepare, service: app), ShutdownDeadline(logger: logger)]
        var group = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = gracefulShutdownLimit
        try await ServiceGroup(configuration: group).run()
    }
}

/// `service` once `prepare` is done (the table made before the first request is served).
private struct ServingAfter: Service {
    let prepare: @Sendable () async throws -> Void
    let service: any Service

    func run() async throws {
        try await prepare()
        try await service.run()
    }
}

/// Waits for the graceful shutdown, then exits the process ``OwnBackendServer/shutdownDeadline`` later if
/// it has not ended by itself: a server asked to stop always stops.
private struct ShutdownDeadline: Service {
    let logger: Logger

    func run() async throws {
        do {
            try await gracefulShutdown()
        } catch {
            return  // cancelled: the group is ending without a signal
        }
        let seconds = OwnBackendServer.shutdownDeadline.components.seconds
        logger.info(
            "shutting down: requests in flight have \(OwnBackendServer.gracefulShutdownLimit), the process \(seconds) s"
        )
        // A thread of its own: it must fire even when every task of the process is stuck.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: TimeInterval(seconds))
            FileHandle.standardError.write(Data("own-backend-server: shutdown outlasted \(seconds) s; exiting\n".utf8))
            exit(1)
        }
    }
}

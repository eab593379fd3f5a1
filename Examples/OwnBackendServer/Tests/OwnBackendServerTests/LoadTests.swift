import EntitlementKit
import Foundation
import ServerHarness
import Testing

/// Two server processes on one PostgreSQL database under concurrent, shuffled, duplicated notifications —
/// undisturbed, with one of them SIGKILLed, and with PostgreSQL stopped for a while: every customer's
/// snapshot equals a one-process in-memory replay of the same notifications.
@Suite(.serialized, .timeLimit(.minutes(20)), .enabled(if: TestDatabase.isEnabled))
struct LoadTests {
    func servers(_ count: Int, load: NotificationLoad) async throws -> [ServerProcess] {
        let database = try TestDatabase.fresh()
        let deployment = try TestDeployment(database: database, api: nil, notifications: try AppStoreNotifications())
        let sessions = deployment.folder.appendingPathComponent("load-sessions.json")
        try JSONSerialization.data(withJSONObject: load.sessions).write(to: sessions)
        let root = deployment.folder.appendingPathComponent("load-root.der")
        try load.rootCertificate.write(to: root)
        var environment = deployment.environment
        environment["LEDGER_SESSIONS_FILE"] = sessions.path
        environment["LEDGER_ROOT_CERTIFICATES"] = root.path
        var servers: [ServerProcess] = []
        for _ in 0..<count { servers.append(try await ServerProcess(environment: environment)) }
        return servers
    }

    /// Waits (bounded) until `senders` had `count` notifications answered.
    func awaitAnswered(_ count: Int, _ senders: NotificationSenders) async throws {
        for _ in 0..<6000 {
            if await senders.answered >= count { return }
            try await Task.sleep(for: .milliseconds(10))  // polling a condition, bounded (60 s)
        }
        throw ServerFailure("the load did not reach \(count) answers")
    }

    @Test func twoProcessesOnOneDatabaseLoseNothing() async throws {
        let load = try await NotificationLoad.make()
        let servers = try await servers(2, load: load)
        let senders = NotificationSenders(servers: servers.map(\.baseURL))
        try await senders.send(load.bodies, concurrency: 16)
        // Serialization failures are the servers' to retry (an input that lost twice runs under the
        // table's write lock): undisturbed, every notification is answered 2xx the first time.
        let statuses = await senders.statuses
        let logged = servers.flatMap { $0.standardError.split(separator: "\n").filter { $0.contains("503") } }
        #expect(statuses.keys.allSatisfy { (200..<300).contains($0) }, "\(statuses); the servers logged \(logged)")
        #expect(try await load.mismatches(on: servers[0].baseURL) == [])
        #expect(try await load.mismatches(on: servers[1].baseURL) == [])
    }

    @Test func aServerKilledUnderLoadLosesNothingOnceTheSendersResend() async throws {
        let load = try await NotificationLoad.make()
        let servers = try await servers(2, load: load)
        let senders = NotificationSenders(servers: servers.map(\.baseURL))
        let sending = Task { try await senders.send(load.bodies, concurrency: 16) }
        try await awaitAnswered(load.bodies.count / 3, senders)
        servers[0].kill()
        await senders.remove(servers[0].baseURL)
        try await sending.value
        #expect(try await load.mismatches(on: servers[1].baseURL) == [])
    }

    @Test func postgresStoppedUnderLoadIs503ThenRecovers() async throws {
        let load = try await NotificationLoad.make()
        let servers = try await servers(2, load: load)
        let senders = NotificationSenders(servers: servers.map(\.baseURL))
        let sending = Task { try await senders.send(load.bodies, concurrency: 16) }
        try await awaitAnswered(load.bodies.count / 3, senders)
        try TestDatabase.control("stop")
        var sawUnavailable = false
        for _ in 0..<300 where !sawUnavailable {
            let (status, _) = try await HTTP.send(
                "GET", servers[0].baseURL.appendingPathComponent("healthz"), timeout: 10)
            sawUnavailable = status == 503
        }
        let (refused, _) = try await HTTP.send(
            "POST", servers[1].baseURL.appendingPathComponent("notifications/appstore"),
            body: Data(load.bodies[0].utf8))
        try TestDatabase.control("start")
        #expect(sawUnavailable, "/healthz says 503 while the database is down")
        #expect(refused == 503, "a notification is answered 503 while the database is down")
        try await sending.value
        #expect(await senders.statuses[503, default: 0] > 0)
        #expect(try await load.mismatches(on: servers[0].baseURL) == [])
        #expect(try await load.mismatches(on: servers[1].baseURL) == [])
    }
}

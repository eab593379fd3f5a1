import Foundation
import ServerHarness

/// The PostgreSQL cluster `scripts/with-postgres.sh` started (`.ci/run` runs the tests inside it). Outside
/// it, the database tests skip with a printed reason; in CI (`CI` set) they run and fail without one.
enum TestDatabase {
    static let environment = ProcessInfo.processInfo.environment

    /// Whether the database tests run: a cluster is configured, or this is CI (where one must be).
    static var isEnabled: Bool {
        if environment["OWN_BACKEND_TEST_DATABASE_URL"] != nil || environment["CI"] != nil { return true }
        print(
            "OwnBackendServerTests: the PostgreSQL tests are skipped: OWN_BACKEND_TEST_DATABASE_URL is not set "
                + "(run them with Examples/OwnBackendServer/scripts/with-postgres.sh swift test ...)")
        return false
    }

    /// The cluster's URL (trust authentication).
    static func clusterURL() throws -> String {
        guard let url = environment["OWN_BACKEND_TEST_DATABASE_URL"] else {
            throw ServerFailure("OWN_BACKEND_TEST_DATABASE_URL is not set: CI must run these tests against PostgreSQL")
        }
        return url
    }

    /// A new, empty database on the cluster: its URL.
    static func fresh() throws -> String {
        let cluster = try clusterURL()
        let name = "ledger_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16))"
        try run(["psql", cluster, "-v", "ON_ERROR_STOP=1", "-qc", "CREATE DATABASE \(name)"])
        guard let slash = cluster.lastIndex(of: "/") else { throw ServerFailure("the cluster URL has no database") }
        return cluster[..<slash] + "/" + name
    }

    /// Stops (`stop`) or starts (`start`) the whole cluster.
    static func control(_ action: String) throws {
        guard let script = environment["OWN_BACKEND_TEST_PG_CONTROL"] else {
            throw ServerFailure("OWN_BACKEND_TEST_PG_CONTROL is not set")
        }
        try run([script, action])
    }

    /// Runs `arguments` to its exit (its output to a file: `pg_ctl start` leaves the database server
    /// holding what it was given, so a pipe would never end).
    private static func run(_ arguments: [String]) throws {
        let (status, output) = try ChildProcess.run("/usr/bin/env", arguments, environment: environment)
        guard status == 0 else { throw ServerFailure("\(arguments[0]) failed: \(output)") }
    }
}

import Foundation
import ServerHarness

// The reference server's bench: App Store notifications per second and p50/p99 latency, with one and two
// server processes on the store the environment names (LEDGER_DATABASE_URL, or
// OWN_BACKEND_TEST_DATABASE_URL from scripts/with-postgres.sh; else the embedded DirectoryLedgerStore).
// Usage: own-backend-bench [--notifications N] [--concurrency C]   (defaults 2000, 16)

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let number = Int(arguments[index + 1]),
        number > 0
    else { return value }
    return number
}

let count = option("--notifications", default: 2000)
let concurrency = option("--concurrency", default: 16)
let environment = ProcessInfo.processInfo.environment
let database = environment["LEDGER_DATABASE_URL"] ?? environment["OWN_BACKEND_TEST_DATABASE_URL"]

let notifications = try AppStoreNotifications()
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("own-backend-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
let root = folder.appendingPathComponent("root.der")
try notifications.signer.rootCertificate.write(to: root)
let catalog = folder.appendingPathComponent("catalog.json")
try Data(TestApp.catalogJSON.utf8).write(to: catalog)

/// `count` new notifications: subscriptions of `count / 10` customers, each bought and renewed.
func makeBodies(run: Int) -> [String] {
    let now = Date()
    let day: TimeInterval = 86_400
    return (0..<count).map { index in
        let customer = index / 10
        let step = index % 10
        let start = now - 300 * day + Double(step) * 30 * day
        let first = 4_000_000_000 + run * 10_000_000 + customer * 100
        let original = String(first)
        return notifications.body(
            type: step == 0 ? "SUBSCRIBED" : "DID_RENEW", uuid: UUID().uuidString.lowercased(), original: original,
            transaction: String(first + step),
            accountToken: String(format: "00000000-0000-4000-8000-%012d", run * 100_000 + customer), start: start,
            expires: start + 30 * day, signedAt: now - Double(10 - step))
    }
}

/// Sends `bodies` `concurrency` at a time, round robin over `servers`: wall time and each latency.
func send(_ bodies: [String], to servers: [URL]) async throws -> (seconds: Double, latencies: [Double]) {
    let clock = ContinuousClock()
    let started = clock.now
    let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
        for worker in 0..<concurrency {
            group.addTask {
                var mine: [Double] = []
                var index = worker
                while index < bodies.count {
                    let server = servers[index % servers.count].appendingPathComponent("notifications/appstore")
                    let sent = clock.now
                    let (status, _) = try await HTTP.send("POST", server, body: Data(bodies[index].utf8))
                    guard status == 200 else { throw ServerFailure("a notification was answered HTTP \(status)") }
                    let elapsed = sent.duration(to: clock.now)
                    mine.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
                    index += concurrency
                }
                return mine
            }
        }
        var all: [Double] = []
        for try await part in group { all += part }
        return all
    }
    let total = started.duration(to: clock.now)
    return (Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18, latencies.sorted())
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}

let store = database == nil ? "embedded (DirectoryLedgerStore)" : "PostgreSQL"
print("store: \(store); \(count) App Store notifications per run, \(concurrency) concurrent senders")
print("processes | notifications/s | p50 ms | p99 ms")
for (run, processes) in [1, 2].enumerated() {
    var variables = [
        "LEDGER_BUNDLE_ID": TestApp.bundleId, "LEDGER_CATALOG": catalog.path, "LEDGER_ROOT_CERTIFICATES": root.path,
        "LEDGER_STATE_DIR": folder.appendingPathComponent("state-\(processes)").path,
    ]
    if let database { variables["LEDGER_DATABASE_URL"] = database }
    var servers: [ServerProcess] = []
    for _ in 0..<processes { servers.append(try await ServerProcess(environment: variables)) }
    // A warm-up run (connections, caches), then the measured one.
    _ = try await send(makeBodies(run: run * 2 + 1).prefix(200).map { $0 }, to: servers.map(\.baseURL))
    let bodies = makeBodies(run: run * 2 + 2)
    let (seconds, latencies) = try await send(bodies, to: servers.map(\.baseURL))
    print(
        String(
            format: "%9d | %15.0f | %6.1f | %6.1f", processes, Double(bodies.count) / seconds,
            percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000))
    for server in servers { server.stop() }
}

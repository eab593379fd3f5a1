import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import Foundation
import ServerHarness

/// 2,000 App Store notifications of 200 customers (each a subscription bought, renewed, some refunded),
/// shuffled with duplicates, and what one in-memory ledger makes of them: the reference every server
/// configuration must equal. Made once per test process (signing and the replay are the slow part).
struct NotificationLoad: Sendable {
    static let customers = 200
    static let notificationsPerCustomer = 10

    /// The bodies to send, shuffled, duplicates included.
    let bodies: [String]
    /// The customers' app user ids (UUIDs, each its own `appAccountToken`).
    let appUserIds: [String]
    /// Each customer's snapshot after a one-process replay, evaluated at ``evaluatedAt``.
    let expected: [String: Data]
    let evaluatedAt: Date
    let rootCertificate: Data

    private static let shared = SharedLoad()

    static func make() async throws -> NotificationLoad { try await shared.load() }

    fileprivate static func build() async throws -> NotificationLoad {
        let notifications = try AppStoreNotifications()
        var random = SeededGenerator(seed: 33)
        let now = Date()
        let day: TimeInterval = 86_400
        var unique: [String] = []
        var ids: [String] = []
        for customer in 0..<customers {
            let appUserId = String(format: "00000000-0000-4000-8000-%012d", customer)
            ids.append(appUserId)
            let first = 2_000_000_000 + customer * 100
            let original = String(first)
            let refunded = customer % 5 == 0
            for step in 0..<notificationsPerCustomer {
                let isRefund = refunded && step == notificationsPerCustomer - 1
                let period = isRefund ? step - 1 : step
                let start = now - 400 * day + Double(period) * 30 * day + Double(customer)
                unique.append(
                    notifications.body(
                        type: step == 0 ? "SUBSCRIBED" : isRefund ? "REFUND" : "DID_RENEW",
                        uuid: UUID(uuid: Self.uuid(customer, step)).uuidString.lowercased(), original: original,
                        transaction: String(first + period), accountToken: appUserId, start: start,
                        expires: start + (step == notificationsPerCustomer - 1 ? 400 : 30) * day,
                        signedAt: now - Double(notificationsPerCustomer - step) * 60,
                        revokedAt: isRefund ? now - 60 : nil, withRenewalInfo: false))
            }
        }
        // One notification in ten arrives twice, as Apple resends what it believes was not received.
        var bodies = unique
        for index in stride(from: 0, to: unique.count, by: 10) { bodies.append(unique[index]) }
        bodies.shuffle(using: &random)

        let ledger = EntitlementLedger(
            sources: [
                AppStoreLedgerSource(
                    catalog: try EntitlementCatalog(json: Data(TestApp.catalogJSON.utf8)), bundleId: TestApp.bundleId,
                    rootCertificates: [notifications.signer.rootCertificate])
            ],
            store: InMemoryLedgerStore())
        for body in bodies {
            _ = try await ledger.apply(LedgerNotification(source: .appStore, body: Data(body.utf8), receivedAt: Date()))
        }
        var expected: [String: Data] = [:]
        for id in ids {
            try await ledger.register(appUserId: id)
            expected[id] = try await ledger.snapshot(for: id, at: now).evaluated(at: now).canonicalJSONData()
        }
        return NotificationLoad(
            bodies: bodies, appUserIds: ids, expected: expected, evaluatedAt: now,
            rootCertificate: notifications.signer.rootCertificate)
    }

    private static func uuid(_ customer: Int, _ step: Int) -> uuid_t {
        let c = UInt16(customer)
        let s = UInt8(step)
        return (0x5c, 0xe4, 0xa7, 0x10, UInt8(c >> 8), UInt8(c & 0xff), 0x40, s, 0x80, 0, 0, 0, 0, 0, 0, 0x33)
    }

    /// The snapshots `server` answers for every customer, evaluated at ``evaluatedAt``: the ids whose
    /// snapshot differs from the replay's.
    func mismatches(on server: URL) async throws -> [String] {
        var differing: [String] = []
        for id in appUserIds {
            let (status, data) = try await HTTP.send(
                "GET", server.appendingPathComponent("customers/\(id)/entitlements"),
                headers: ["Authorization": "Bearer load-\(id)"])
            guard status == 200 else {
                differing.append("\(id) (HTTP \(status))")
                continue
            }
            let snapshot = try EntitlementSnapshot(json: data).evaluated(at: evaluatedAt).canonicalJSONData()
            if snapshot != expected[id] { differing.append(id) }
        }
        return differing
    }

    /// The sessions file's contents: `load-<id>` for every customer.
    var sessions: [String: String] { Dictionary(uniqueKeysWithValues: appUserIds.map { ("load-\($0)", $0) }) }
}

private actor SharedLoad {
    private var made: Task<NotificationLoad, any Error>?

    func load() async throws -> NotificationLoad {
        if let made { return try await made.value }
        let task = Task { try await NotificationLoad.build() }
        made = task
        return try await task.value
    }
}

/// A reproducible shuffle (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Senders posting every body until it is answered 2xx, as Apple does: `concurrency` at once, spread over
/// the servers that are up; a failed send is sent again (to the next server) after the servers answer
/// `/healthz` again. Bounded: 200 attempts per notification.
actor NotificationSenders {
    private var servers: [URL]
    private(set) var answered = 0
    private(set) var statuses: [Int: Int] = [:]
    private var next = 0

    init(servers: [URL]) { self.servers = servers }

    /// Stops sending to `server` (it was killed).
    func remove(_ server: URL) { servers.removeAll { $0 == server } }

    private func target(_ attempt: Int) -> URL? {
        guard !servers.isEmpty else { return nil }
        next += 1
        return servers[(next + attempt) % servers.count]
    }

    private func record(_ status: Int) {
        statuses[status, default: 0] += 1
        if (200..<300).contains(status) { answered += 1 }
    }

    /// Sends every body; throws when one was never answered 2xx.
    func send(_ bodies: [String], concurrency: Int) async throws {
        let queue = BodyQueue(bodies)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while let body = await queue.next() { try await self.deliver(body) }
                }
            }
            try await group.waitForAll()
        }
    }

    private func deliver(_ body: String) async throws {
        for attempt in 0..<200 {
            guard let server = target(attempt) else { throw ServerFailure("no server left to send to") }
            let status =
                (try? await HTTP.send(
                    "POST", server.appendingPathComponent("notifications/appstore"), body: Data(body.utf8), timeout: 30
                ).0) ?? 0
            record(status)
            if (200..<300).contains(status) { return }
            if status != 0 && status != 503 { throw ServerFailure("a notification was answered HTTP \(status)") }
            // Unreachable or 503: wait (bounded) until a server says it is healthy again, then resend.
            for _ in 0..<600 {
                if let server = target(0),
                    let (health, _) = try? await HTTP.send("GET", server.appendingPathComponent("healthz"), timeout: 2),
                    health == 200
                {
                    break
                }
                try await Task.sleep(for: .milliseconds(100))  // polling a condition, bounded (60 s)
            }
        }
        throw ServerFailure("a notification was not answered 2xx in 200 attempts")
    }
}

private actor BodyQueue {
    private var bodies: [String]
    private var index = 0
    init(_ bodies: [String]) { self.bodies = bodies }
    func next() -> String? {
        guard index < bodies.count else { return nil }
        defer { index += 1 }
        return bodies[index]
    }
}

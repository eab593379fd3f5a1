import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import Foundation

/// The ledger's figures (`--ledger`, run from the repository root): App Store notifications applied per
/// second with every signature checked (the payload and both inner JWS, on the tests' throwaway chain),
/// into the in-memory and the directory store; and one snapshot of a customer owning 100 purchases.
///
/// The signed story (`Fixtures/ledger/appstore`) is applied to a fresh ledger in each round, so no
/// notification is a duplicate; each figure is the median of `rounds` rounds.
enum LedgerBench {
    static let bundleId = "com.acme.trails"
    static let catalog = EntitlementCatalog(products: ["com.acme.trails.pro.monthly": .init(entitlementIds: ["pro"])])
    static let instant = Date(timeIntervalSince1970: 1_740_000_000)

    static func report(rounds: Int = 15) async throws {
        let root = try Data(contentsOf: URL(fileURLWithPath: "Tests/LedgerTests/Notifications/ledger-root.der"))
        let folder = URL(fileURLWithPath: "Fixtures/ledger/appstore")
        let bodies = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
            try Data(contentsOf: folder.appendingPathComponent($0))
        }
        let source = AppStoreLedgerSource(catalog: catalog, bundleId: bundleId, rootCertificates: [root])
        print("\n| ledger | median | rounds |")
        print("|---|---|---|")
        let memory = try await rate(rounds: rounds, bodies: bodies) { InMemoryLedgerStore() as any LedgerStore }
        print("| App Store notifications applied, in-memory store | \(format(memory)) /s | \(rounds) |")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let directory = try await rate(rounds: rounds, bodies: bodies) {
            try DirectoryLedgerStore(directory: scratch.appendingPathComponent(UUID().uuidString)) as any LedgerStore
        }
        print("| App Store notifications applied, directory store | \(format(directory)) /s | \(rounds) |")
        let snapshot = try await hundredThreadSnapshot(source: source, rounds: rounds)
        print(
            "| one snapshot of a customer with 100 purchases (in-memory) | \(String(format: "%.2f", snapshot * 1000)) ms | \(rounds) |"
        )
    }

    /// Notifications per second: the median over rounds of (notifications / seconds to apply them all).
    private static func rate(rounds: Int, bodies: [Data], store: () throws -> any LedgerStore) async throws -> Double {
        let root = try Data(contentsOf: URL(fileURLWithPath: "Tests/LedgerTests/Notifications/ledger-root.der"))
        var rates: [Double] = []
        for _ in 0..<rounds {
            let ledger = EntitlementLedger(
                sources: [AppStoreLedgerSource(catalog: catalog, bundleId: bundleId, rootCertificates: [root])],
                store: try store())
            let start = DispatchTime.now().uptimeNanoseconds
            for body in bodies {
                _ = try await ledger.apply(LedgerNotification(source: .appStore, body: body, receivedAt: instant))
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            rates.append(Double(bodies.count) / seconds)
        }
        return Statistics.median(rates)
    }

    /// Seconds for one `snapshot(for:at:)` of a customer owning 100 subscriptions (decoded payloads, posted
    /// by the app), the median over rounds.
    private static func hundredThreadSnapshot(source: AppStoreLedgerSource, rounds: Int) async throws -> Double {
        let day: Int64 = 86_400_000
        let start: Int64 = 1_735_689_600_000
        let items = (0..<100).map { index -> JSONValue in
            let id = String(3_000_000_000_000_000 + index)
            return .object([
                "transactionId": .string(id), "originalTransactionId": .string(id), "bundleId": .string(bundleId),
                "productId": .string("com.acme.trails.pro.monthly"), "type": .string("Auto-Renewable Subscription"),
                "purchaseDate": .integer(start + Int64(index) * day),
                "expiresDate": .integer(start + Int64(index + 30) * day),
                "signedDate": .integer(start + Int64(index) * day), "environment": .string("Production"),
            ])
        }
        let ledger = EntitlementLedger(sources: [source])
        _ = try await ledger.apply(
            LedgerDocument(
                source: .appStore, body: Data(JSONValue.array(items).compactText.utf8), appUserId: "bench",
                receivedAt: instant))
        var times: [Double] = []
        for _ in 0..<rounds {
            let begin = DispatchTime.now().uptimeNanoseconds
            _ = try await ledger.snapshot(for: "bench", at: instant)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
        }
        return Statistics.median(times)
    }

    private static func format(_ rate: Double) -> String { String(format: "%.0f", rate) }
}

import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// A notification's three JWS (the payload, the transaction, the renewal info) are verified once each;
/// a statement the ledger keeps is never verified again when it is read back.
@Suite("App Store statements verified once", .timeLimit(.minutes(2)))
struct VerificationOnceTests {
    final class Paths: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []

        func append(_ path: JSONPath) { lock.withLock { paths.append("\(path)") } }

        func take() -> [String] {
            lock.withLock {
                defer { paths = [] }
                return paths
            }
        }
    }

    @Test func eachJWSOnceAndNoneWhenRead() async throws {
        let verified = Paths()
        let source = AppStoreLedgerSource(
            catalog: SignedNotifications.catalog, bundleId: SignedNotifications.bundleId,
            rootCertificates: [try SignedNotifications.resource("ledger-root.der")],
            verificationObserver: { verified.append($0) })
        let ledger = EntitlementLedger(sources: [source])
        for name in ["subscribed", "renewed"] {
            #expect(try await ledger.apply(try SignedNotifications.notification(name)).name == "applied")
            let paths = verified.take()
            #expect(paths.count == 3, "the payload, the transaction and the renewal info: \(paths)")
            #expect(Set(paths).count == paths.count, "none twice: \(paths)")
        }
        let alice = AppStoreNotificationTests.alice
        #expect(try await ledger.snapshot(for: alice, at: midnight("2025-02-15")).isActive("pro"))
        let thread = try await ledger.thread(LedgerThreadID(source: .appStore, key: "2000000000000001"))
        #expect(thread?.records.allSatisfy(\.isVerified) == true)
        #expect(verified.take().isEmpty, "a kept statement is read back, not verified again")
    }
}

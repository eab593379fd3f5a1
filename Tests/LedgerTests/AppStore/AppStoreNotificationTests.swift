import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// App Store Server Notifications V2 through the ledger: notifications signed by the tests' own
/// throwaway chain (`Notifications/ledger-root.der`; keys discarded), verified payload and inner JWS,
/// bundle id, environment, test notifications and consumption requests, the newest statement.
@Suite("App Store notifications in the ledger", .timeLimit(.minutes(5)))
struct AppStoreNotificationTests {
    static let alice = "6f1c6f0e-5a9b-4a53-9a51-3c1f5a0d1e11"

    func ledger(_ configuration: LedgerConfiguration = LedgerConfiguration()) throws -> EntitlementLedger {
        EntitlementLedger(sources: [try SignedNotifications.appStoreSource()], configuration: configuration)
    }

    func apply(_ names: [String], to ledger: EntitlementLedger) async throws -> [LedgerOutcome] {
        var outcomes: [LedgerOutcome] = []
        for name in names { outcomes.append(try await ledger.apply(try SignedNotifications.notification(name))) }
        return outcomes
    }

    @Test func aSubscriptionNotificationGrantsItsLinkedCustomer() async throws {
        let ledger = try ledger()
        let outcomes = try await apply(["subscribed"], to: ledger)
        #expect(outcomes == [.applied(customers: [Self.alice])], "the appAccountToken is taken as the app user id")
        let snapshot = try await ledger.snapshot(for: Self.alice, at: midnight("2025-01-15"))
        #expect(snapshot.isActive("pro"))
        #expect(snapshot.verification == .verified, "every record was verified")
        #expect(snapshot.provider == .ledger)
        #expect(snapshot.appUserId == Self.alice)
    }

    @Test func anAppAccountTokenMatchesAnAppUserIdInAnyCase() async throws {
        let ledger = try ledger()
        let upper = Self.alice.uppercased()
        _ = try await ledger.logIn(from: upper, to: upper)
        #expect(try await apply(["subscribed"], to: ledger) == [.applied(customers: [upper])])
    }

    @Test func aRedeliveredActiveAfterExpiryRevivesNothing() async throws {
        let ledger = try ledger()
        _ = try await apply(["subscribed", "renewed", "autoRenewOff", "expired"], to: ledger)
        let redelivered = try await ledger.apply(try SignedNotifications.notification("renewed"))
        #expect(redelivered == .duplicate)
        let march = midnight("2025-03-15")
        #expect(try await ledger.snapshot(for: Self.alice, at: march).isActive("pro") == false)
    }

    @Test func anyArrivalOrderWithDuplicatesGivesOneSnapshot() async throws {
        let story = ["subscribed", "renewed", "autoRenewOff", "expired", "test", "carolSubscribed", "carolRefund"]
        let instants = ["2025-01-15", "2025-02-05", "2025-02-12", "2025-03-15"].map(midnight)
        var expected: [EntitlementSnapshot]?
        var generator = SplitMix64(seed: 7)
        for round in 0..<6 {
            var inputs = story + story.prefix(round)
            if round > 0 { inputs.shuffle(using: &generator) }
            let ledger = try ledger()
            _ = try await apply(inputs, to: ledger)
            var snapshots: [EntitlementSnapshot] = []
            for instant in instants { snapshots.append(try await ledger.snapshot(for: Self.alice, at: instant)) }
            if let expected {
                #expect(snapshots == expected, "round \(round): \(inputs)")
            } else {
                expected = snapshots
            }
        }
        #expect(expected?.map { $0.isActive("pro") } == [true, true, true, false])
        #expect(expected?[2]["pro"]?.willRenew == false, "auto-renew was turned off on Feb 10")
    }

    @Test func testNotificationsAndConsumptionRequestsStoreNothing() async throws {
        let ledger = try ledger()
        let outcomes = try await apply(["test", "consumptionRequest"], to: ledger)
        #expect(outcomes.map(\.name) == ["noChange", "noChange"])
        #expect(try await ledger.customers().isEmpty)
        #expect(try await ledger.thread(LedgerThreadID(source: .appStore, key: "2000000000000001")) == nil)
    }

    @Test(
        "forged, foreign, tampered and sandbox notifications are refused and store nothing",
        arguments: [
            ("forged", LedgerRefusal.Kind.certificateChain), ("forgedInner", .certificateChain),
            ("tampered", .signature), ("foreignBundle", .bundleId), ("sandbox", .environment),
        ])
    func refused(name: String, kind: LedgerRefusal.Kind) async throws {
        let ledger = try ledger()
        let notification = try SignedNotifications.notification(name)
        do {
            _ = try await ledger.apply(notification)
            Issue.record("\(name) was applied")
        } catch {
            #expect(error.kind == kind, "\(error)")
        }
        #expect(try await ledger.customers().isEmpty)
        // Refused before its id was kept: a good delivery with the same id is still applied.
        #expect(try await ledger.apply(try SignedNotifications.notification("subscribed")).name == "applied")
    }

    @Test func aSandboxNotificationIsAcceptedWhenConfigured() async throws {
        let ledger = try ledger(LedgerConfiguration(environments: [.production, .sandbox]))
        #expect(try await apply(["sandbox"], to: ledger).map(\.name) == ["applied"])
    }

    @Test func aRefundRevokesAndAnUnlinkedPurchaseWaitsForItsLink() async throws {
        let ledger = try ledger()
        let outcome = try await ledger.apply(try SignedNotifications.notification("carolSubscribed"))
        #expect(outcome == .unlinked(thread: LedgerThreadID(source: .appStore, key: "2000000000000101")))
        let posted = LedgerDocument(
            source: .appStore, body: Data(try SignedNotifications.body("carolTransactions").utf8), appUserId: "carol",
            receivedAt: midnight("2025-02-02"))
        #expect(try await ledger.apply(posted) == .applied(customers: ["carol"]), "the app posted it as carol")
        #expect(try await ledger.snapshot(for: "carol", at: midnight("2025-02-10")).isActive("pro"))
        _ = try await apply(["carolRefund"], to: ledger)
        let refunded = try await ledger.snapshot(for: "carol", at: midnight("2025-02-20"))
        #expect(refunded.isActive("pro") == false)
        #expect(refunded["pro"]?.refundedAt != nil)
    }
}

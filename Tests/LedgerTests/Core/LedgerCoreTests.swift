import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// The vendor-free rules of ledger.md over the plain in-test source.
@Suite("Ledger core rules", .timeLimit(.minutes(5)))
struct LedgerCoreTests {
    let at = Date(timeIntervalSince1970: 1_500)

    func ledger(_ configuration: LedgerConfiguration = LedgerConfiguration()) -> EntitlementLedger {
        EntitlementLedger(sources: [PlainSource()], configuration: configuration)
    }

    @Test func theNewestStatementWinsWhateverTheArrivalOrder() async throws {
        let newer = Plain.notification(id: "b", [Plain.record("t", order: 20, expires: 2_000, account: "alice")])
        let older = Plain.notification(id: "a", [Plain.record("t", order: 10, expires: 1_200, account: "alice")])
        for inputs in [[older, newer], [newer, older]] {
            let ledger = ledger()
            for input in inputs { _ = try await ledger.apply(input) }
            let snapshot = try await ledger.snapshot(for: "alice", at: at)
            #expect(snapshot.isActive("pro"), "the newer statement (expiry 2000) is kept in both orders")
            #expect(snapshot.provider == .ledger)
        }
    }

    @Test func anOlderStatementChangesNothing() async throws {
        let ledger = ledger()
        _ = try await ledger.apply(Plain.notification(id: "b", [Plain.record("t", order: 20, account: "alice")]))
        let outcome = try await ledger.apply(Plain.notification(id: "a", [Plain.record("t", order: 10)]))
        guard case .noChange = outcome else {
            Issue.record("got \(outcome)")
            return
        }
    }

    @Test func aSeenNotificationIdIsADuplicate() async throws {
        let ledger = ledger()
        let first = try await ledger.apply(Plain.notification(id: "n", [Plain.record("t", order: 1, account: "al")]))
        #expect(first == .applied(customers: ["al"]))
        let again = try await ledger.apply(
            Plain.notification(id: "n", [Plain.record("t", order: 2, expires: 1_100, account: "al")]))
        #expect(again == .duplicate)
        #expect(try await ledger.snapshot(for: "al", at: at).isActive("pro"), "the duplicate changed nothing")
    }

    @Test func aSandboxInputIsRefusedByDefaultAndStoresNothing() async throws {
        let ledger = ledger()
        let sandbox = Plain.notification(id: "s", environment: "sandbox", [Plain.record("t", order: 1, account: "al")])
        await #expect(throws: LedgerRefusal.self) { try await ledger.apply(sandbox) }
        #expect(try await ledger.customers().isEmpty)
        let both = self.ledger(LedgerConfiguration(environments: [.production, .sandbox]))
        #expect(try await both.apply(sandbox) == .applied(customers: ["al"]))
    }

    @Test func anUnknownSourceIsRefused() async throws {
        let input = LedgerNotification(source: .stripe, body: Data("{}".utf8), receivedAt: at)
        do {
            _ = try await ledger().apply(input)
            Issue.record("applied")
        } catch {
            #expect(error.kind == .unknownSource)
        }
    }

    @Test func anUnlinkedPurchaseIsLinkedByALaterLink() async throws {
        let ledger = ledger()
        let outcome = try await ledger.apply(Plain.notification(id: "n", [Plain.record("t", order: 1)]))
        #expect(outcome == .unlinked(thread: LedgerThreadID(source: Plain.source, key: "t")))
        let record = Plain.record("u", order: 1, account: "acct-1")
        _ = try await ledger.link(obfuscatedAccountId: "acct-1", to: "bob")
        #expect(try await ledger.apply(Plain.notification(id: "m", [record])) == .applied(customers: ["bob"]))
    }

    @Test func postingAnIdentifiedOwnersPurchaseFollowsTheRestoreBehaviour() async throws {
        for behavior in RestoreBehavior.allCases {
            let ledger = ledger(LedgerConfiguration(restoreBehavior: behavior))
            let purchase = [Plain.record("t", order: 1, expires: 2_000)]
            _ = try await ledger.apply(Plain.document(purchase, appUserId: "alice"))
            let outcome = try await ledger.apply(Plain.document(purchase, appUserId: "bob"))
            let alice = try await ledger.snapshot(for: "alice", at: at).isActive("pro")
            let bob = try await ledger.snapshot(for: "bob", at: at).isActive("pro")
            switch behavior {
            case .transferToNewAppUserId:
                #expect(outcome == .applied(customers: ["alice", "bob"]) && !alice && bob)
            case .transferIfNoActiveSubscriptions, .keepWithOriginalAppUserId:
                #expect(outcome == .receiptInUseByOtherUser(owner: "alice") && alice && !bob)
            case .shareBetweenAppUserIds:
                #expect(outcome == .applied(customers: ["alice"]) && alice && bob)
            }
        }
    }

    @Test func anonymousLogInAliasesTheNewId() async throws {
        let ledger = ledger()
        let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"
        _ = try await ledger.apply(Plain.document([Plain.record("t", order: 1)], appUserId: anonymous))
        let result = try await ledger.logIn(from: anonymous, to: "alice")
        #expect(result.created)
        #expect(try await ledger.snapshot(for: "alice", at: at).isActive("pro"))
        #expect(try await ledger.customers() == [[anonymous, "alice"]])
    }
}

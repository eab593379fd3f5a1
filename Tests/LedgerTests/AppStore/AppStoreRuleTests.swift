import EntitlementKit
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

@testable import EntitlementKitAppStore

/// The App Store rules of ledger.md beyond the first suite: a seen id is checked after verification, a
/// statuses response dates its status by its items, and of two statements signed at one instant the
/// verified one, then the one last by bytes, is kept.
@Suite("App Store rules in the ledger", .timeLimit(.minutes(5)))
struct AppStoreRuleTests {
    func ledger() throws -> EntitlementLedger {
        EntitlementLedger(sources: [try SignedNotifications.appStoreSource()])
    }

    @Test func aSeenIdWithABadSignatureIsRefusedNotADuplicate() async throws {
        let ledger = try ledger()
        _ = try await ledger.apply(try SignedNotifications.notification("subscribed"))
        _ = try await ledger.apply(try SignedNotifications.notification("renewed"))
        // `tampered` carries `renewed`'s notificationUUID with a payload whose signature does not match.
        let tampered = try SignedNotifications.notification("tampered")
        do {
            let outcome = try await ledger.apply(tampered)
            Issue.record("a tampered redelivery was answered \(outcome)")
        } catch {
            #expect(error.kind == .signature)
        }
    }

    @Test func aStatusesResponseDatesItsStatusByItsItemsNewestSignedDate() async throws {
        let ledger = try ledger()
        let document = LedgerDocument(
            source: .appStore, body: Data(try SignedNotifications.body("statusesDocument").utf8),
            receivedAt: midnight("2025-06-01"))
        #expect(try await ledger.apply(document) == .applied(customers: [AppStoreNotificationTests.alice]))
        let thread = try await ledger.thread(LedgerThreadID(source: .appStore, key: "2000000000000001"))
        let status = thread?.records.first { $0.statement == "status" }
        #expect(status?.instant == midnight("2025-02-05"), "the items' signedDate, not receivedAt")
        #expect(status?.isVerified == true)
        // A notification signed later than the response's items states a newer status.
        _ = try await ledger.apply(try SignedNotifications.notification("expired"))
        let later = try await ledger.thread(LedgerThreadID(source: .appStore, key: "2000000000000001"))
        #expect(later?.records.first { $0.statement == "status" }?.instant ?? .distantPast > status?.instant ?? .now)
    }

    @Test func atOneSignedDateTheStatementLastByBytesIsKept() {
        let signed = midnight("2025-02-05")
        let first = AppStoreLedgerRecords.order(signedDate: signed, body: Data("a".utf8))
        let last = AppStoreLedgerRecords.order(signedDate: signed, body: Data("b".utf8))
        #expect(first < last, "the bytes that sort last")
        let newer = AppStoreLedgerRecords.order(signedDate: signed.addingTimeInterval(0.001), body: Data())
        #expect(last < newer, "a later signedDate beats both")
    }
}

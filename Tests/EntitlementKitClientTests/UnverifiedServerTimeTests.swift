import EntitlementKit
import Foundation
import TestSupport
import Testing

/// Only a verified App Store document's signedDate (its `requestDate`) feeds the trusted instant; a decoded
/// one's dates are the sender's word (store-direct.md, "Verification").
@Suite(.timeLimit(.minutes(5))) struct UnverifiedServerTimeTests {
    /// Answers every read with one App Store snapshot whose `requestDate` is far ahead of the device.
    struct StoreAnswers: EntitlementProvider {
        var requestDate: Date
        var verification: SnapshotVerification
        var provider: ProviderID { .appStore }
        func makeAnonymousAppUserId() -> String { "anonymous" }
        func isAnonymous(_ appUserId: String) -> Bool { appUserId == "anonymous" }
        func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
            EntitlementSnapshot(
                provider: .appStore, appUserId: appUserId, requestDate: requestDate, evaluatedAt: requestDate,
                verification: verification)
        }
        func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
            -> LogInResult
        {
            throw EntitlementClientError(.offline, "not used")
        }
        func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
            -> EntitlementSnapshot
        {
            try await snapshot(for: appUserId)
        }
        func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
            -> EntitlementSnapshot
        {
            try await snapshot(for: appUserId)
        }
    }

    static let start = instant("2025-01-01T00:00:00Z")
    static let ahead = start.addingTimeInterval(365 * 86_400)

    static func evaluatedAt(_ verification: SnapshotVerification) async throws -> Date? {
        let time = TestTime(start: start)
        let client = try await EntitlementClient(
            provider: StoreAnswers(requestDate: ahead, verification: verification),
            cache: InMemoryEntitlementCache(), appUserId: "alice", deviceClock: time.device,
            monotonicClock: time.monotonic)
        return await client.checkEntitlements(.fetchCurrent).snapshot?.evaluatedAt
    }

    @Test func aVerifiedSignedDateMovesTheTrustedInstant() async throws {
        #expect(try await Self.evaluatedAt(.verified) == Self.ahead)
    }

    @Test func anUnverifiedOneDoesNot() async throws {
        #expect(try await Self.evaluatedAt(.notRequested) == Self.start)
    }
}

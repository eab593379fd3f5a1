import EntitlementKit
import EntitlementKitQonversion
import TestSupport
import Testing

/// `store_transactions`: order, and the fields taken from the latest one.
@Suite("Transactions", .timeLimit(.minutes(5)))
struct TransactionMappingTests {
    func entitlement(transactions: [String]) throws -> Entitlement {
        let list = transactions.joined(separator: ", ")
        let json = launchResult(permission: premium(extra: #""store_transactions": [\#(list)]"#))
        return try #require(try qonversionSnapshot(json)["premium"])
    }

    @Test func listedOldestFirstWhateverTheWireOrder() throws {
        let mapped = try entitlement(transactions: [
            transaction(id: "c", at: "2025-05-10T00:00:00Z"),
            transaction(id: "a", at: "2025-03-10T00:00:00Z", type: "subscription_started"),
            transaction(id: "b", at: "2025-04-10T00:00:00Z"),
        ])
        #expect(mapped.transactions.map(\.transactionId) == ["a", "b", "c"])
    }

    @Test func equalDatesKeepWireOrderAndUndatedComeFirst() throws {
        let mapped = try entitlement(transactions: [
            transaction(id: "second", at: "2025-05-10T00:00:00Z"),
            #"{"transaction_id": "undated-1", "environment": "sandbox"}"#,
            transaction(id: "third", at: "2025-05-10T00:00:00Z"),
            transaction(id: "first", at: "2025-04-10T00:00:00Z"),
            #"{"transaction_id": "undated-2"}"#,
        ])
        #expect(mapped.transactions.map(\.transactionId) == ["undated-1", "undated-2", "first", "second", "third"])
        // The latest is the last dated one, so the undated sandbox transaction does not make it sandbox.
        #expect(mapped.isSandbox == false)
    }

    @Test func sandboxAndOwnershipComeFromTheLatestTransaction() throws {
        let sharedThenOwnSandbox = try entitlement(transactions: [
            transaction(id: "new", at: "2025-05-10T00:00:00Z", environment: "sandbox", ownership: "owner"),
            transaction(id: "old", at: "2025-04-10T00:00:00Z", environment: "production", ownership: "family_sharing"),
        ])
        #expect(sharedThenOwnSandbox.isSandbox)
        #expect(sharedThenOwnSandbox.ownershipType == .purchased)

        let sandboxThenSharedProduction = try entitlement(transactions: [
            transaction(id: "old", at: "2025-04-10T00:00:00Z", environment: "sandbox", ownership: "owner"),
            transaction(id: "new", at: "2025-05-10T00:00:00Z", environment: "production", ownership: "family_sharing"),
        ])
        #expect(sandboxThenSharedProduction.isSandbox == false)
        #expect(sandboxThenSharedProduction.ownershipType == .familyShared)
    }

    @Test("an integer transaction id (2023 responses) reads as its decimal string; a string stays as sent")
    func integerIdsReadAsDecimalStrings() throws {
        let mapped = try entitlement(transactions: [
            #"{"transaction_id": 2000000612345678, "original_transaction_id": 2000000612345678, "transaction_timestamp": \#(seconds("2024-06-01T00:00:00Z"))}"#,
            #"{"transaction_id": 0, "original_transaction_id": "2000000612345678", "transaction_timestamp": \#(seconds("2025-05-01T00:00:00Z"))}"#,
            #"{"transaction_id": "GPA.3372-4150-9088-12345..1", "original_transaction_id": 9223372036854775807, "transaction_timestamp": \#(seconds("2025-05-02T00:00:00Z"))}"#,
        ])
        #expect(mapped.transactions.map(\.transactionId) == ["2000000612345678", "0", "GPA.3372-4150-9088-12345..1"])
        #expect(
            mapped.transactions.map(\.originalTransactionId) == [
                "2000000612345678", "2000000612345678", "9223372036854775807",
            ])
    }

    @Test func withoutTransactionsOwnershipIsUnknownAndNotSandbox() throws {
        for extra in [#""store_transactions": []"#, #""store_transactions": null"#, #""renews_count": 0"#] {
            let mapped = try #require(
                try qonversionSnapshot(launchResult(permission: premium(extra: extra)))["premium"])
            #expect(mapped.transactions.isEmpty)
            #expect(mapped.ownershipType == .unknown)
            #expect(mapped.isSandbox == false)
        }
    }

    @Test func refundedAtIsTheLatestTransactionsRevokeTimestamp() throws {
        let revoke = #""transaction_revoke_timestamp": \#(seconds("2025-05-20T08:00:00Z"))"#
        let latestRevoked = try entitlement(transactions: [
            transaction(id: "old", at: "2025-04-10T00:00:00Z"),
            transaction(id: "new", at: "2025-05-10T00:00:00Z", extra: revoke),
        ])
        #expect(latestRevoked.refundedAt == instant("2025-05-20T08:00:00Z"))
        #expect(latestRevoked.transactions.last?.revocationDate == instant("2025-05-20T08:00:00Z"))

        // An older refund followed by a new purchase is history, not the current state.
        let earlierRevoked = try entitlement(transactions: [
            transaction(id: "old", at: "2025-04-10T00:00:00Z", extra: revoke),
            transaction(id: "new", at: "2025-05-10T00:00:00Z"),
        ])
        #expect(earlierRevoked.refundedAt == nil)
        #expect(earlierRevoked.transactions.first?.revocationDate == instant("2025-05-20T08:00:00Z"))
    }

    @Test func theRevocationKeyIsRevokeNotRevocation() throws {
        let mapped = try entitlement(transactions: [
            transaction(
                id: "a", at: "2025-05-10T00:00:00Z",
                extra: #""transaction_revocation_timestamp": \#(seconds("2025-05-20T08:00:00Z"))"#)
        ])
        #expect(mapped.refundedAt == nil)
    }

    @Test func everyTransactionFieldIsMapped() throws {
        let mapped = try entitlement(transactions: [
            """
            {"original_transaction_id": "2000000100", "transaction_id": "2000000200", "offer_code": "SPRING25",
             "promo_offer_id": "promo_1", "transaction_timestamp": \(seconds("2025-05-10T00:00:00Z")),
             "expiration_timestamp": \(seconds("2025-06-10T00:00:00Z")),
             "transaction_revoke_timestamp": \(seconds("2025-05-11T00:00:00Z")),
             "environment": "sandbox", "ownership_type": "family_sharing", "type": "intro_started"}
            """
        ])
        let expected = Transaction(
            transactionId: "2000000200", originalTransactionId: "2000000100", productId: nil, type: .introStarted,
            transactionDate: instant("2025-05-10T00:00:00Z"), expirationDate: instant("2025-06-10T00:00:00Z"),
            revocationDate: instant("2025-05-11T00:00:00Z"), environment: .sandbox, ownershipType: .familyShared,
            offerCode: "SPRING25", store: .unknown)
        #expect(mapped.transactions == [expected])
    }

    @Test func emptyIdentifiersAreNull() throws {
        let mapped = try entitlement(transactions: [
            #"{"transaction_id": "", "original_transaction_id": "", "offer_code": ""}"#
        ])
        let only = try #require(mapped.transactions.first)
        #expect(only.transactionId == nil)
        #expect(only.originalTransactionId == nil)
        #expect(only.offerCode == nil)
    }
}

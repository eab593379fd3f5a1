import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// The transaction synthesized per entitlement, and the flattened one-time purchases.
@Suite("Transactions", .timeLimit(.minutes(5)))
struct TransactionTests {
    @Test(
        "the synthesized transaction's type",
        arguments: [
            // (period, purchase date, original purchase date, expected type)
            ("trial", "2025-09-03T12:00:05Z", "2025-09-03T12:00:05Z", TransactionType.trialStarted),
            ("intro", "2025-09-03T12:00:05Z", "2025-08-27T12:00:05Z", .introStarted),
            ("normal", "2025-09-03T12:00:05Z", "2025-09-03T12:00:05Z", .subscriptionStarted),
            ("normal", "2025-09-03T12:00:05Z", "2025-04-03T12:00:05Z", .subscriptionRenewed),
            ("prepaid", "2025-09-03T12:00:05Z", "2025-09-03T12:00:05Z", .subscriptionStarted),
            ("NORMAL", "2025-09-03T12:00:05Z", "2025-04-03T12:00:05Z", .subscriptionRenewed),
        ])
    func type(period: String, purchase: String, original: String, expected: TransactionType) throws {
        let document = SubscriberDocument.monthlyPro(subscription: [
            "\"period_type\": \"\(period)\"", "\"purchase_date\": \"\(purchase)\"",
            "\"original_purchase_date\": \"\(original)\"",
        ])
        #expect(try document.snapshot()["pro"]?.transactions.map(\.type) == [expected])
    }

    @Test("without an original purchase date a renewal cannot be told from a start")
    func unknownWithoutOriginal() throws {
        var document = SubscriberDocument.monthlyPro()
        document.subscriptions["com.acme.pro.monthly"] = removing(
            "original_purchase_date", from: SubscriberDocument.subscriptionMembers())
        let pro = try #require(try document.snapshot()["pro"])
        #expect(pro.transactions.map(\.type) == [.unknown])
        #expect(pro.transactions.first?.originalTransactionId == nil)
        #expect(pro.originalPurchaseDate == nil)
    }

    @Test("the store transaction id is the original id only when the transaction opened the chain")
    func originalTransactionId() throws {
        let started = SubscriberDocument.monthlyPro(subscription: [
            "\"original_purchase_date\": \"2025-09-03T12:00:05Z\""
        ])
        let startedTransaction = try #require(try started.snapshot()["pro"]?.transactions.first)
        #expect(startedTransaction.transactionId == "1000000123456789")
        #expect(startedTransaction.originalTransactionId == "1000000123456789")

        let renewed = try #require(try SubscriberDocument.monthlyPro().snapshot()["pro"]?.transactions.first)
        #expect(renewed.transactionId == "1000000123456789")
        #expect(renewed.originalTransactionId == nil)
    }

    @Test("fields of the synthesized transaction")
    func fields() throws {
        let transaction = try #require(
            try SubscriberDocument.monthlyPro(subscription: ["\"is_sandbox\": true"]).snapshot()["pro"]?.transactions
                .first)
        #expect(transaction.productId == "com.acme.pro.monthly")
        #expect(transaction.transactionDate == instant("2025-09-03T12:00:05Z"))
        #expect(transaction.expirationDate == instant("2025-10-03T12:00:05Z"))
        #expect(transaction.environment == .sandbox)
        #expect(transaction.store == .appStore)
        #expect(transaction.offerCode == nil)
    }

    @Test("RevenueCat's own purchase id is not a store transaction id")
    func revenueCatIdIsNotATransactionId() throws {
        var document = SubscriberDocument()
        document.nonSubscriptions["com.acme.lifetime"] = [
            removing(
                "store_transaction_id",
                from: SubscriberDocument.oneTimeMembers(date: "2025-05-18T14:03:09Z", transactionId: "x"))
        ]
        let transaction = try #require(try document.snapshot().nonSubscriptionTransactions.first)
        #expect(transaction.transactionId == nil)
        #expect(transaction.originalTransactionId == nil)
    }

    @Test("one-time purchases: every product's, flattened, oldest first, ties by product id then list order")
    func nonSubscriptionTransactionsOrder() throws {
        var document = SubscriberDocument()
        document.nonSubscriptions["com.acme.supporter"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-03-01T10:00:00Z", transactionId: "s1"),
            SubscriberDocument.oneTimeMembers(date: "2025-06-01T10:00:00Z", transactionId: "s2"),
            SubscriberDocument.oneTimeMembers(date: "2025-06-01T10:00:00Z", transactionId: "s3"),
        ]
        document.nonSubscriptions["com.acme.credits"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-08-15T18:30:00Z", transactionId: "c2"),
            SubscriberDocument.oneTimeMembers(
                date: "2025-06-01T10:00:00Z", transactionId: "c1",
                ["\"is_sandbox\": true", "\"store\": \"play_store\""]),
        ]
        let transactions = try document.snapshot().nonSubscriptionTransactions
        #expect(transactions.map(\.transactionId) == ["s1", "c1", "s2", "s3", "c2"])
        #expect(
            transactions.allSatisfy {
                $0.type == .unknown && $0.ownershipType == .purchased && $0.expirationDate == nil
            })
        #expect(transactions[1].environment == .sandbox)
        #expect(transactions[1].store == .playStore)
        #expect(transactions[1].productId == "com.acme.credits")
    }
}

import EntitlementKit
import Foundation
import Testing

@Suite("Client logging", .timeLimit(.minutes(5)))
struct LoggingTests {
    @Test("the client logs what it does through EntitlementLogger, and never an app user id or a receipt")
    func nothingSecret() async throws {
        let device = TestDevice()
        let recorder = LogRecorder()
        let secretId = "customer-7f3a9c"
        let token = "MIIT-secret-receipt-token"
        device.backend.grant("premium", to: secretId, until: nil)
        let client = try await device.launch(appUserId: secretId, logger: recorder.logger)
        _ = await client.checkEntitlements()
        _ = await client.checkEntitlements()
        _ = try await client.recordPurchase(
            StorePurchase(receipt: StoreReceipt(store: .appStore, token: token), productId: "monthly"))
        _ = try await client.restorePurchases(StoreReceipt(store: .appStore, token: token))
        _ = try await client.logIn("other-\(secretId)")
        device.backend.goOffline()
        _ = await client.checkEntitlements(.fetchCurrent)
        _ = try? await client.syncPurchases(StoreReceipt(store: .appStore, token: token))
        try await client.logOut()

        let records = recorder.records
        #expect(records.count >= 8)
        #expect(records.contains { $0.level == .warning && $0.message.contains("offline") })
        for record in records {
            #expect(!record.message.contains(secretId), "\(record)")
            #expect(!record.message.contains(token), "\(record)")
            #expect(!record.message.contains("RCAnonymousID"), "\(record)")
        }
    }

    @Test("records below the minimum level are not passed on")
    func minimumLevel() async throws {
        let device = TestDevice()
        let recorder = LogRecorder()
        let logger = EntitlementLogger(minimumLevel: .warning) { record in
            recorder.logger.log(record.level, record.message)
        }
        let client = try await device.launch(appUserId: "alice", logger: logger)
        _ = await client.checkEntitlements()
        #expect(recorder.records.isEmpty)
    }
}

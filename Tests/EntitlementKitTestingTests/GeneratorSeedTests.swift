import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

/// The test kit's notification generators make new ids on every run (a persistent store is never fed the
/// same notification twice by accident) and the same ids on every run given the same `seed:`.
@Suite("The notification generators' ids and their seed", .timeLimit(.minutes(2)))
struct GeneratorSeedTests {
    static let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z
    static let monthly = ScenarioProduct(
        id: "monthly", kind: .autoRenewable(period: ISODuration(months: 1), trial: nil, gracePeriod: nil),
        entitlements: ["premium"])

    /// The `notificationUUID`s of one run: a purchase, then two renewals, told by a generator of its own.
    static func appStoreIds(seed: UInt32?) throws -> [String] {
        let signer = try AppStoreTestSigner()
        let store = SimulatedStore(products: [monthly], start: start)
        let notifications = SimulatedServerNotifications(
            store: store, bundleId: "com.acme.trails", signer: signer, seed: seed)
        let device = SimulatedTransactionSource(
            store: store, storeAccount: "apple-1", bundleId: "com.acme.trails", signer: signer, deliversUpdates: false)
        _ = try device.buy("monthly")
        var bodies = notifications.pending(storeAccounts: ["apple-1"])
        for _ in 0..<2 {
            store.advance(by: ISODuration(months: 1))
            bodies += notifications.pending(storeAccounts: ["apple-1"])
        }
        #expect(bodies.count == 3)
        return try bodies.map { body in
            let jws = try #require(try JSONValue.parse(body)["signedPayload"].flatMap(Self.string))
            let payload = try #require(Self.base64URLDecoded(String(jws.split(separator: ".")[1])))
            return try #require(try JSONValue.parse(payload)["notificationUUID"].flatMap(Self.string))
        }
    }

    /// The message ids and purchase tokens of one run of Play pushes.
    static func playIds(seed: UInt64?) throws -> [String] {
        let pushes = try SimulatedPlayPushes(
            packageName: "com.acme.trails", audience: "https://example.com/push",
            serviceAccountEmail: "push@example.iam.gserviceaccount.com", seed: seed)
        let token = pushes.purchaseToken()
        let first = pushes.subscription(4, purchaseToken: token, subscriptionId: "monthly", at: start)
        let second = pushes.subscription(2, purchaseToken: token, subscriptionId: "monthly", at: start)
        return [token, first.messageId, second.messageId]
    }

    @Test("App Store: unseeded runs differ in every notificationUUID; one seed gives the same ids")
    func appStoreNotificationIds() throws {
        let first = try Self.appStoreIds(seed: nil)
        let second = try Self.appStoreIds(seed: nil)
        #expect(Set(first).count == 3)
        #expect(Set(first).isDisjoint(with: second))
        #expect(try Self.appStoreIds(seed: 7) == Self.appStoreIds(seed: 7))
        #expect(try Self.appStoreIds(seed: 7) != Self.appStoreIds(seed: 8))
    }

    @Test("Play: unseeded runs differ in every message id and token; one seed gives the same ids")
    func playPushIds() throws {
        let first = try Self.playIds(seed: nil)
        let second = try Self.playIds(seed: nil)
        #expect(Set(first).count == 3)
        #expect(Set(first).isDisjoint(with: second))
        #expect(try Self.playIds(seed: 7) == Self.playIds(seed: 7))
        #expect(try Self.playIds(seed: 7) != Self.playIds(seed: 8))
    }

    static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    static func base64URLDecoded(_ text: String) -> String? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) }
    }
}

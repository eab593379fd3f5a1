import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitTesting
import Foundation
import Testing

/// A source is not trusted: what it hands over counts only when it verifies.
@Suite("StoreKit 2 on the device: forged transactions", .timeLimit(.minutes(5)))
struct ForgedTransactionTests {
    static func transaction(productId: String, token: String? = nil, signedAt: Date = OnDeviceWorld.start) -> JSONValue
    {
        var members: [String: JSONValue] = [
            "transactionId": .string("2000000001"), "originalTransactionId": .string("2000000001"),
            "bundleId": .string(OnDeviceWorld.bundleId), "productId": .string(productId),
            "purchaseDate": .integer(signedAt.millisecondsSince1970),
            "originalPurchaseDate": .integer(signedAt.millisecondsSince1970), "type": .string("Non-Consumable"),
            "inAppOwnershipType": .string("PURCHASED"), "signedDate": .integer(signedAt.millisecondsSince1970),
            "environment": .string("Production"),
        ]
        if let token { members["appAccountToken"] = .string(token) }
        return .object(members)
    }

    static func client(over source: some SignedTransactionSource, roots: [Data]?) async throws -> EntitlementClient {
        let clock = ControllableClock(start: OnDeviceWorld.start)
        let provider = AppStoreOnDeviceProvider(
            source: source, catalog: OnDeviceWorld.catalog, rootCertificates: roots, bundleId: OnDeviceWorld.bundleId,
            deviceClock: clock)
        return try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), appUserId: "alice", deviceClock: clock,
            monotonicClock: clock)
    }

    /// `jws` with its payload replaced by `payload` (the signature no longer matches).
    static func tampered(_ jws: String, payload: JSONValue) -> String {
        let parts = jws.split(separator: ".")
        let encoded = Data(payload.compactText.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "\(parts[0]).\(encoded).\(parts[2])"
    }

    @Test("a payload changed after signing is refused and grants nothing")
    func tamperedPayload() async throws {
        let signer = try AppStoreTestSigner()
        let genuine = signer.sign(Self.transaction(productId: "maps"))
        let forged = Self.tampered(genuine, payload: Self.transaction(productId: "monthly"))
        let client = try await Self.client(over: FixedSource(transactions: [forged]), roots: [signer.rootCertificate])
        let check = await client.checkEntitlements()
        #expect(check.error?.code == .badResponse)
        #expect(check.snapshot == nil)
        #expect(!check.isActive("premium"))
    }

    @Test("one forged JWS refuses the whole answer: the client keeps its last verified answer")
    func oneForgedAmongGenuine() async throws {
        let signer = try AppStoreTestSigner()
        let genuine = signer.sign(Self.transaction(productId: "maps"))
        let source = SwitchableSource(transactions: [genuine])
        let client = try await Self.client(over: source, roots: [signer.rootCertificate])
        #expect(await client.checkEntitlements().activeEntitlementIds == ["maps"])
        source.transactions = [genuine, Self.tampered(genuine, payload: Self.transaction(productId: "monthly"))]
        let check = await client.checkEntitlements(.fetchCurrent)
        #expect(check.error?.code == .badResponse)
        #expect(check.source == .cache)
        #expect(check.snapshot?.activeEntitlementIds == ["maps"], "premium is never granted")
    }

    @Test("a JWS under the test chain is refused by a provider trusting Apple Root CA - G3 (the default)")
    func testChainIsNotApple() async throws {
        let signer = try AppStoreTestSigner()
        let client = try await Self.client(
            over: FixedSource(transactions: [signer.sign(Self.transaction(productId: "maps"))]), roots: nil)
        let check = await client.checkEntitlements()
        #expect(check.error?.code == .badResponse)
        #expect(!check.isActive("maps"))
    }

    @Test("a forged purchase reported by the app is refused and not cached")
    func forgedReportedPurchase() async throws {
        let signer = try AppStoreTestSigner()
        let client = try await Self.client(over: FixedSource(transactions: []), roots: [signer.rootCertificate])
        let forged = Self.tampered(
            signer.sign(Self.transaction(productId: "maps")), payload: Self.transaction(productId: "monthly"))
        await #expect(throws: EntitlementClientError.self) {
            _ = try await client.recordPurchase(
                StorePurchase(receipt: StoreReceipt(store: .appStore, token: forged), productId: "monthly"))
        }
        #expect(!(await client.checkEntitlements().isActive("premium")))
    }

    @Test("a reported purchase is verified even when it does not count for the user (another's token)")
    func aReportedPurchaseIsVerifiedWhoeverItCountsFor() async throws {
        let signer = try AppStoreTestSigner()
        let provider = AppStoreOnDeviceProvider(
            source: FixedSource(transactions: []), catalog: OnDeviceWorld.catalog,
            rootCertificates: [signer.rootCertificate], identity: .byAppAccountToken)
        let someoneElse = "0B7D3C52-1E4A-4F6B-9C8D-2A1B3C4D5E6F"
        let forged = Self.tampered(
            signer.sign(Self.transaction(productId: "maps", token: someoneElse)),
            payload: Self.transaction(productId: "monthly", token: someoneElse))
        await #expect(throws: EntitlementClientError.self) {
            _ = try await provider.reportPurchase(
                StorePurchase(receipt: StoreReceipt(store: .appStore, token: forged), productId: "monthly"),
                for: "alice")
        }
    }

    @Test("byAppAccountToken: a transaction counts only for the user whose token it carries")
    func byAppAccountToken() async throws {
        let signer = try AppStoreTestSigner()
        let token = "6F1E0B4C-9A0D-4C2B-8E55-3B7C0A1D2E3F"
        let source = FixedSource(transactions: [signer.sign(Self.transaction(productId: "maps", token: token))])
        let clock = ControllableClock(start: OnDeviceWorld.start)
        let provider = AppStoreOnDeviceProvider(
            source: source, catalog: OnDeviceWorld.catalog, rootCertificates: [signer.rootCertificate],
            identity: .byAppAccountToken, deviceClock: clock)
        #expect(try await provider.snapshot(for: token.lowercased()).isActive("maps"), "a UUID id matches in any case")
        #expect(try await provider.snapshot(for: "alice").activeEntitlementIds == [], "no token registered")
        await provider.register(appAccountToken: UUID(uuidString: token)!, for: "alice")
        #expect(try await provider.snapshot(for: "alice").isActive("maps"))
        #expect(try await provider.snapshot(for: "bob").activeEntitlementIds == [])
        let everyone = AppStoreOnDeviceProvider(
            source: source, catalog: OnDeviceWorld.catalog, rootCertificates: [signer.rootCertificate],
            deviceClock: clock)
        #expect(try await everyone.snapshot(for: "bob").isActive("maps"), "by default every user on the device")
    }
}

/// A source whose transactions the test changes.
final class SwitchableSource: SignedTransactionSource, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String]

    init(transactions: [String]) { stored = transactions }

    var transactions: [String] {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    func currentEntitlements() async throws(EntitlementClientError) -> [String] { transactions }
    func transactionUpdates() -> AsyncStream<String> { AsyncStream { $0.finish() } }
    func sync() async throws(EntitlementClientError) {}
}

import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// The app's change signal: a change the server kept without the app asking (a refund Google pushed)
/// reaches the client's `updates()` when the app sends the signal (its silent-push handler, a return to
/// the foreground), with no check by the app.
@Suite(.timeLimit(.minutes(2))) struct OwnBackendChangeSignalTests {
    @Test func aRefundTheServerKeptReachesUpdatesOnTheAppsSignal() async throws {
        let world = try LedgerBackedServer(start: LedgerBackedTests.start)
        world.play.set("token-1", PlayStoreDouble.subscription(expires: LedgerBackedTests.firstExpiry))
        let changes = OwnBackendChangeSignal()
        let provider = OwnBackendProvider(
            configuration: try .init(baseURL: world.server.baseURL),
            requestHeaders: { ["Authorization": "Bearer session-of-\($0)"] }, changeSignal: changes, clock: world.clock)
        let client = try await EntitlementClient(
            provider: provider, cache: InMemoryEntitlementCache(), appUserId: "alice", deviceClock: world.clock)
        _ = try await client.recordPurchase(LedgerBackedTests.purchase("token-1"))
        var updates = client.updates().makeAsyncIterator()
        #expect(try #require(await updates.next()).isActive("premium"))

        // Google refunds; the push is not authenticated here, so the server fetches the purchase, now ended.
        world.clock.set(LedgerBackedTests.start.addingTimeInterval(3600))
        world.play.set(
            "token-1",
            PlayStoreDouble.subscription(expires: "2025-09-09T00:00:00Z", state: "SUBSCRIPTION_STATE_EXPIRED"))
        #expect(try await world.push(PlayStoreDouble.voided("token-1", messageId: "m-1")) == (200, "applied"))
        changes.send()  // the silent push the server sent after the refund
        var refunded = try #require(await updates.next())
        while refunded.isActive("premium") { refunded = try #require(await updates.next()) }
        #expect(refunded.activeEntitlementIds == [])
    }

    @Test func eachListenerHasItsOwnStreamAndWithoutASignalThereIsNone() async throws {
        let configuration = try OwnBackendProvider.Configuration(baseURL: URL(string: "https://api.example.com/")!)
        #expect(OwnBackendProvider(configuration: configuration).makeChangeSignals() == nil)
        let changes = OwnBackendChangeSignal()
        let provider = OwnBackendProvider(configuration: configuration, changeSignal: changes)
        let first = try #require(provider.makeChangeSignals())
        let second = try #require(provider.makeChangeSignals())
        changes.send()
        var one = first.makeAsyncIterator()
        var two = second.makeAsyncIterator()
        #expect(await one.next() != nil)
        #expect(await two.next() != nil)
    }
}

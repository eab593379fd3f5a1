import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

/// `ControllableClock`'s documented example, run as written (it once passed an optional `ISODuration`).
@Suite("ControllableClock's documented example", .timeLimit(.minutes(5)))
struct ControllableClockExampleTests {
    @Test func theExampleTurnsTheWallClockBackWithoutMovingElapsedTime() async throws {
        let backend = SimulatedBackend(
            flavour: .revenueCat, start: try #require(RFC3339.date(from: "2025-01-01T00:00:00Z")))

        // The documentation's lines:
        let clock = ControllableClock(start: RFC3339.date(from: "2025-01-01T00:00:00Z") ?? .now)
        let client = try await EntitlementClient(
            provider: backend.provider(), cache: InMemoryEntitlementCache(), deviceClock: clock, monotonicClock: clock)
        clock.advance(by: .seconds(3600))
        if let tenDaysBack = ISODuration("-P10D") {  // ISODuration parses text, so it is optional
            clock.setOffset(tenDaysBack)  // the user turns the clock back ten days
        }

        #expect(clock.elapsed() == .seconds(3600))
        #expect(clock.now() == RFC3339.date(from: "2024-12-22T01:00:00Z"))
        #expect(await client.isAnonymous, "no id was configured, so the client made an anonymous one")
    }
}

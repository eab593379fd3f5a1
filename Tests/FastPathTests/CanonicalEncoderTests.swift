import EntitlementKit
import EntitlementKitFixtures
import EntitlementKitMigration
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// The direct canonical encoder (`canonicalJSON`, `canonicalJSONData`) writes exactly the bytes the
/// general writer gives for the snapshot's `jsonValue` tree: on every fixture and on generated snapshots
/// full of strings that need escapes, non-ASCII text, fractional and far-out dates and unlisted values.
@Suite(.timeLimit(.minutes(5))) struct CanonicalEncoderTests {
    private static let decoder = SnapshotDecoder(adapters: [RevenueCatAdapter(), QonversionAdapter()])
    private static let now = Date(millisecondsSince1970: 1_748_779_200_000)  // 2025-06-01T12:00:00Z

    private func expectSameBytes(_ snapshot: EntitlementSnapshot, _ label: String) {
        #expect(snapshot.canonicalJSON(compact: true) == snapshot.jsonValue.compactText, "\(label) compact")
        #expect(snapshot.canonicalJSON() == snapshot.jsonValue.prettyText, "\(label) pretty")
        #expect(snapshot.canonicalJSONData(compact: true) == Data(snapshot.jsonValue.compactText.utf8), "\(label)")
    }

    @Test func everyFixtureSnapshotIsWrittenAsTheTreeWriterWritesIt() throws {
        var compared = 0
        for provider in FixtureCatalog.providers {
            for scenario in try FixtureCatalog.scenarios(provider: provider) {
                let document = try Data(contentsOf: scenario.documentURL)
                if let snapshot = try? Self.decoder.snapshot(from: document, at: Self.now) {
                    expectSameBytes(snapshot, scenario.name)
                    compared += 1
                }
                if case .snapshot(let url) = scenario.expectation {
                    expectSameBytes(try EntitlementSnapshot(json: Data(contentsOf: url)), "\(scenario.name).expected")
                    compared += 1
                }
            }
        }
        #expect(compared > 60)
    }

    @Test func generatedSnapshotsAreWrittenAsTheTreeWriterWritesThem() {
        var random = TestRandom(seed: 12)
        for index in 0..<400 {
            expectSameBytes(random.snapshot(), "generated snapshot \(index)")
        }
    }

    @Test func escapesMatchTheWriterForEveryControlCharacter() {
        let text = String((0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }) + "é€😀\u{2028}"
        let now = Self.now
        let snapshot = EntitlementSnapshot(
            provider: ProviderID(rawValue: "test"), appUserId: text, evaluatedAt: now,
            entitlements: [Entitlement(id: text, productId: text, at: now)])
        expectSameBytes(snapshot, "control characters")
        #expect(snapshot.canonicalJSON(compact: true).contains(#""appUserId":"\u0000\u0001"#))
    }
}

/// A seeded generator of snapshots with awkward contents (SplitMix64; deterministic, bounded).
private struct TestRandom {
    private var bits: SplitMix64

    init(seed: UInt64) { bits = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { bits.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    private static let pieces = [
        "a", "Z", "0", "_", "-", ".", "/", " ", "\"", "\\", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1F}",
        "\u{7F}", "é", "ñ", "€", "客", "😀", "\u{2028}", "premium", "$RCAnonymousID:",
    ]

    mutating func text() -> String {
        (0..<below(12)).map { _ in Self.pieces[below(Self.pieces.count)] }.joined()
    }

    mutating func optionalText() -> String? { below(4) == 0 ? nil : text() }

    mutating func date() -> Date? {
        switch below(6) {
        case 0: return nil
        case 1: return Date(millisecondsSince1970: Int64(below(2_000_000_000)) * 1000)
        case 2: return Date(millisecondsSince1970: 253_402_300_799_999 - Int64(below(1000)))
        case 3: return Date(millisecondsSince1970: -62_135_596_800_000 + Int64(below(100_000_000)))
        default: return Date(millisecondsSince1970: 1_700_000_000_000 + Int64(below(100_000_000_000)))
        }
    }

    mutating func value<T: OpenEnumeration>(_: T.Type) -> T {
        below(8) == 0 ? T(rawValue: "vendor-\(below(3))") : T.knownValues[below(T.knownValues.count)]
    }

    mutating func transaction() -> Transaction {
        Transaction(
            transactionId: optionalText(), originalTransactionId: optionalText(), productId: optionalText(),
            type: value(TransactionType.self), transactionDate: date(), expirationDate: date(),
            revocationDate: date(), environment: value(Environment.self), ownershipType: value(OwnershipType.self),
            offerCode: optionalText(), store: value(Store.self))
    }

    mutating func snapshot() -> EntitlementSnapshot {
        let instant = date() ?? Date(millisecondsSince1970: 1_757_930_400_123)
        let entitlements = (0..<below(5)).map { _ in
            Entitlement(
                id: text(), productId: optionalText(), productPlanId: optionalText(),
                renewState: value(RenewState.self), periodType: value(PeriodType.self), store: value(Store.self),
                storeRaw: optionalText(), isSandbox: below(2) == 0, grantType: value(GrantType.self),
                ownershipType: value(OwnershipType.self), originalPurchaseDate: date(), firstPurchaseDate: date(),
                latestPurchaseDate: date(), trialStartDate: date(), expirationDate: date(),
                gracePeriodExpirationDate: date(), unsubscribeDetectedAt: date(), billingIssueDetectedAt: date(),
                refundedAt: date(), renewsCount: below(3) == 0 ? nil : below(2000) - 10,
                lastActivatedOfferCode: optionalText(), transactions: (0..<below(3)).map { _ in transaction() },
                denial: below(3) == 0 ? Denial(value(Denial.Code.self), raw: optionalText()) : nil, at: instant)
        }
        return EntitlementSnapshot(
            provider: ProviderID(rawValue: below(2) == 0 ? "revenuecat" : text()), appUserId: optionalText(),
            originalAppUserId: optionalText(), requestDate: date(), evaluatedAt: instant, firstSeen: date(),
            managementURL: below(3) == 0 ? nil : URL(string: "https://example.com/manage?u=\(below(1000))&x=%22"),
            originalApplicationVersion: optionalText(), originalPurchaseDate: date(), entitlements: entitlements,
            nonSubscriptionTransactions: (0..<below(4)).map { _ in transaction() })
    }
}

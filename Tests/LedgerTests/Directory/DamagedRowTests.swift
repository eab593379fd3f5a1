import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// A row of a `DirectoryLedgerStore` damaged on disk (bytes flipped, as a disk does) refuses only what
/// touches it, `damaged` naming the row; every other customer and thread keeps working.
@Suite("A damaged row of a directory ledger", .timeLimit(.minutes(2)))
struct DamagedRowTests {
    typealias Play = GooglePlayLedgerTests
    static let alice = AppStoreNotificationTests.alice

    /// A ledger in a fresh folder holding alice (App Store), bob and carol (Play, posted as them).
    static func story() async throws -> (EntitlementLedger, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("Damaged-" + UUID().uuidString)
        let ledger = try LegacyStateTests.ledger(directory)
        _ = try await ledger.apply(try SignedNotifications.notification("subscribed"))
        for (token, customer) in [("first", "bob"), ("other", "carol")] {
            _ = try await ledger.apply(
                .document(
                    Play.document(
                        Play.subscription(expiry: "2025-03-01T00:00:00Z", account: nil), token: token,
                        at: "2025-01-02", appUserId: customer)))
        }
        return (ledger, directory)
    }

    /// The key of `table` that starts with `prefix`.
    static func key(_ directory: URL, _ table: LedgerTable, prefix: String) async throws -> String {
        let store = try DirectoryLedgerStore(directory: directory)
        let keys = try await store.transaction { transaction throws(LedgerRefusal) in
            try await transaction.keys(in: table)
        }
        return try #require(keys.first { $0.hasPrefix(prefix) })
    }

    /// Flips the bits of the last byte of the value of `key` in `table`, where it is in the log, as a
    /// disk's error would.
    static func damage(_ directory: URL, _ table: LedgerTable, _ key: String) async throws {
        let store = try DirectoryLedgerStore(directory: directory)
        let range = try #require(try await store.valueRange(in: table, key: key))
        let file = directory.appendingPathComponent("ledger.log")
        var bytes = try Data(contentsOf: file)
        bytes[Int(range.upperBound) - 1] ^= 0xFF
        try bytes.write(to: file)
    }

    func expectWorking(_ ledger: EntitlementLedger, _ appUserIds: [String]) async throws {
        for appUserId in appUserIds {
            let snapshot = try await ledger.snapshot(for: appUserId, at: midnight("2025-01-15"))
            #expect(snapshot.isActive("pro"), "\(appUserId) keeps working")
        }
    }

    @Test func aDamagedStatementRefusesItsCustomerAndWhatTouchesItOnly() async throws {
        let (_, directory) = try await Self.story()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try await Self.key(directory, .statements, prefix: "googlePlay:5:first ")
        try await Self.damage(directory, .statements, key)

        let reopened = try LegacyStateTests.ledger(directory)
        let refusal = await #expect(throws: LedgerRefusal.self) {
            try await reopened.snapshot(for: "bob", at: midnight("2025-01-15"))
        }
        #expect(refusal?.kind == .damaged)
        #expect(refusal?.row == "statements/" + key)
        let input = LedgerInput.document(
            Play.document(
                Play.subscription(expiry: "2025-04-01T00:00:00Z", account: nil), token: "first", at: "2025-02-02"))
        let inputRefusal = await #expect(throws: LedgerRefusal.self, "an input touching the row is refused") {
            try await reopened.apply(input)
        }
        #expect(inputRefusal?.row == "statements/" + key)
        try await expectWorking(reopened, [Self.alice, "carol"])
        #expect(try await reopened.customers().count == 3)
        let carolRenews = LedgerInput.document(
            Play.document(
                Play.subscription(expiry: "2025-04-01T00:00:00Z", account: nil), token: "other", at: "2025-02-02"))
        #expect(try await reopened.apply(carolRenews) == .applied(customers: ["carol"]))
        let roll = try await reopened.namedCustomers()
        #expect(roll.customers.map(\.name).count == 3 && roll.unreadable.isEmpty)
    }

    @Test func aDamagedCustomerRowRefusesThatCustomerAndTheListingGoesOn() async throws {
        let (ledger, directory) = try await Self.story()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let bob = try await ledger.customers().firstIndex(of: ["bob"]) else { throw CocoaError(.fileNoSuchFile) }
        let number = String(bob + 1)
        try await Self.damage(directory, .customers, number)

        let reopened = try LegacyStateTests.ledger(directory)
        let refusal = await #expect(throws: LedgerRefusal.self) {
            try await reopened.snapshot(for: "bob", at: midnight("2025-01-15"))
        }
        #expect(refusal?.kind == .damaged)
        #expect(refusal?.row == "customers/" + number)
        #expect(try await reopened.customers() == [[Self.alice], ["carol"]])
        let roll = try await reopened.namedCustomers()
        #expect(roll.unreadable.map(\.row) == ["customers/" + number])
        try await expectWorking(reopened, [Self.alice, "carol"])
        let logInRefusal = await #expect(throws: LedgerRefusal.self, "a logIn touching the customer is refused") {
            try await reopened.logIn(from: "bob", to: "robert")
        }
        #expect(logInRefusal?.kind == .damaged)
        #expect(
            try await reopened.logIn(from: "carol", to: "caroline").outcome == .noChange(reason: "logIn aliased no id"))
    }
}

import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation
import TestSupport
import Testing

/// A `--state` folder the ledger's first layout wrote (`LegacyState`: JSON rows, one thread row holding
/// every record; written by that code, two customers, an App Store thread and a Play chain) is read as it
/// is met and written again as rows per statement.
@Suite("A --state folder of the first layout", .timeLimit(.minutes(2)))
struct LegacyStateTests {
    typealias Play = GooglePlayLedgerTests
    static let alice = AppStoreNotificationTests.alice
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"

    /// A copy of the fixture in a temporary folder (the fixture itself is never written).
    static func copy() throws -> URL {
        guard let fixture = Bundle.module.url(forResource: "LegacyState", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "LegacyState-" + UUID().uuidString)
        try FileManager.default.copyItem(at: fixture, to: directory)
        return directory
    }

    static func ledger(_ directory: URL) throws -> EntitlementLedger {
        EntitlementLedger(
            sources: [
                try SignedNotifications.appStoreSource(),
                GooglePlayLedgerSource(catalog: Play.catalog, packageName: Play.package),
            ],
            store: try DirectoryLedgerStore(directory: directory))
    }

    /// The value of the row `key` of `table`, as a store on `directory` reads it.
    static func rowValue(_ directory: URL, _ table: LedgerTable, _ key: String) async throws -> Data? {
        try await DirectoryLedgerStore(directory: directory).transaction { transaction throws(LedgerRefusal) in
            try await transaction.value(in: table, key: key)
        }
    }

    /// The value of the first layout's row file of `key` in `table` (lines: seal, key as a JSON string, value).
    static func firstLayoutRow(_ directory: URL, _ table: String, _ key: String) throws -> Data {
        let folder = directory.appendingPathComponent(table)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            let lines = try Data(contentsOf: folder.appendingPathComponent(name)).split(
                separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
            if lines.count == 3, lines[1] == Data(JSONValue.string(key).compactText.utf8) { return Data(lines[2]) }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    func expectTheStory(_ ledger: EntitlementLedger) async throws {
        let february = midnight("2025-02-15")
        #expect(try await ledger.customers() == [[Self.alice], ["bob", Self.anonymous]])
        let alice = try await ledger.snapshot(for: Self.alice, at: february)
        #expect(alice.isActive("pro"))
        #expect(alice["pro"]?.expirationDate == RFC3339.date(from: "2025-03-01T00:00:00Z"))
        #expect(alice["pro"]?.transactions.count == 2, "both transactions of the thread row are kept")
        #expect(alice.verification == .verified)
        let bob = try await ledger.snapshot(for: Self.anonymous, at: february)
        #expect(bob.originalAppUserId == "bob")
        #expect(bob["pro"]?.expirationDate == RFC3339.date(from: "2025-03-01T00:00:00Z"), "the chained token's expiry")
    }

    @Test func theFirstLayoutIsReadThenWrittenAsRowsPerStatement() async throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.firstLayoutRow(directory, "threads", "appStore:2000000000000001").first == UInt8(ascii: "{"))

        try await expectTheStory(try Self.ledger(directory))
        let folders = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            !$0.hasPrefix(".")
        }
        #expect(folders == ["ledger.log"], "the folders were converted into the log, then removed")
        let head = try #require(try await Self.rowValue(directory, .threads, "appStore:2000000000000001"))
        #expect(head.first != UInt8(ascii: "{"), "the thread read is written again in the new layout")
        let statements = try await DirectoryLedgerStore(directory: directory).transaction {
            transaction throws(LedgerRefusal) in try await transaction.keys(in: .statements)
        }
        #expect(statements.count >= 4, "each statement of the threads read has a row of its own")

        // A second process reads the new layout; a redelivery is a duplicate (a seen id of the first
        // layout), a new statement joins the migrated thread.
        let again = try Self.ledger(directory)
        try await expectTheStory(again)
        #expect(try await again.apply(try SignedNotifications.notification("renewed")) == .duplicate)
        #expect(
            try await again.apply(try SignedNotifications.notification("expired")) == .applied(customers: [Self.alice]))
        let march = try await again.snapshot(for: Self.alice, at: midnight("2025-03-15"))
        #expect(march.isActive("pro") == false)
        #expect(try await again.thread(LedgerThreadID(source: .googlePlay, key: "first"))?.records.count == 2)
    }
}

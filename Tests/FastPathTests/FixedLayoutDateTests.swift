import EntitlementKit
import EntitlementKitMigration
import EntitlementKitRevenueCat
import Foundation
import Testing

/// The fast reader parses dates of the layouts `YYYY-MM-DDTHH:MM:SSZ` and `…SS.sssZ` in place, and leaves
/// every other spelling to the general RFC 3339 parser. Both must agree on every date: the edges of the
/// calendar and of the supported years, impossible values, and near-misses of the two layouts.
@Suite(.timeLimit(.minutes(5))) struct FixedLayoutDateTests {
    private static let now = Date(millisecondsSince1970: 1_757_930_400_000)  // 2025-09-15T10:00:00Z

    private static let dates = [
        "2025-06-01T12:00:00Z", "2025-06-01T12:00:00.123Z", "2025-06-01T12:00:00.000Z", "2024-02-29T00:00:00Z",
        "2023-02-29T00:00:00Z", "2025-04-31T00:00:00Z", "2025-13-01T00:00:00Z", "2025-00-10T00:00:00Z",
        "2025-06-00T00:00:00Z", "2025-06-01T24:00:00Z", "2025-06-01T23:60:00Z", "2025-06-01T23:59:60Z",
        "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2100-02-29T00:00:00Z",
        "2000-02-29T00:00:00Z", "2025-06-01t12:00:00Z", "2025-06-01T12:00:00z", "2025-06-01T12:00:00.12Z",
        "2025-06-01T12:00:00.1234Z", "2025-06-01T12:00:00+00:00", "2025-06-01T12:00:00.123+02:00",
        "2025-06-01 12:00:00Z", "2025/06/01T12:00:00Z", "2025-06-01T12:00:0aZ", "2025-06-01T12:00:00.12aZ",
        "2025-06-01T12:00:00X", "2025-06-01T12:00:00.123X", "-025-06-01T12:00:00Z", "2025-06-01T12:00:00ZZ",
        "2025-06-01T12:00:00Z ",
    ]

    @Test(arguments: dates)
    func fastAndGeneralReadersAgree(on date: String) {
        let document = """
            {"request_date":"\(date)","subscriber":{"entitlements":{"pro":{"expires_date":"\(date)",\
            "product_identifier":"p"}},"first_seen":"\(date)","original_app_user_id":"u","subscriptions":\
            {"p":{"expires_date":"\(date)","purchase_date":"\(date)","refunded_at":"\(date)"}}}}
            """
        let record = Data(document.utf8)
        let adapters: [any EntitlementAdapter] = [RevenueCatAdapter()]
        var general = SnapshotDecoder(adapters: adapters)
        general.usesFastPath = false
        let expected = Result { () throws(DocumentError) in try general.snapshot(fromRecord: record, at: Self.now) }
        let fast = SnapshotDecoder(adapters: adapters).fastSnapshot(fromRecord: record, format: nil, at: Self.now)
        if case .success(let snapshot) = expected {
            #expect(fast?.canonicalJSON() == snapshot.canonicalJSON())
        } else {
            // A date the general reader refuses is never answered by the fast path.
            #expect(fast == nil)
        }
    }

    @Test func theCommonLayoutsAreReadByTheFastPath() {
        for date in ["2025-06-01T12:00:00Z", "2025-06-01T12:00:00.123Z"] {
            let record = Data(
                #"{"request_date":"\#(date)","subscriber":{"first_seen":"\#(date)","original_app_user_id":"u"}}"#.utf8)
            let snapshot = SnapshotDecoder(adapters: [RevenueCatAdapter()]).fastSnapshot(
                fromRecord: record, format: nil, at: Self.now)
            #expect(snapshot?.firstSeen == RFC3339.date(from: date))
        }
    }
}

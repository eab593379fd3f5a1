import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// The import plan's JSON Lines form: written, read back, and refused where it is not exactly the spec's.
@Suite("Import: the plan's lines", .timeLimit(.minutes(5)))
struct ImportPlanLineTests {
    static func read(_ text: String) -> Result<ImportPlanCustomer, DocumentError> {
        do {
            return .success(try ImportPlanCustomer(jsonLine: Data(text.utf8), line: 7))
        } catch {
            return .failure(error)
        }
    }

    @Test("every kind of purchase is written and read back")
    func roundTrip() throws {
        let customer = ImportPlanCustomer(
            appUserIds: ["u123", "$RCAnonymousID:0123456789abcdef0123456789abcdef"],
            purchases: [
                ImportPlanPurchase(.appStore(originalTransactionId: "2000000123"), productId: "pro"),
                ImportPlanPurchase(.googlePlay(purchaseToken: "opaque-token.AO_x")),
                ImportPlanPurchase(.googlePlayOrder(orderId: "GPA.1234-5678-9012-34567")),
                ImportPlanPurchase(.stripeSubscription("sub_1A")),
                ImportPlanPurchase(.stripeCheckoutSession("cs_live_b2"), productId: ""),
            ])
        let line = customer.jsonLine
        #expect(!line.contains("\n"))
        #expect(
            try JSONValue.parse(line)
                == JSONValue.parse(
                    #"{"appUserIds": ["u123", "$RCAnonymousID:0123456789abcdef0123456789abcdef"], "purchases": [{"store": "appStore", "originalTransactionId": "2000000123", "productId": "pro"}, {"store": "googlePlay", "purchaseToken": "opaque-token.AO_x"}, {"store": "googlePlay", "orderId": "GPA.1234-5678-9012-34567"}, {"store": "stripe", "subscription": "sub_1A"}, {"store": "stripe", "checkoutSession": "cs_live_b2"}]}"#
                ))
        #expect(try Self.read(line).get() == customer)
    }

    @Test(
        "a line that is not exactly the plan's shape is refused with its line and path",
        arguments: [
            (#"{"appUserIds": ["a"], "purchases": [], "note": 1}"#, "note"),
            (#"{"appUserIds": [], "purchases": []}"#, "appUserIds"),
            (#"{"appUserIds": ["a", "a"], "purchases": []}"#, "appUserIds[1]"),
            (#"{"appUserIds": [""], "purchases": []}"#, "appUserIds[0]"),
            (#"{"purchases": []}"#, "appUserIds"),
            (#"{"appUserIds": ["a"]}"#, "purchases"),
            (#"{"appUserIds": ["a"], "purchases": [{"store": "amazon", "orderId": "1"}]}"#, "purchases[0].store"),
            (#"{"appUserIds": ["a"], "purchases": [{"store": "appStore", "orderId": "1"}]}"#, "purchases[0].orderId"),
            (
                #"{"appUserIds": ["a"], "purchases": [{"store": "appStore", "originalTransactionId": "x1"}]}"#,
                "purchases[0].originalTransactionId"
            ),
            (#"{"appUserIds": ["a"], "purchases": [{"store": "googlePlay"}]}"#, "purchases[0]"),
            (
                #"{"appUserIds": ["a"], "purchases": [{"store": "googlePlay", "orderId": "GPA.1-2", "purchaseToken": "t"}]}"#,
                "purchases[0]"
            ),
            (
                #"{"appUserIds": ["a"], "purchases": [{"store": "googlePlay", "orderId": "GPA.1-2..3"}]}"#,
                "purchases[0].orderId"
            ),
            (
                #"{"appUserIds": ["a"], "purchases": [{"store": "stripe", "subscription": "cs_1"}]}"#,
                "purchases[0].subscription"
            ),
            (
                #"{"appUserIds": ["a"], "purchases": [{"store": "stripe", "subscription": "sub_1", "productId": ""}]}"#,
                "purchases[0].productId"
            ),
            (
                #"{"appUserIds": ["a"], "purchases": [{"store": "stripe", "subscription": "sub_1"}, {"store": "stripe", "subscription": "sub_1"}]}"#,
                "purchases[1]"
            ),
        ])
    func refused(text: String, path: String) throws {
        guard case .failure(let error) = Self.read(text) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.path.description == path, "\(error)")
        #expect(error.line == 7)
    }
}

/// How a ledger's export and replay name a customer.
@Suite("Import: a customer's name and aliases", .timeLimit(.minutes(5)))
struct LedgerCustomerNameTests {
    static let anonymousB = "$RCAnonymousID:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
    static let anonymousA = "$RCAnonymousID:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    let isAnonymous = LedgerConfiguration.isRevenueCatAnonymousId

    @Test("the first identified id by bytes names the customer; the others are aliases, by bytes")
    func identifiedIdByBytes() {
        let name = LedgerCustomerName(appUserIds: [Self.anonymousB, "zed", "abe"], isAnonymous: isAnonymous)
        #expect(name.name == "abe")
        #expect(name.aliases == [Self.anonymousB, "zed"])
    }

    @Test("a customer holding anonymous ids only is named by its first id, not the smallest")
    func anonymousOnly() {
        let name = LedgerCustomerName(appUserIds: [Self.anonymousB, Self.anonymousA], isAnonymous: isAnonymous)
        #expect(name.name == Self.anonymousB)
        #expect(name.aliases == [Self.anonymousA])
    }

    @Test("the plan's first id wins when the customer holds it")
    func plannedName() {
        let ids = [Self.anonymousB, "zed", "abe"]
        #expect(LedgerCustomerName(appUserIds: ids, plannedName: "zed", isAnonymous: isAnonymous).name == "zed")
        #expect(
            LedgerCustomerName(appUserIds: ids, plannedName: Self.anonymousB, isAnonymous: isAnonymous).aliases
                == ["abe", "zed"])
        #expect(LedgerCustomerName(appUserIds: ids, plannedName: "other", isAnonymous: isAnonymous).name == "abe")
    }
}

import EntitlementKit
import EntitlementKitLedger
import Foundation
import Testing

/// RevenueCat's scheduled data export read into an import plan: CSV, grouping, store rules, environments.
@Suite("Import: RevenueCat's data export into a plan", .timeLimit(.minutes(5)))
struct RevenueCatExportTests {
    static let header =
        "rc_original_app_user_id,country,rc_last_seen_app_user_id_alias,store,product_identifier,"
        + "store_transaction_id,original_store_transaction_id,is_sandbox,price"
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"

    /// One data row; `price` is an extra column the reader must ignore.
    static func row(
        _ customer: String, alias: String = "", store: String = "app_store", product: String = "pro_monthly",
        transaction: String, original: String, sandbox: String = "false"
    ) -> String {
        [customer, "US", alias, store, product, transaction, original, sandbox, "9.99"].joined(separator: ",")
    }

    struct Planned {
        var plan: [ImportPlanCustomer]
        var statistics: ImportPlanStatistics
        var malformed: [ImportMalformedRow]
    }

    static func plan(_ text: String, environments: Set<Environment> = [.production], chunkSize: Int = 1 << 20)
        throws -> Planned
    {
        var builder = ImportPlanBuilder()
        var malformed: [ImportMalformedRow] = []
        try ImportPlanning.read(
            ImportByteSource(data: Data(text.utf8), chunkSize: chunkSize),
            with: RevenueCatExportReader(environments: environments), into: &builder
        ) { malformed.append($0) }
        return Planned(plan: builder.plan, statistics: builder.statistics, malformed: malformed)
    }

    @Test("rows are grouped by the original app user id: its id first, then the last-seen aliases by bytes")
    func groupingAndAliasOrder() throws {
        let text = [
            Self.header,
            Self.row(Self.anonymous, alias: "zoe", transaction: "1001", original: "1000"),
            Self.row("bob", alias: "bob", transaction: "2001", original: "2000"),
            Self.row(Self.anonymous, alias: "abe", transaction: "3000", original: "3000"),
            Self.row(Self.anonymous, alias: "zoe", transaction: "1002", original: "1000"),
        ].joined(separator: "\n")
        let planned = try Self.plan(text)
        #expect(
            planned.plan == [
                ImportPlanCustomer(
                    appUserIds: [Self.anonymous, "abe", "zoe"],
                    purchases: [
                        ImportPlanPurchase(.appStore(originalTransactionId: "1000"), productId: "pro_monthly"),
                        ImportPlanPurchase(.appStore(originalTransactionId: "3000"), productId: "pro_monthly"),
                    ]),
                ImportPlanCustomer(
                    appUserIds: ["bob"],
                    purchases: [ImportPlanPurchase(.appStore(originalTransactionId: "2000"), productId: "pro_monthly")]),
            ])
        #expect(planned.statistics.rows == 4)
        #expect(planned.statistics.purchases == ["appStore": 3])
        #expect(planned.malformed.isEmpty)
    }

    @Test("a Play order id's ..N renewal suffix is removed: a subscription's renewals are one purchase")
    func renewalSuffixFolds() throws {
        let first = "GPA.3312-4567-8901-23456"
        let text =
            [
                Self.header,
                Self.row("carol", store: "play_store", transaction: first, original: first),
                Self.row("carol", store: "play_store", transaction: first + "..0", original: first + "..0"),
                Self.row("carol", store: "play_store", transaction: first + "..11", original: first + "..11"),
            ].joined(separator: "\r\n") + "\r\n"
        let planned = try Self.plan(text)
        #expect(
            planned.plan.map(\.purchases) == [
                [ImportPlanPurchase(.googlePlayOrder(orderId: first), productId: "pro_monthly")]
            ])
        #expect(planned.plan.first?.purchases.first?.jsonValue["orderId"] == .string(first))
        #expect(planned.malformed.isEmpty)
    }

    @Test(
        "Play ids that are not GPA. and dash-grouped digits are malformed rows",
        arguments: [
            "GPA.1234", "GPA.12a4-5678", "1234-5678-9012", "GPA.1234-5678..", "GPA.1234-5678..x", "GPA.1234--5678",
        ])
    func malformedOrderIds(id: String) throws {
        let planned = try Self.plan(
            [Self.header, Self.row("carol", store: "play_store", transaction: id, original: id)].joined(separator: "\n")
        )
        #expect(planned.plan.isEmpty)
        #expect(planned.malformed.map(\.line) == [2])
        #expect(planned.malformed.first?.reason.hasPrefix("original_store_transaction_id:") == true)
    }

    @Test("Stripe: sub_ a subscription, cs_ a Checkout Session, another id skipped; other stores skipped by name")
    func storesOtherThanApple() throws {
        let text = [
            Self.header,
            Self.row("dana", store: "stripe", transaction: "sub_1Abc", original: "sub_1Abc"),
            Self.row("dana", store: "stripe", transaction: "cs_test_9", original: "cs_test_9"),
            Self.row("dana", store: "stripe", transaction: "pi_3x", original: "pi_3x"),
            Self.row("dana", store: "amazon", transaction: "amzn-1", original: "amzn-1"),
            Self.row("dana", store: "mac_app_store", transaction: "77", original: "76"),
        ].joined(separator: "\n")
        let planned = try Self.plan(text)
        #expect(
            planned.plan.first?.purchases.map(\.reference) == [
                .stripeSubscription("sub_1Abc"), .stripeCheckoutSession("cs_test_9"),
                .appStore(originalTransactionId: "76"),
            ])
        #expect(planned.statistics.skipped == ["stripe id other than sub_ or cs_": 1, "store amazon": 1])
        #expect(planned.statistics.purchases == ["stripe": 2, "appStore": 1])
    }

    @Test("sandbox rows are skipped unless asked for; --environment sandbox skips production rows")
    func sandboxFiltering() throws {
        let text = [
            Self.header,
            Self.row("erin", transaction: "10", original: "10", sandbox: "true"),
            Self.row("erin", transaction: "20", original: "20", sandbox: "FALSE"),
            Self.row("fay", transaction: "30", original: "30", sandbox: "1"),
        ].joined(separator: "\n")
        let production = try Self.plan(text)
        #expect(production.plan.map(\.appUserIds) == [["erin"]])
        #expect(production.plan.first?.purchases.map(\.reference) == [.appStore(originalTransactionId: "20")])
        #expect(production.statistics.skipped == ["sandbox": 2])
        let sandbox = try Self.plan(text, environments: [.sandbox])
        #expect(sandbox.plan.map(\.appUserIds) == [["erin"], ["fay"]])
        #expect(sandbox.statistics.skipped == ["production": 1])
        let both = try Self.plan(text, environments: [.production, .sandbox])
        #expect(both.plan.flatMap(\.purchases).count == 3)
        #expect(both.statistics.skipped.isEmpty)
        let unclear = try Self.plan(
            [Self.header, Self.row("gus", transaction: "1", original: "1", sandbox: "maybe")].joined(separator: "\n"))
        #expect(unclear.malformed.map(\.reason) == [#"is_sandbox: "maybe" is not true or false"#])
    }

    @Test("quoted fields hold commas, doubled quotes and line breaks, and later rows keep their line numbers")
    func quotedFields() throws {
        let text = [
            Self.header,
            #""hal, the ""first""",US,,app_store,"pro,yearly",5,"5",false,"9,99""#,
            #"ivy,"a note"# + "\n" + #"over two lines",,app_store,pro,6,6,false,1"#,
            "ivy,US,,app_store,pro,7,7,false,\"1\"",
            "jay,US,,app_store,pro,8,8,false",
        ].joined(separator: "\n")
        // Chunks of 7 bytes: quotes, doubled quotes and line breaks fall across chunk boundaries.
        let planned = try Self.plan(text, chunkSize: 7)
        #expect(planned.plan.map(\.appUserIds) == [[#"hal, the "first""#], ["ivy"]])
        #expect(planned.plan.first?.purchases.first?.productId == "pro,yearly")
        #expect(
            planned.plan.last?.purchases.map(\.reference) == [
                .appStore(originalTransactionId: "6"), .appStore(originalTransactionId: "7"),
            ])
        #expect(
            planned.malformed.map(\.line) == [6],
            "the row on line 6 has 8 fields; its number counts the quoted line break")
        #expect(planned.malformed.first?.reason == "has 8 fields where the header has 9")
    }

    @Test("malformed rows are reported with their line and skipped; the rest is planned")
    func malformedRowsAreLocated() throws {
        let text = [
            Self.header,  // 1
            Self.row("kim", transaction: "1", original: "1"),  // 2
            #"kim,US,,app_store,pro,2,"2"x,false,1"#,  // 3: text after a closing quote
            #"kim,US,,app_store,pro,3,3"3,false,1"#,  // 4: a quote inside an unquoted field
            Self.row("", transaction: "4", original: "4"),  // 5: no customer
            Self.row("kim", transaction: "abc", original: "abc"),  // 6: not an App Store id
            Self.row("kim", store: "", transaction: "5", original: "5"),  // 7: no store
            Self.row("kim", transaction: "8", original: "8"),  // 8
            #"lee,US,,app_store,pro,9,9,false,"never closed"#,  // 9: open to the end
            Self.row("lee", transaction: "10", original: "10"),  // 10: swallowed by line 9's quote
        ].joined(separator: "\n")
        let planned = try Self.plan(text)
        #expect(planned.malformed.map(\.line) == [3, 4, 5, 6, 7, 9])
        #expect(planned.malformed[0].reason == "field 7: text after a closing quote")
        #expect(planned.malformed[1].reason.hasPrefix("field 7: a quote inside an unquoted field"))
        #expect(planned.malformed[2].reason == #"rc_original_app_user_id: "" is empty"#)
        #expect(planned.malformed[3].reason.hasPrefix(#"original_store_transaction_id: "abc" is not an App Store"#))
        #expect(planned.malformed[4].reason == #"store: "" is empty"#)
        #expect(planned.malformed[5].reason == "field 9: a quoted field is not closed before the end of the file")
        #expect(
            planned.plan.first?.purchases.map(\.reference) == [
                .appStore(originalTransactionId: "1"), .appStore(originalTransactionId: "8"),
            ])
        #expect(planned.statistics.malformedRows == 6)
    }

    @Test("an export without a used column is refused before any row, naming the column")
    func missingColumn() throws {
        let header = Self.header.replacingOccurrences(of: "is_sandbox,", with: "")
        #expect {
            _ = try Self.plan(header + "\n" + "x,US,,app_store,pro,1,1,9.99")
        } throws: { error in
            guard case ImportPlanningError.missingColumns(let columns) = error else { return false }
            return columns == ["is_sandbox"] && (error as? ImportPlanningError)?.isUsage == true
        }
        #expect(throws: ImportPlanningError.self) { _ = try Self.plan("") }
    }

    @Test("an empty original id falls back to the transaction id; a byte order mark is skipped")
    func fallbacks() throws {
        let text = "\u{FEFF}" + Self.header + "\n" + Self.row("mo", transaction: "42", original: "")
        let planned = try Self.plan(text)
        #expect(planned.plan.first?.purchases.map(\.reference) == [.appStore(originalTransactionId: "42")])
    }
}

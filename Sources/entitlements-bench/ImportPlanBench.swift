import EntitlementKit
import EntitlementKitLedger
import Foundation

/// The import figure (`--import`): customers per second for `ledger import-plan`'s work — reading a
/// RevenueCat data export (CSV) and writing the plan's lines — on a generated, seeded export of 50,000
/// customers.
///
/// The export looks like RevenueCat's scheduled data export of transactions: a header of 24 columns (7
/// used), one row per transaction and renewal, anonymous original ids with an identified alias for a third
/// of customers, App Store, Play (renewals `..N`), Stripe and Amazon purchases, 3 % sandbox rows, quoted
/// fields with commas and doubled quotes. Each figure is the median of `rounds` rounds, each reading the
/// file from disk in chunks.
enum ImportPlanBench {
    static let header = [
        "rc_original_app_user_id", "rc_last_seen_app_user_id_alias", "rc_transaction_id", "country",
        "country_source", "platform", "store", "product_identifier", "product_display_name", "product_duration",
        "start_time", "end_time", "purchase_price_in_usd", "price_in_purchased_currency", "currency",
        "renewal_number", "is_trial_period", "is_in_intro_offer_period", "is_sandbox", "store_transaction_id",
        "original_store_transaction_id", "ownership_type", "reseller", "last_seen_app_version",
    ].joined(separator: ",")

    static func report(customers: Int = 50_000, rounds: Int = 5) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("import-bench-\(getpid()).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        let rows = try generate(customers: customers, into: file)
        let bytes = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        var rates: [Double] = []
        var cpuRates: [Double] = []
        var planned = 0
        var plan: [ImportPlanCustomer] = []
        for _ in 0..<rounds {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            let wall = DispatchTime.now().uptimeNanoseconds
            let cpu = clock()
            var builder = ImportPlanBuilder()
            try ImportPlanning.read(ImportByteSource(handle: handle), with: RevenueCatExportReader(), into: &builder) {
                _ in
            }
            var written = 0
            plan = builder.plan
            for customer in plan { written += customer.jsonLine.utf8.count + 1 }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - wall) / 1e9
            let cpuSeconds = Double(clock() - cpu) / Double(CLOCKS_PER_SEC)
            planned = plan.count
            precondition(written > 0 && builder.statistics.malformedRows == 0, "the generated export is well-formed")
            rates.append(Double(plan.count) / seconds)
            cpuRates.append(Double(plan.count) / cpuSeconds)
        }
        let backfill = try ImportBackfillBench.report(plan: plan)
        print("\n| import | median | rounds |")
        print("|---|---|---|")
        print(
            "| `ledger import-plan` on a RevenueCat export: \(customers) customers, \(rows) rows, "
                + "\(String(format: "%.1f", Double(bytes) / 1e6)) MB (\(planned) customers planned) | "
                + "\(String(format: "%.0f", Statistics.median(rates))) customers/s wall, "
                + "\(String(format: "%.0f", Statistics.median(cpuRates))) per CPU-second | \(rounds) |")
        if let backfill { print(backfill) }
    }

    /// Writes the export; returns its number of data rows.
    private static func generate(customers: Int, into file: URL) throws -> Int {
        var random = SeededGenerator(seed: 34)
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var text = header + "\n"
        var rows = 0
        for index in 0..<customers {
            let identified = "user-\(index)"
            let anonymous = random.chance(33)
            let customer = anonymous ? "$RCAnonymousID:" + random.hex(32) : identified
            let alias = anonymous ? identified : (random.chance(50) ? identified : "")
            for _ in 0..<(1 + random.below(3)) {
                let roll = random.below(100)
                let store = roll < 60 ? "app_store" : roll < 85 ? "play_store" : roll < 95 ? "stripe" : "amazon"
                let first: String
                switch store {
                case "app_store": first = random.decimal(16)
                case "play_store":
                    first = "GPA.\(random.decimal(4))-\(random.decimal(4))-\(random.decimal(4))-\(random.decimal(5))"
                case "stripe": first = (random.chance(80) ? "sub_" : "cs_") + random.hex(14)
                default: first = "amzn1." + random.hex(12)
                }
                let sandbox = random.chance(3)
                let product = random.pick(["pro_monthly", "pro_yearly", "lifetime"])
                for renewal in 0..<(1 + random.below(8)) {
                    let transaction =
                        renewal == 0
                        ? first
                        : store == "play_store"
                            ? "\(first)..\(renewal - 1)"
                            : store == "app_store" ? random.decimal(16) : first
                    let original = store == "play_store" ? transaction : first
                    let fields = [
                        customer, alias, random.hex(20), "US", "\"billing, \"\"store\"\"\"", "iOS", store, product,
                        "\"Pro, monthly\"", "P1M", "2025-01-0\(1 + random.below(9))T10:00:00Z", "2025-02-01T10:00:00Z",
                        "9.99", "9.99", "USD", String(renewal + 1), "false", "false", sandbox ? "true" : "false",
                        transaction, original, "PURCHASED", "", "1.\(random.below(20)).0",
                    ]
                    text += fields.joined(separator: ",") + "\n"
                    rows += 1
                }
            }
            if text.utf8.count > 1 << 20 {
                handle.write(Data(text.utf8))
                text = ""
            }
        }
        handle.write(Data(text.utf8))
        return rows
    }
}

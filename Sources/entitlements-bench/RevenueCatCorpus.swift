/// Generates RevenueCat `GET /v1/subscribers` documents of the shape of `Fixtures/revenuecat`: several
/// entitlements joined to subscriptions and one-time purchases, Google base plans, nulls, prices,
/// fractional seconds, escapes and non-ASCII text; half of them wrapped in a JSON Lines envelope.
enum RevenueCatCorpus {
    /// One JSON Lines record (without its line break).
    static func record(_ index: Int, random: inout SeededGenerator) -> String {
        let userId = CorpusText.userId(&random, index: index)
        let document = subscriber(index, userId: userId, random: &random)
        guard random.chance(50) else { return document }
        return "{\"appUserId\":" + CorpusText.quoted(userId) + ",\"provider\":\"revenuecat\",\"response\":" + document
            + "}"
    }

    private static let stores = [
        "app_store", "app_store", "app_store", "play_store", "stripe", "promotional", "amazon",
    ]
    private static let periods = ["normal", "normal", "normal", "trial", "intro", "prepaid"]
    private static let entitlementNames = ["premium", "pro", "plus", "no_ads", "cloud_sync", "themes", "ai_credits"]

    private static func subscriber(_ index: Int, userId: String, random: inout SeededGenerator) -> String {
        let now = CorpusText.instant
        let firstSeen = now - Int64(random.below(400 * 86_400))
        var entitlements: [String] = []
        var subscriptions: [String] = []
        var nonSubscriptions: [String] = []
        let entitlementCount = 1 + random.below(4)
        var names = entitlementNames
        for slot in 0..<entitlementCount {
            let name = names.remove(at: random.below(names.count))
            let product = "com.acme.\(name).\(random.pick(["monthly", "annual", "weekly"]))"
            let purchase = now - Int64(random.below(60 * 86_400))
            let lifetime = slot > 0 && random.chance(20)
            if lifetime {
                let purchaseDate = CorpusText.date(purchase)
                entitlements.append(
                    CorpusText.quoted(name) + ":{\"expires_date\":null,\"grace_period_expires_date\":null,"
                        + "\"product_identifier\":" + CorpusText.quoted(product) + ",\"purchase_date\":" + purchaseDate
                        + "}")
                var purchases: [String] = []
                for copy in 0..<(1 + random.below(2)) {
                    let when = purchase - Int64(copy * 86_400 * 30)
                    purchases.append(
                        "{\"id\":\"" + random.hex(10) + "\",\"is_sandbox\":" + (random.chance(5) ? "true" : "false")
                            + ",\"original_purchase_date\":" + CorpusText.date(when) + ",\"purchase_date\":"
                            + CorpusText.date(when) + ",\"store\":\"app_store\",\"store_transaction_id\":\""
                            + random.decimal(16) + "\"}")
                }
                nonSubscriptions.append(CorpusText.quoted(product) + ":[" + purchases.joined(separator: ",") + "]")
                continue
            }
            let store = random.pick(stores)
            let expires = purchase + Int64(random.pick([7, 30, 365]) * 86_400)
            let fraction = random.chance(30) ? 1 + random.below(999) : 0
            let expiresDate = CorpusText.date(expires, milliseconds: fraction)
            let plan =
                store == "play_store" ? "\"product_plan_identifier\":\"\(random.pick(["monthly", "p1y"]))\"," : ""
            entitlements.append(
                CorpusText.quoted(name) + ":{\"expires_date\":" + expiresDate + ",\"grace_period_expires_date\":null,"
                    + "\"product_identifier\":" + CorpusText.quoted(product) + "," + plan + "\"purchase_date\":"
                    + CorpusText.date(purchase) + "}")
            subscriptions.append(
                subscription(
                    product: product, store: store, plan: plan, purchase: purchase, expiresDate: expiresDate,
                    random: &random))
        }
        // Older products the customer moved away from: joined by nothing, read all the same.
        for _ in 0..<random.below(2) {
            let purchase = now - Int64(200 * 86_400 + random.below(200 * 86_400))
            subscriptions.append(
                subscription(
                    product: "com.acme.legacy." + random.hex(4), store: "app_store", plan: "", purchase: purchase,
                    expiresDate: CorpusText.date(purchase + 30 * 86_400), random: &random))
        }
        let managementURL =
            random.chance(50) ? "\"https:\\/\\/apps.apple.com\\/account\\/subscriptions\"" : "null"
        let version = random.chance(60) ? "\"\(1 + random.below(9)).\(random.below(20))\"" : "null"
        return "{\"request_date\":" + CorpusText.date(now - Int64(random.below(5))) + ",\"request_date_ms\":"
            + String(now * 1000) + ",\"subscriber\":{\"entitlements\":{" + entitlements.joined(separator: ",")
            + "},\"first_seen\":" + CorpusText.date(firstSeen) + ",\"last_seen\":"
            + CorpusText.date(now - Int64(random.below(86_400))) + ",\"management_url\":" + managementURL
            + ",\"non_subscriptions\":{" + nonSubscriptions.joined(separator: ",") + "},\"original_app_user_id\":"
            + CorpusText.quoted(userId) + ",\"original_application_version\":" + version
            + ",\"original_purchase_date\":" + (version == "null" ? "null" : CorpusText.date(firstSeen - 60))
            + ",\"other_purchases\":{},\"subscriptions\":{" + subscriptions.joined(separator: ",") + "}}}"
    }

    private static func subscription(
        product: String, store: String, plan: String, purchase: Int64, expiresDate: String,
        random: inout SeededGenerator
    ) -> String {
        let unsubscribed =
            random.chance(20) ? CorpusText.date(purchase + 3600, milliseconds: random.below(1000)) : "null"
        let billing = random.chance(5) ? CorpusText.date(purchase + 7200) : "null"
        let refunded = random.chance(3) ? CorpusText.date(purchase + 86_400) : "null"
        let displayName = random.pick(["Premium", "Pro \\u2014 yearly", "Plus \\\"family\\\"", "Prämie", "高级版"])
        let transaction =
            store == "play_store"
            ? "GPA.\(random.decimal(4))-\(random.decimal(4))-\(random.decimal(4))-\(random.decimal(5))..\(random.below(9))"
            : random.decimal(16)
        return CorpusText.quoted(product) + ":{\"auto_resume_date\":null,\"billing_issues_detected_at\":" + billing
            + ",\"display_name\":" + CorpusText.quoted(displayName) + ",\"expires_date\":" + expiresDate
            + ",\"grace_period_expires_date\":null,\"is_sandbox\":" + (random.chance(5) ? "true" : "false")
            + ",\"original_purchase_date\":" + CorpusText.date(purchase - Int64(random.below(90) * 86_400))
            + ",\"ownership_type\":\"" + (random.chance(10) ? "FAMILY_SHARED" : "PURCHASED") + "\",\"period_type\":\""
            + random.pick(periods) + "\",\"price\":{\"amount\":" + random.pick(["4.99", "49.99", "0.99", "9.5", "0"])
            + ",\"currency\":\"" + random.pick(["USD", "EUR", "GBP", "JPY"]) + "\"}," + plan + "\"purchase_date\":"
            + CorpusText.date(purchase) + ",\"refunded_at\":" + refunded + ",\"store\":\"" + store
            + "\",\"store_transaction_id\":\"" + transaction + "\",\"unsubscribe_detected_at\":" + unsubscribed + "}"
    }
}

/// Generates Qonversion v1 launch results (`success` + `data.permissions`) of the shape of
/// `Fixtures/qonversion`: several permissions with store transactions, products, offerings, 0/1 and
/// boolean flags, integer and named renew states, offer codes, escapes and non-ASCII text; half of them
/// wrapped in a JSON Lines envelope.
enum QonversionCorpus {
    /// One JSON Lines record (without its line break).
    static func record(_ index: Int, random: inout SeededGenerator) -> String {
        let userId = CorpusText.userId(&random, index: index)
        let document = launchResult(random: &random)
        guard random.chance(50) else { return document }
        return "{\"appUserId\":" + CorpusText.quoted(userId) + ",\"provider\":\"qonversion\",\"response\":" + document
            + "}"
    }

    private static let sources = ["appstore", "appstore", "playstore", "stripe", "manual", "promo"]
    private static let names = ["premium", "pro", "plus", "no_ads", "cloud_sync", "themes", "ai_credits"]
    private static let types = ["subscription_started", "subscription_renewed", "trial_started", "intro_started"]

    private static func launchResult(random: inout SeededGenerator) -> String {
        let now = CorpusText.instant
        var permissions: [String] = []
        var products: [String] = []
        var pool = names
        for _ in 0..<(1 + random.below(3)) {
            let name = pool.remove(at: random.below(pool.count))
            let product = "\(name)_\(random.pick(["monthly", "annual"]))"
            products.append(
                "{\"id\":\"\(product)\",\"store_id\":\"com.example.\(product)\",\"type\":1,\"duration\":"
                    + String(random.pick([1, 4])) + "}")
            permissions.append(permission(name: name, product: product, now: now, random: &random))
        }
        let version =
            random.chance(50) ? ",\"apple_extra\":{\"original_application_version\":\"1.\(random.below(30))\"}" : ""
        return "{\"success\":true,\"data\":{\"uid\":\"QON_" + random.hex(32) + "\",\"timestamp\":"
            + String(now - Int64(random.below(5))) + version + ",\"products\":[" + products.joined(separator: ",")
            + "],\"user_products\":[],\"offerings\":[{\"id\":\"main\",\"tag\":1,\"products\":[]}],"
            + "\"permissions\":[" + permissions.joined(separator: ",") + "]}}"
    }

    private static func permission(name: String, product: String, now: Int64, random: inout SeededGenerator) -> String {
        let started = now - Int64(random.below(300 * 86_400))
        let last = now - Int64(random.below(30 * 86_400))
        let expires = last + Int64(random.pick([7, 30, 365]) * 86_400)
        let active = expires >= now
        let flag = random.chance(20) ? (active ? "true" : "false") : (active ? "1" : "0")
        let renewState =
            random.chance(20)
            ? random.pick(["\"will_renew\"", "\"cancelled\"", "\"billing_issue\""])
            : String(random.pick([-1, 0, 1, 1, 2]))
        let offer =
            random.chance(15)
            ? CorpusText.quoted(random.pick(["SUMMER25", "PROMO\\u00c9T\\u00c9", "VIP\\/2025"])) : "null"
        var transactions: [String] = []
        let original = random.decimal(16)
        for step in 0..<random.below(4) {
            let when = started + Int64(step * 30 * 86_400)
            transactions.append(
                "{\"original_transaction_id\":\"" + original + "\",\"transaction_id\":\"" + random.decimal(16)
                    + "\",\"transaction_timestamp\":" + String(when) + ",\"expiration_timestamp\":"
                    + String(when + 30 * 86_400) + ",\"environment\":\"" + (random.chance(5) ? "sandbox" : "production")
                    + "\",\"ownership_type\":\"" + (random.chance(10) ? "family_sharing" : "owner") + "\",\"type\":\""
                    + random.pick(types) + "\"" + (offer == "null" ? "" : ",\"offer_code\":" + offer) + "}")
        }
        return "{\"id\":\"" + name + "\",\"associated_product\":\"" + product + "\",\"active\":" + flag
            + ",\"renew_state\":" + renewState + ",\"source\":\"" + random.pick(sources)
            + "\",\"current_period_type\":\"" + random.pick(["regular", "trial", "intro"]) + "\",\"grant_type\":\""
            + random.pick(["purchase", "purchase", "family_sharing", "offer_code", "manual"])
            + "\",\"started_timestamp\":" + String(started) + ",\"trial_start_timestamp\":null"
            + ",\"first_purchase_timestamp\":" + String(started) + ",\"last_purchase_timestamp\":" + String(last)
            + ",\"expiration_timestamp\":" + String(expires) + ",\"auto_renew_disable_timestamp\":"
            + (random.chance(20) ? String(last + 3600) : "null") + ",\"last_activated_offer_code\":" + offer
            + ",\"renews_count\":" + String(random.below(12)) + ",\"store_transactions\":["
            + transactions.joined(separator: ",") + "]}"
    }
}

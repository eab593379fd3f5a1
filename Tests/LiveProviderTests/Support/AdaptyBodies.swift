import LoopbackHTTPServer

/// Adapty SDK-backend answers (shape A) written for these tests, with one `premium` access level.
enum AdaptyBodies {
    /// Profile ids in the SDKs' form, made up for the tests.
    static let deviceProfile = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"
    static let otherProfile = "9e8d7c6b-5a49-4382-b716-0f1e2d3c4b5a"

    /// A profile body; `expires` far ahead keeps `premium` active.
    static func profile(
        _ profileId: String, customer: String? = nil, expires: String = "2099-01-01T00:00:00.000000+0000"
    ) -> String {
        let customerText = customer.map { "\"\($0)\"" } ?? "null"
        return #"""
            {"data": {"type": "adapty_analytics_profile", "id": "\#(profileId)", "attributes": {
              "profile_id": "\#(profileId)", "customer_user_id": \#(customerText), "timestamp": 1748779200000,
              "paid_access_levels": {"premium": {"id": "premium", "is_active": true, "is_lifetime": false,
                "expires_at": "\#(expires)", "will_renew": true, "vendor_product_id": "premium.monthly",
                "store": "app_store", "activated_at": "2025-01-04T06:00:00.000000+0000", "is_refund": false}},
              "subscriptions": null, "non_subscriptions": null}}}
            """#
    }

    /// A profile answer with `x-response-hash`.
    static func reply(
        _ profileId: String, customer: String? = nil, hash: String? = nil, status: Int = 200
    ) -> LoopbackHTTPServer.Reply {
        .json(
            status, profile(profileId, customer: customer), headers: hash.map { [.init("x-response-hash", $0)] } ?? [])
    }
}

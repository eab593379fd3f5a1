import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// What the adapter accepts, where it is tolerant, and the exact located error for everything else.
@Suite("Reading the document", .timeLimit(.minutes(5)))
struct DocumentReadingTests {
    // MARK: Identity

    @Test("provider id and format recognition")
    func recognition() throws {
        let adapter = RevenueCatAdapter()
        #expect(adapter.provider == .revenueCat)
        #expect(adapter.recognizes(try JSONValue.parse(SubscriberDocument.monthlyPro().data)))
        #expect(adapter.recognizes(try JSONValue.parse(Data(#"{"subscriber": null}"#.utf8))))
        #expect(!adapter.recognizes(try JSONValue.parse(Data(#"{"data": {"permissions": []}}"#.utf8))))
        #expect(!adapter.recognizes(try JSONValue.parse(Data(#"[{"subscriber": {}}]"#.utf8))))
        #expect(!adapter.recognizes(try JSONValue.parse(Data(#"{"schemaVersion": 1}"#.utf8))))
    }

    @Test("customer-level fields of the snapshot")
    func customerFields() throws {
        var document = SubscriberDocument.monthlyPro()
        document.subscriberMembers += [
            "\"management_url\": \"https://apps.apple.com/account/subscriptions\"",
            "\"original_application_version\": \"1.4\"",
            "\"original_purchase_date\": \"2025-03-02T08:10:11Z\"",
        ]
        let snapshot = try document.snapshot()
        #expect(snapshot.provider == .revenueCat)
        #expect(snapshot.appUserId == "user_48213")
        #expect(snapshot.originalAppUserId == "user_48213")
        #expect(snapshot.requestDate == instant("2025-09-15T10:00:00Z"))
        #expect(snapshot.firstSeen == instant("2025-03-02T08:14:31Z"))
        #expect(snapshot.managementURL?.absoluteString == "https://apps.apple.com/account/subscriptions")
        #expect(snapshot.originalApplicationVersion == "1.4")
        #expect(snapshot.originalPurchaseDate == instant("2025-03-02T08:10:11Z"))
    }

    @Test("unknown members at every level are ignored; a minimal subscriber maps to an empty snapshot")
    func toleratesUnknownMembers() throws {
        // Members the mapping does not use are not read, whatever their type: the entitlement's own
        // `product_plan_identifier` (the plan comes from the joined purchase) included.
        var document = SubscriberDocument.monthlyPro(
            subscription: ["\"metadata\": {\"k\": \"v\"}", "\"price\": {\"amount\": 1}"],
            entitlement: ["\"future_data\": [1, 2]", "\"product_plan_identifier\": 1"])
        document.rootMembers = ["\"schema_version\": \"99\"", "\"future_data\": {}"]
        document.subscriberMembers += [
            "\"other_purchases\": {\"x\": {\"purchase_date\": \"not a date\"}}", "\"subscriber_attributes\": 7",
        ]
        #expect(try document.snapshot().activeEntitlementIds == ["pro"])

        let minimal = Data(
            #"{"request_date": "2025-09-15T10:00:00Z", "subscriber": {"original_app_user_id": "u", "first_seen": "2025-01-01T00:00:00Z"}}"#
                .utf8)
        let snapshot = try RevenueCatAdapter().snapshot(from: minimal, at: instant("2025-09-15T10:00:00Z"))
        #expect(snapshot.entitlements.isEmpty)
        #expect(snapshot.nonSubscriptionTransactions.isEmpty)
        #expect(snapshot.managementURL == nil)
    }

    @Test("null subscriptions, non_subscriptions and entitlements read as empty")
    func nullCollections() throws {
        let body =
            #"{"request_date": "2025-09-15T10:00:00Z", "subscriber": {"original_app_user_id": "u", "first_seen": "2025-01-01T00:00:00Z", "subscriptions": null, "non_subscriptions": null, "entitlements": null}}"#
        #expect(
            try RevenueCatAdapter().snapshot(from: Data(body.utf8), at: instant("2025-09-15T10:00:00Z")).entitlements
                .isEmpty)
    }

    // MARK: Tolerant fields

    @Test(
        "management_url: anything but an absolute URL with a host reads as nil",
        arguments: [
            ("\"https://apps.apple.com/account/subscriptions\"", "https://apps.apple.com/account/subscriptions"),
            (
                "\"https://play.google.com/store/account/subscriptions?sku=acme_pro&package=com.acme\"",
                "https://play.google.com/store/account/subscriptions?sku=acme_pro&package=com.acme"
            ),
            ("\"\"", nil), ("true", nil), ("3", nil), ("{}", nil), ("null", nil), ("\"not a url\"", nil),
            ("\"/account/subscriptions\"", nil), ("\"mailto:billing@example.com\"", nil), ("\"https://\"", nil),
            ("\"https://apps.apple.com/account subscriptions\"", nil),
        ] as [(String, String?)])
    func managementURL(value: String, expected: String?) throws {
        var document = SubscriberDocument.monthlyPro()
        document.subscriberMembers.append("\"management_url\": \(value)")
        let info = try document.customerInfo()
        #expect(info.managementURL?.absoluteString == expected)
        #expect(info.snapshot.managementURL?.absoluteString == expected)
    }

    @Test("store, period_type and ownership_type of any JSON type never fail the document")
    func tolerantEnumFields() throws {
        let document = SubscriberDocument.monthlyPro(subscription: [
            "\"store\": {\"name\": \"app_store\"}", "\"period_type\": [1]", "\"ownership_type\": false",
        ])
        let pro = try #require(try document.snapshot()["pro"])
        #expect(pro.store == .unknown)
        #expect(pro.storeRaw == nil)
        #expect(pro.periodType == .unknown)
        #expect(pro.ownershipType == .unknown)
    }

    // MARK: Strict fields

    /// A document that must fail, the kind and the path of the error.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var document: SubscriberDocument
        var kind: DocumentError.Kind
        var path: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = {
        let product = "subscriber.subscriptions[\"com.acme.pro.monthly\"]"
        func subscription(_ members: [String]) -> SubscriberDocument { .monthlyPro(subscription: members) }
        func entitlement(_ members: [String]) -> SubscriberDocument { .monthlyPro(entitlement: members) }
        var list: [Refusal] = [
            Refusal(
                name: "request_date is a number",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.requestDate = "1757930400000"
                    return d
                }(),
                kind: .wrongType, path: "request_date"),
            Refusal(
                name: "request_date is null",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.requestDate = "null"
                    return d
                }(),
                kind: .missingField, path: "request_date"),
            Refusal(
                name: "request_date has no time zone",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.requestDate = "\"2025-09-15T10:00:00\""
                    return d
                }(),
                kind: .invalidValue, path: "request_date"),
            Refusal(
                name: "original_app_user_id is a number",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.subscriberMembers[0] = "\"original_app_user_id\": 48213"
                    return d
                }(),
                kind: .wrongType, path: "subscriber.original_app_user_id"),
            Refusal(
                name: "first_seen is malformed",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.subscriberMembers[1] = "\"first_seen\": \"yesterday\""
                    return d
                }(),
                kind: .invalidValue, path: "subscriber.first_seen"),
            Refusal(
                name: "original_application_version is a number",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.subscriberMembers.append("\"original_application_version\": 1.4")
                    return d
                }(),
                kind: .wrongType, path: "subscriber.original_application_version"),
            Refusal(
                name: "subscriber-level original_purchase_date is malformed",
                document: {
                    var d = SubscriberDocument.monthlyPro()
                    d.subscriberMembers.append("\"original_purchase_date\": \"2025-13-01T00:00:00Z\"")
                    return d
                }(),
                kind: .invalidValue, path: "subscriber.original_purchase_date"),
            Refusal(
                name: "entitlements is an array",
                document: {
                    var d = SubscriberDocument()
                    d.subscriberMembers.append("\"entitlements\": []")
                    return d
                }(),
                kind: .wrongType, path: "subscriber.entitlements"),
            Refusal(
                name: "entitlement purchase_date is malformed",
                document: entitlement(["\"purchase_date\": \"2025-09-03\""]),
                kind: .invalidValue, path: "subscriber.entitlements.pro.purchase_date"),
            Refusal(
                name: "entitlement expires_date is a boolean", document: entitlement(["\"expires_date\": false"]),
                kind: .wrongType, path: "subscriber.entitlements.pro.expires_date"),
            Refusal(
                name: "entitlement product_identifier is a number",
                document: entitlement(["\"product_identifier\": 12"]),
                kind: .wrongType, path: "subscriber.entitlements.pro.product_identifier"),
            Refusal(
                name: "entitlement grace_period_expires_date is malformed",
                document: entitlement(["\"grace_period_expires_date\": \"soon\""]),
                kind: .invalidValue, path: "subscriber.entitlements.pro.grace_period_expires_date"),
            Refusal(
                name: "subscription expires_date is an array", document: subscription(["\"expires_date\": []"]),
                kind: .wrongType, path: product + ".expires_date"),
            Refusal(
                name: "subscription purchase_date is null", document: subscription(["\"purchase_date\": null"]),
                kind: .missingField, path: product + ".purchase_date"),
            Refusal(
                name: "subscription original_purchase_date is malformed",
                document: subscription(["\"original_purchase_date\": \"2025-04-31T12:00:05Z\""]),
                kind: .invalidValue, path: product + ".original_purchase_date"),
            Refusal(
                name: "subscription billing_issues_detected_at is malformed",
                document: subscription(["\"billing_issues_detected_at\": \"2025/09/03\""]),
                kind: .invalidValue, path: product + ".billing_issues_detected_at"),
            Refusal(
                name: "subscription unsubscribe_detected_at is a number",
                document: subscription(["\"unsubscribe_detected_at\": 1757930400"]),
                kind: .wrongType, path: product + ".unsubscribe_detected_at"),
            Refusal(
                name: "subscription refunded_at is malformed", document: subscription(["\"refunded_at\": \"\""]),
                kind: .invalidValue, path: product + ".refunded_at"),
            Refusal(
                name: "subscription is_sandbox is a number", document: subscription(["\"is_sandbox\": 0"]),
                kind: .wrongType, path: product + ".is_sandbox"),
            Refusal(
                name: "subscription store_transaction_id is a number",
                document: subscription(["\"store_transaction_id\": 1000000123456789"]),
                kind: .wrongType, path: product + ".store_transaction_id"),
            Refusal(
                name: "subscription product_plan_identifier is an object",
                document: subscription(["\"product_plan_identifier\": {}"]),
                kind: .wrongType, path: product + ".product_plan_identifier"),
        ]
        var unusedSubscription = SubscriberDocument.monthlyPro()
        unusedSubscription.subscriptions["com.acme.old"] = SubscriberDocument.subscriptionMembers([
            "\"expires_date\": \"never\""
        ])
        list.append(
            Refusal(
                name: "a subscription no entitlement uses still has to be well formed", document: unusedSubscription,
                kind: .invalidValue, path: "subscriber.subscriptions[\"com.acme.old\"].expires_date"))
        var orphan = SubscriberDocument.monthlyPro()
        orphan.entitlements["legacy"] = SubscriberDocument.entitlementMembers(
            product: "com.acme.gone", ["\"expires_date\": \"never\""])
        list.append(
            Refusal(
                name: "an orphan entitlement's malformed date fails the document", document: orphan,
                kind: .invalidValue, path: "subscriber.entitlements.legacy.expires_date"))
        var subscriptionArray = SubscriberDocument.monthlyPro()
        subscriptionArray.subscriberMembers.append("\"subscriptions\": []")
        list.append(
            Refusal(
                name: "subscriptions is an array", document: subscriptionArray, kind: .wrongType,
                path: "subscriber.subscriptions"))
        var oneTime = SubscriberDocument()
        oneTime.nonSubscriptions["com.acme.lifetime"] = [
            SubscriberDocument.oneTimeMembers(
                date: "2025-05-18T14:03:09Z", transactionId: "t", ["\"is_sandbox\": null"])
        ]
        list.append(
            Refusal(
                name: "one-time is_sandbox is null", document: oneTime, kind: .missingField,
                path: "subscriber.non_subscriptions[\"com.acme.lifetime\"][0].is_sandbox"))
        var oneTimeDate = SubscriberDocument()
        oneTimeDate.nonSubscriptions["com.acme.lifetime"] = [
            SubscriberDocument.oneTimeMembers(date: "2025-05-18T14:03:09Z", transactionId: "t1"),
            removing(
                "purchase_date",
                from: SubscriberDocument.oneTimeMembers(date: "2025-06-18T14:03:09Z", transactionId: "t2")),
        ]
        list.append(
            Refusal(
                name: "one-time purchase without purchase_date", document: oneTimeDate, kind: .missingField,
                path: "subscriber.non_subscriptions[\"com.acme.lifetime\"][1].purchase_date"))
        var oneTimeElement = SubscriberDocument()
        oneTimeElement.subscriberMembers.append(
            "\"non_subscriptions\": {\"com.acme.lifetime\": [\"1000000234567890\"]}")
        list.append(
            Refusal(
                name: "one-time purchase that is not an object", document: oneTimeElement, kind: .wrongType,
                path: "subscriber.non_subscriptions[\"com.acme.lifetime\"][0]"))
        return list
    }()

    @Test("a malformed field where access is decided fails the whole document at its path", arguments: refusals)
    func refusal(_ refusal: Refusal) throws {
        let error = try #require(refusal.document.failure(), "\(refusal.name) mapped")
        #expect(error.kind == refusal.kind, "\(error)")
        #expect(error.path.description == refusal.path, "\(error)")
    }

    @Test("a failed document never yields customer info either")
    func customerInfoFailsToo() throws {
        let document = SubscriberDocument.monthlyPro(entitlement: ["\"expires_date\": \"next tuesday\""])
        #expect(throws: DocumentError.self) { try document.customerInfo() }
    }

    @Test("the error names the path and quotes the value")
    func errorMessage() throws {
        let error = try #require(
            SubscriberDocument.monthlyPro(entitlement: ["\"expires_date\": \"next tuesday\""]).failure())
        #expect(
            error.description == #"subscriber.entitlements.pro.expires_date: "next tuesday" is not an ISO 8601 date"#)
    }

    @Test("the document root must be an object")
    func rootNotObject() throws {
        let error = try #require(throws: DocumentError.self) {
            try RevenueCatAdapter().snapshot(from: Data("[]".utf8), at: instant("2025-09-15T10:00:00Z"))
        }
        #expect(error.kind == .wrongType)
        #expect(error.path.description == "$")
    }

    @Test("a RevenueCat error body is a vendor error that quotes the code and message")
    func errorBody() throws {
        let body = Data(#"{"code": 7225, "message": "Invalid API Key."}"#.utf8)
        let error = try #require(throws: DocumentError.self) {
            try RevenueCatAdapter().snapshot(from: body, at: instant("2025-09-15T10:00:00Z"))
        }
        #expect(error.kind == .vendorError)
        #expect(error.path.description == "$")
        #expect(error.reason.contains("7225"))
        #expect(error.reason.contains("Invalid API Key."))
    }

    @Test("with several problems, the same one is reported every time")
    func deterministicError() throws {
        var document = SubscriberDocument()
        for index in 0..<12 {
            document.subscriptions["com.acme.p\(index)"] = SubscriberDocument.subscriptionMembers([
                "\"expires_date\": \"bad \(index)\""
            ])
        }
        let paths = Set((0..<5).compactMap { _ in document.failure()?.path.description })
        #expect(paths == ["subscriber.subscriptions[\"com.acme.p0\"].expires_date"])
    }
}

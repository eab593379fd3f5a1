import EntitlementKit
import EntitlementKitRevenueCat
import Foundation
import TestSupport
import Testing

/// Builds small v1 subscriber bodies as JSON text, so each test states only the members it is about.
///
/// Pieces are JSON fragments (`"\"store\": \"app_store\""`), joined into objects; the result is parsed by
/// the strict core parser exactly like a file would be.
struct SubscriberDocument {
    var requestDate = "\"2025-09-15T10:00:00Z\""
    var subscriberMembers: [String] = [
        "\"original_app_user_id\": \"user_48213\"",
        "\"first_seen\": \"2025-03-02T08:14:31Z\"",
    ]
    var subscriptions: [String: [String]] = [:]
    var nonSubscriptions: [String: [[String]]] = [:]
    var entitlements: [String: [String]] = [:]
    var rootMembers: [String] = []

    /// A renewing App Store subscription of `product` for the current month, with `extra` members
    /// replacing same-named defaults.
    static func subscriptionMembers(_ extra: [String] = []) -> [String] {
        merge(
            [
                "\"purchase_date\": \"2025-09-03T12:00:05Z\"",
                "\"original_purchase_date\": \"2025-04-03T12:00:05Z\"",
                "\"expires_date\": \"2025-10-03T12:00:05Z\"",
                "\"period_type\": \"normal\"",
                "\"store\": \"app_store\"",
                "\"is_sandbox\": false",
                "\"ownership_type\": \"PURCHASED\"",
                "\"store_transaction_id\": \"1000000123456789\"",
            ], extra)
    }

    /// An entitlement granted by `product`, expiring with the default subscription.
    static func entitlementMembers(product: String, _ extra: [String] = []) -> [String] {
        merge(
            [
                "\"product_identifier\": \"\(product)\"",
                "\"expires_date\": \"2025-10-03T12:00:05Z\"",
                "\"purchase_date\": \"2025-09-03T12:00:05Z\"",
            ], extra)
    }

    /// A one-time App Store purchase made at `date`.
    static func oneTimeMembers(date: String, transactionId: String, _ extra: [String] = []) -> [String] {
        merge(
            [
                "\"id\": \"rc_\(transactionId)\"",
                "\"store_transaction_id\": \"\(transactionId)\"",
                "\"purchase_date\": \"\(date)\"",
                "\"original_purchase_date\": \"\(date)\"",
                "\"store\": \"app_store\"",
                "\"is_sandbox\": false",
            ], extra)
    }

    /// The default customer with one subscription `product` and an entitlement `pro` on it.
    static func monthlyPro(subscription extraSubscription: [String] = [], entitlement extraEntitlement: [String] = [])
        -> SubscriberDocument
    {
        var document = SubscriberDocument()
        document.subscriptions["com.acme.pro.monthly"] = subscriptionMembers(extraSubscription)
        document.entitlements["pro"] = entitlementMembers(product: "com.acme.pro.monthly", extraEntitlement)
        return document
    }

    var text: String {
        func object(_ members: [String]) -> String { "{" + members.joined(separator: ", ") + "}" }
        func keyed(_ values: [String: String]) -> String {
            object(values.sorted { $0.key < $1.key }.map { "\(JSONValue.string($0.key).compactText): \($0.value)" })
        }
        var subscriber = subscriberMembers
        // A collection written by hand into `subscriberMembers` replaces the built one.
        func add(_ name: String, _ value: String) {
            if !subscriber.contains(where: { $0.hasPrefix("\"\(name)\":") }) {
                subscriber.append("\"\(name)\": " + value)
            }
        }
        add("subscriptions", keyed(subscriptions.mapValues(object)))
        add(
            "non_subscriptions",
            keyed(nonSubscriptions.mapValues { "[" + $0.map(object).joined(separator: ", ") + "]" }))
        add("entitlements", keyed(entitlements.mapValues(object)))
        var root = rootMembers
        root.append("\"request_date\": " + requestDate)
        root.append("\"subscriber\": " + object(subscriber))
        return object(root)
    }

    var data: Data { Data(text.utf8) }

    func snapshot(at instant: String = "2025-09-15T10:00:00Z") throws -> EntitlementSnapshot {
        try RevenueCatAdapter().snapshot(from: data, at: TestSupport.instant(instant))
    }

    func customerInfo(at instant: String = "2025-09-15T10:00:00Z") throws -> RevenueCatCustomerInfo {
        try RevenueCatAdapter().customerInfo(from: data, at: TestSupport.instant(instant))
    }

    /// The error mapping this document fails with, or `nil` when it maps.
    func failure() -> DocumentError? {
        do throws(DocumentError) {
            _ = try RevenueCatAdapter().snapshot(from: data, at: instant("2025-09-15T10:00:00Z"))
            return nil
        } catch {
            return error
        }
    }

    /// `base` with each member of `extra` replacing the member of the same name, or added.
    private static func merge(_ base: [String], _ extra: [String]) -> [String] {
        func name(_ member: String) -> Substring { member.prefix { $0 != ":" } }
        let replaced = Set(extra.map(name))
        return base.filter { !replaced.contains(name($0)) } + extra
    }
}

/// Removes the member `name` from a list of members.
func removing(_ name: String, from members: [String]) -> [String] {
    members.filter { !$0.hasPrefix("\"\(name)\":") }
}

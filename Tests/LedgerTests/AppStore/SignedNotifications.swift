import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import Foundation
import TestSupport

/// The tests' pre-signed App Store inputs (`Notifications/notifications.json`, by name) and the root
/// of the throwaway chain that signed them (`Notifications/ledger-root.der`), for the app
/// `com.acme.trails` whose product `com.acme.trails.pro.monthly` unlocks `pro`.
enum SignedNotifications {
    static let bundleId = "com.acme.trails"
    static let catalog = EntitlementCatalog(products: ["com.acme.trails.pro.monthly": .init(entitlementIds: ["pro"])])

    static func resource(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Notifications") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    static func appStoreSource() throws -> AppStoreLedgerSource {
        AppStoreLedgerSource(catalog: catalog, bundleId: bundleId, rootCertificates: [try resource("ledger-root.der")])
    }

    /// The raw body of the input `name`.
    static func body(_ name: String) throws -> String {
        guard case .object(let bodies) = try JSONValue.parse(try resource("notifications.json")),
            case .string(let body)? = bodies[name]
        else { throw CocoaError(.fileReadCorruptFile) }
        return body
    }

    static func notification(_ name: String, receivedAt: Date = midnight("2025-06-01")) throws -> LedgerNotification {
        LedgerNotification(source: .appStore, body: Data(try body(name).utf8), receivedAt: receivedAt)
    }
}

// fuzz-modules: EntitlementKitStripe
// fuzz-seeds: Fixtures/stripe Fixtures/malformed
import EntitlementKit
import EntitlementKitLedger
import EntitlementKitStripe
import Foundation

/// A catalog naming a price id, a lookup key and product ids, two entitlements for one product and a
/// one-time duration: every step of the catalog's precedence is reachable from the seeds.
let stripeCatalog = EntitlementCatalog(products: [
    "price_pro_monthly": .init(entitlementIds: ["pro"]),
    "pro_yearly": .init(entitlementIds: ["pro", "cloud"]),
    "prod_Pro": .init(entitlementIds: ["pro"]),
    "prod_Season": .init(entitlementIds: ["season"], duration: ISODuration("P1M")),
])

let stripeDocumentSource = StripeLedgerSource(catalog: stripeCatalog, webhookSecrets: [])

/// Stripe's documents (a Subscription in both API-version shapes, a list, a Checkout Session, an Event, the
/// combined per-customer object) through the adapter without and with a catalog — the byte entry and the
/// tree entry give the same snapshot or the same located error; recognising never crashes — and through
/// the ledger source as a fetched document, whose records map back to a snapshot that survives storage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStripe(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let document = try? JSONValue.parse(data) { _ = StripeAdapter().recognizes(document) }
    exerciseBothPaths(StripeAdapter(), data)
    exerciseBothPaths(StripeAdapter(configuration: .init(catalog: stripeCatalog)), data)
    let instant = fuzzInstant
    exerciseLedgerSource(stripeDocumentSource) { source throws(LedgerRefusal) in
        try source.read(LedgerDocument(source: .stripe, body: data, receivedAt: instant))
    }
    return 0
}

// fuzz-modules: EntitlementKitGooglePlay
// fuzz-seeds: Fixtures/ledger/googleplay Fixtures/ledger/malformed Fixtures/googleplay
import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import Foundation

let googlePlayNotificationSource = GooglePlayLedgerSource(
    catalog: EntitlementCatalog(products: ["trails_pro": .init(entitlementIds: ["pro"])]),
    packageName: "com.acme.trails")

/// A Pub/Sub push body (a real-time developer notification) through the ledger's Play reader, and the
/// same bytes as a fetched Play document with a token: a reading or a bounded one-line refusal; the
/// records of a reading map to a snapshot that survives storage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGooglePlayNotification(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let instant = fuzzInstant
    exerciseLedgerSource(googlePlayNotificationSource) { source throws(LedgerRefusal) in
        try source.read(LedgerNotification(source: .googlePlay, body: data, receivedAt: instant))
    }
    exerciseLedgerSource(googlePlayNotificationSource) { source throws(LedgerRefusal) in
        try source.read(LedgerDocument(source: .googlePlay, body: data, purchaseToken: "fuzz", receivedAt: instant))
    }
    return 0
}

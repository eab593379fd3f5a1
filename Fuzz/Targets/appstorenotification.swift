// fuzz-modules: EntitlementKitAppStore
// fuzz-seeds: Fixtures/ledger/appstore Fixtures/ledger/malformed
import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitLedger
import Foundation

/// The root of the ledger tests' throwaway chain (Tests/LedgerTests/Notifications/ledger-root.der), so
/// the seeds' signatures verify and the reader past the signature is reached.
let ledgerTestRoot =
    Data(
        base64Encoded:
            "MIIBpjCCAU2gAwIBAgIUbFNeW3HT9uX3YJ5qjntkXqlKhJcwCgYIKoZIzj0EAwIwQTEZMBcGA1UEAwwQTGVkZ2VyIFRlc3QgUm9vdDEkMCIGA1UECgwbRW50aXRsZW1lbnRLaXQgTGVkZ2VyIFRlc3RzMB4XDTI0MDEwMTAwMDAwMFoXDTM2MDEwMTAwMDAwMFowQTEZMBcGA1UEAwwQTGVkZ2VyIFRlc3QgUm9vdDEkMCIGA1UECgwbRW50aXRsZW1lbnRLaXQgTGVkZ2VyIFRlc3RzMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELNbf0nVAaWtGswKaqRSlzX4qmamP6LjusVY8T9n0xTQwcrp3uVS/jwNAMED7Tep08VVCtbx0mPy7ln5RWQDejaMjMCEwDwYDVR0TAQH/BAUwAwEB/zAOBgNVHQ8BAf8EBAMCAQYwCgYIKoZIzj0EAwIDRwAwRAIgJjaWxyaXix0mnWWQLajbAyN+5TWsCZ9OBXXbxCKggOsCIDVxY4/hKTHpMzsIX7qO3n6dDMkfbX4IV+NV08iGdHRJ"
    ) ?? Data()

let appStoreNotificationSource = AppStoreLedgerSource(
    catalog: EntitlementCatalog(products: ["com.acme.trails.pro.monthly": .init(entitlementIds: ["pro"])]),
    bundleId: "com.acme.trails", rootCertificates: [ledgerTestRoot])

/// An App Store Server Notification V2 body through the ledger's reader, as a notification and as a
/// posted document: a reading or a bounded one-line refusal; the records of a reading map to a snapshot
/// that survives storage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppStoreNotification(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let instant = fuzzInstant
    exerciseLedgerSource(appStoreNotificationSource) { source throws(LedgerRefusal) in
        try source.read(LedgerNotification(source: .appStore, body: data, receivedAt: instant))
    }
    exerciseLedgerSource(appStoreNotificationSource) { source throws(LedgerRefusal) in
        try source.read(LedgerDocument(source: .appStore, body: data, appUserId: "fuzz", receivedAt: instant))
    }
    return 0
}

import EntitlementKit
import Foundation

// A helper process for the cache crash-safety test: stores entry after entry for one customer in a
// `DirectoryEntitlementCache` and says "stored N" after each completed store, until it is killed.
//
//   cache-writer-for-tests DIRECTORY APP_USER_ID

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: cache-writer-for-tests DIRECTORY APP_USER_ID\n".utf8))
    exit(64)
}
let base = Date(timeIntervalSince1970: 1_750_000_000)
let cache = try DirectoryEntitlementCache(directory: URL(fileURLWithPath: arguments[1]))
var number = 0
while true {
    number += 1
    // Entry N grants `entitlement-N` until N days after the base instant.
    let instant = base.addingTimeInterval(TimeInterval(number))
    let snapshot = EntitlementSnapshot(
        provider: .revenueCat, appUserId: arguments[2], requestDate: instant, evaluatedAt: instant,
        entitlements: [
            Entitlement(
                id: "entitlement-\(number)", expirationDate: base.addingTimeInterval(TimeInterval(number) * 86_400),
                at: instant)
        ])
    try await cache.store(
        EntitlementCacheEntry(snapshot: snapshot, writtenAt: instant, newestRequestDate: instant), for: arguments[2])
    FileHandle.standardOutput.write(Data("stored \(number)\n".utf8))
}

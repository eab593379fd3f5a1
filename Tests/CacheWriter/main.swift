import EntitlementKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A helper process for the reliability tests, in three modes:
//
//   cache-writer-for-tests DIRECTORY APP_USER_ID
//     Stores entry after entry for one customer and says "stored N" after each, until it is killed.
//   cache-writer-for-tests stop-at STAGE entry|device DIRECTORY APP_USER_ID
//     Stores entry 1 and the id `before` ("stored 1"), then writes entry 2 (`entry`) or the app user id
//     (`device`, under the lock on disk), stopping at STAGE of that write ("at STAGE") until it is killed.
//   cache-writer-for-tests client PROVIDER DIRECTORY
//     An app or extension process: an EntitlementClient over the directory, driven by lines on stdin
//     (`launch`, `login ID`, `logout`, `check`, `refresh` = a check that fetches); after each it says
//     "<app user id> <active ids, comma-separated>". PROVIDER is `revenuecat`, `qonversion`, or a migration
//     `SERVING>SHADOW` (a MigratingProvider over the two). `hold STAGE` (says "holding STAGE") makes the next
//     cut-over pair write stop at that IdentityPairWriteStage: it says "held STAGE" and goes on at the next
//     line on stdin (or is killed there).

let arguments = Array(CommandLine.arguments.dropFirst())
let base = Date(timeIntervalSince1970: 1_750_000_000)

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            ("usage: cache-writer-for-tests DIRECTORY APP_USER_ID | stop-at STAGE entry|device DIRECTORY APP_USER_ID"
                + " | client PROVIDER DIRECTORY\n").utf8))
    exit(64)
}

/// Entry N grants `entitlement-N` until N days after the base instant.
func entry(_ number: Int, for appUserId: String) -> EntitlementCacheEntry {
    let instant = base.addingTimeInterval(TimeInterval(number))
    let snapshot = EntitlementSnapshot(
        provider: .revenueCat, appUserId: appUserId, requestDate: instant, evaluatedAt: instant,
        entitlements: [
            Entitlement(
                id: "entitlement-\(number)", expirationDate: base.addingTimeInterval(TimeInterval(number) * 86_400),
                at: instant)
        ])
    return EntitlementCacheEntry(snapshot: snapshot, writtenAt: instant, newestRequestDate: instant)
}

/// A backend in the process: `alice` has `premium` for life; everyone else has nothing.
struct FixedBackend: EntitlementProvider {
    let provider: ProviderID

    func makeAnonymousAppUserId() -> String {
        let hex = (0..<32).map { _ in String(Int.random(in: 0..<16), radix: 16) }.joined()
        return (provider == .qonversion ? "QON_" : "$RCAnonymousID:") + hex
    }

    func isAnonymous(_ appUserId: String) -> Bool {
        appUserId.hasPrefix(provider == .qonversion ? "QON_" : "$RCAnonymousID:")
    }

    func snapshot(for appUserId: String) -> EntitlementSnapshot {
        let now = Date()
        return EntitlementSnapshot(
            provider: provider, appUserId: appUserId, requestDate: now, evaluatedAt: now,
            entitlements: appUserId == "alice" ? [Entitlement(id: "premium", expirationDate: nil, at: now)] : [])
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) -> LogInResult {
        LogInResult(snapshot: snapshot(for: newAppUserId), created: false)
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) -> EntitlementSnapshot {
        snapshot(for: appUserId)
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) -> EntitlementSnapshot {
        snapshot(for: appUserId)
    }
}

/// Where the next cut-over pair write stops (`hold STAGE`), once.
final class HoldPoint: @unchecked Sendable {
    private let lock = NSLock()
    private var stage: IdentityPairWriteStage?

    func arm(_ stage: IdentityPairWriteStage) {
        lock.withLock { self.stage = stage }
    }

    /// Called by the cache at each stage of a pair write: at the armed one, says so and waits for a line.
    func reached(_ reached: IdentityPairWriteStage) {
        let isArmed = lock.withLock { () -> Bool in
            guard stage == reached else { return false }
            stage = nil
            return true
        }
        guard isArmed else { return }
        say("held \(reached.rawValue)")
        _ = readLine()
    }
}

/// A backend, or a migration `SERVING>SHADOW` between two.
func makeProvider(_ name: String) -> any EntitlementProvider {
    let names = name.split(separator: ">").map { ProviderID(rawValue: String($0)) }
    guard names.count == 2 else { return FixedBackend(provider: ProviderID(rawValue: name)) }
    return MigratingProvider(serving: FixedBackend(provider: names[0]), shadow: FixedBackend(provider: names[1]))
}

func runClient(provider name: String, directory: URL) async throws {
    let backend = makeProvider(name)
    let hold = HoldPoint()
    var client: EntitlementClient?
    func describe(_ client: EntitlementClient, _ check: EntitlementCheck) async {
        say("\(await client.appUserId) \(check.activeEntitlementIds.joined(separator: ","))")
    }
    while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        switch words.first {
        case "launch":
            let cache = try DirectoryEntitlementCache(
                directory: directory, writeStageObserver: nil, identityWriteObserver: { hold.reached($0) })
            let launched = try await EntitlementClient(
                provider: backend, cache: cache,
                appUserId: words.count > 1 ? words[1] : nil)
            client = launched
            await describe(launched, await launched.checkEntitlements(.fromCacheOnly))
        case "login":
            guard let client, words.count == 2 else { usage() }
            _ = try await client.logIn(words[1])
            await describe(client, await client.checkEntitlements())
        case "logout":
            guard let client else { usage() }
            try await client.logOut()
            await describe(client, await client.checkEntitlements())
        case "check":
            guard let client else { usage() }
            await describe(client, await client.checkEntitlements())
        case "refresh":
            guard let client else { usage() }
            await describe(client, await client.checkEntitlements(.fetchCurrent))
        case "hold":
            guard words.count == 2, let stage = IdentityPairWriteStage(rawValue: words[1]) else { usage() }
            hold.arm(stage)
            say("holding \(stage.rawValue)")
        default:
            usage()
        }
    }
}

switch arguments.first {
case "stop-at":
    guard arguments.count == 5, let stage = CacheWriteStage(rawValue: arguments[1]),
        ["entry", "device"].contains(arguments[2])
    else { usage() }
    let id = arguments[4]
    let directory = URL(fileURLWithPath: arguments[3])
    let cache = try DirectoryEntitlementCache(directory: directory)
    try await cache.store(entry(1, for: id), for: id)
    try await cache.storeAppUserId("before")
    say("stored 1")
    let stopping = try DirectoryEntitlementCache(
        directory: directory,
        writeStageObserver: { reached in
            guard reached == stage else { return }
            say("at \(reached.rawValue)")
            while true { pause() }  // until killed
        })
    if arguments[2] == "entry" {
        try await stopping.store(entry(2, for: id), for: id)
    } else {
        try await stopping.storeAppUserId(id)
    }
case "client":
    guard arguments.count == 3 else { usage() }
    try await runClient(provider: arguments[1], directory: URL(fileURLWithPath: arguments[2]))
default:
    guard arguments.count == 2 else { usage() }
    let cache = try DirectoryEntitlementCache(directory: URL(fileURLWithPath: arguments[0]))
    var number = 0
    while true {
        number += 1
        try await cache.store(entry(number, for: arguments[1]), for: arguments[1])
        say("stored \(number)")
    }
}

import EntitlementKit
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One cache directory shared by clients of two backends, by two projects, and by two processes (each
/// process opens caches of its own over the directory: here, two cache instances).
@Suite("A cache directory shared by backends, projects and processes", .timeLimit(.minutes(5)))
struct SharedDirectoryTests {
    private struct Backends {
        let time = TestTime()
        let revenueCat: TestProvider
        let qonversion: TestProvider
        let directory: URL

        init(directory: URL) {
            revenueCat = TestProvider(time: time)
            qonversion = TestProvider(time: time, provider: .qonversion)
            self.directory = directory
        }

        /// A client opened as a new process would: a new cache instance over the directory.
        func launch(_ backend: TestProvider, appUserId: String? = nil) async throws -> EntitlementClient {
            try await EntitlementClient(
                provider: backend, cache: try DirectoryEntitlementCache(directory: directory), appUserId: appUserId,
                deviceClock: time.device, monotonicClock: time.monotonic)
        }
    }

    private static func entry(for id: String, provider: ProviderID = .revenueCat, grants: String? = nil, at date: Date)
        -> EntitlementCacheEntry
    {
        let snapshot = EntitlementSnapshot(
            provider: provider, appUserId: id, requestDate: date, evaluatedAt: date,
            entitlements: grants.map { [Entitlement(id: $0, expirationDate: nil, at: date)] } ?? [])
        return EntitlementCacheEntry(snapshot: snapshot, writtenAt: date, newestRequestDate: date)
    }

    @Test("two backends on one directory never share the stored id or an entry")
    func twoBackendsKeepTheirOwnIds() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = Backends(directory: temporary.cache)
        device.revenueCat.grant("premium", to: "alice", until: nil)

        let revenueCat = try await device.launch(device.revenueCat)
        let qonversion = try await device.launch(device.qonversion)
        let revenueCatAnonymous = await revenueCat.appUserId
        #expect(revenueCatAnonymous.hasPrefix("$RCAnonymousID:"))
        #expect(await qonversion.appUserId.hasPrefix("QON_"))
        _ = try await revenueCat.logIn("alice")
        #expect(await revenueCat.checkEntitlements().isActive("premium"))

        // Relaunched, each comes up as its own customer: Qonversion never as RevenueCat's alice.
        device.time.relaunch()
        let qonversionAgain = try await device.launch(device.qonversion)
        let revenueCatAgain = try await device.launch(device.revenueCat)
        #expect(await qonversionAgain.appUserId.hasPrefix("QON_"))
        #expect(await revenueCatAgain.appUserId == "alice")
        #expect(await qonversionAgain.checkEntitlements(.fromCacheOnly).snapshot == nil)

        // The same customer id in both: each backend's own entry answers.
        let qonversionAlice = try await device.launch(device.qonversion, appUserId: "alice")
        device.qonversion.goOffline()
        let offline = await qonversionAlice.checkEntitlements()
        #expect(offline.snapshot == nil)
        #expect(offline.error?.code == .offline)
    }

    @Test("two projects of one backend are two namespaces")
    func twoProjectsKeepTheirOwnIds() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let time = TestTime()
        let first = TestProvider(time: time, namespace: "revenuecat-0000000000000001")
        let second = TestProvider(time: time, namespace: "revenuecat-0000000000000002")
        first.grant("premium", to: "alice", until: nil)
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        let a = try await EntitlementClient(provider: first, cache: cache, appUserId: "alice")
        #expect(await a.checkEntitlements().isActive("premium"))
        let b = try await EntitlementClient(provider: second, cache: cache)
        #expect(await b.isAnonymous)
        #expect(
            try temporary.files(in: temporary.cache) == ["revenuecat-0000000000000001", "revenuecat-0000000000000002"])
    }

    @Test("a namespace that is not a plain name becomes a digest: it never names a path outside")
    func unsafeNamespaceNames() {
        for hostile in ["..", ".", "../x", "a/b", "", ".lock", "é", String(repeating: "a", count: 101)] {
            let name = DirectoryEntitlementCache.directoryName(forNamespace: hostile)
            #expect(name.hasPrefix("namespace-") && name.count == "namespace-".count + 64, "\(hostile)")
        }
        #expect(DirectoryEntitlementCache.directoryName(forNamespace: "qonversion-0a1b") == "qonversion-0a1b")
    }

    @Test("a process's stored id is never written back from a stale copy when another persists its floor")
    func deviceFileNeverWrittenBackStale() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let backend = TestProvider(time: TestTime())
        let app = try DirectoryEntitlementCache(directory: temporary.cache).partition(for: backend)
        let fileExtension = try DirectoryEntitlementCache(directory: temporary.cache).partition(for: backend)
        try await app.storeAppUserId("alice")
        try await fileExtension.storeTrustedFloor(instant("2026-01-01T00:00:00Z"))
        #expect(await fileExtension.storedAppUserId() == "alice")

        try await app.storeAppUserId("$RCAnonymousID:00000000000000000000000000000009")  // the app logs out
        try await fileExtension.storeTrustedFloor(instant("2026-01-02T00:00:00Z"))  // the extension checks
        #expect(await app.storedAppUserId() == "$RCAnonymousID:00000000000000000000000000000009")
        #expect(await fileExtension.storedAppUserId() == "$RCAnonymousID:00000000000000000000000000000009")
        #expect(await app.trustedFloor() == instant("2026-01-02T00:00:00Z"))
    }

    @Test("a client with a fresh entry in memory follows another process's logOut at its next check")
    func warmClientFollowsAnotherProcessesLogOut() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = Backends(directory: temporary.cache)
        device.revenueCat.grant("premium", to: "alice", until: nil)
        let app = try await device.launch(device.revenueCat, appUserId: "alice")
        let appExtension = try await device.launch(device.revenueCat)
        #expect(await appExtension.appUserId == "alice")
        #expect(await appExtension.checkEntitlements().isActive("premium"))
        #expect(await appExtension.checkEntitlements().source == .cache)  // warm: alice's entry in memory

        try await app.logOut()
        let afterLogOut = await appExtension.checkEntitlements()
        #expect(await appExtension.appUserId == app.appUserId)
        #expect(afterLogOut.isActive("premium") == false)
        #expect(afterLogOut.snapshot?.appUserId != "alice")
    }

    @Test("the shared-state stamp changes with every write of the device file, not with reads")
    func sharedStateStampMarksWrites() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let cache = try DirectoryEntitlementCache(directory: temporary.cache)
        let other = try DirectoryEntitlementCache(directory: temporary.cache)
        let missing = cache.sharedStateStamp()
        try await other.storeAppUserId("alice")
        let stored = cache.sharedStateStamp()
        #expect(stored != missing)
        _ = await cache.storedAppUserId()
        _ = await cache.trustedFloor()
        #expect(cache.sharedStateStamp() == stored)
        try await other.storeTrustedFloor(instant("2026-01-01T00:00:00Z"))
        #expect(cache.sharedStateStamp() != stored)
        #expect(InMemoryEntitlementCache().sharedStateStamp() == nil)
    }

    @Test("the stored floor is never lowered, by this process or another")
    func floorNeverLowered() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let backend = TestProvider(time: TestTime())
        let app = try DirectoryEntitlementCache(directory: temporary.cache).partition(for: backend)
        let fileExtension = try DirectoryEntitlementCache(directory: temporary.cache).partition(for: backend)
        try await app.storeTrustedFloor(instant("2026-03-01T00:00:00Z"))
        try await fileExtension.storeTrustedFloor(instant("2026-02-01T00:00:00Z"))
        try await app.storeTrustedFloor(instant("2026-01-01T00:00:00Z"))
        #expect(await app.trustedFloor() == instant("2026-03-01T00:00:00Z"))
        #expect(await fileExtension.trustedFloor() == instant("2026-03-01T00:00:00Z"))
    }

    @Test("opening a cache leaves live processes' temporary files and removes ended writers' ones")
    func temporaryFilesOfOtherProcesses() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        _ = try DirectoryEntitlementCache(directory: temporary.cache)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/sh")
        ended.arguments = ["-c", "exit 0"]
        try ended.run()
        ended.waitUntilExit()
        let namespace = temporary.cache.appendingPathComponent("revenuecat")
        try FileManager.default.createDirectory(at: namespace, withIntermediateDirectories: false)
        let live = ".tmp-\(getpid())-1"
        let crashed = ".tmp-\(ended.processIdentifier)-2"
        let unknown = ".tmp-old"
        for directory in [temporary.cache, namespace] {
            for name in [live, crashed, unknown] {
                try Data("half a fi".utf8).write(to: directory.appendingPathComponent(name))
            }
        }
        _ = try DirectoryEntitlementCache(directory: temporary.cache)
        for directory in [temporary.cache, namespace] {
            #expect(try temporary.files(in: directory).filter { $0.hasPrefix(".tmp") } == [unknown, live].sorted())
        }
    }

    // MARK: A directory written before namespaces

    @Test("an old single-provider directory is read as the provider that wrote it, never as another")
    func oldDirectoryReadAsItsProvider() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = Backends(directory: temporary.cache)
        let written = device.time.now
        // What a version before namespaces left: files at the top of the directory.
        let old = try DirectoryEntitlementCache(directory: temporary.cache)
        try await old.storeAppUserId("alice")
        try await old.store(Self.entry(for: "alice", grants: "premium", at: written), for: "alice")
        try await old.storeTrustedFloor(written.addingTimeInterval(hour))
        device.revenueCat.goOffline()
        device.qonversion.goOffline()

        let revenueCat = try await device.launch(device.revenueCat)
        #expect(await revenueCat.appUserId == "alice")
        let check = await revenueCat.checkEntitlements(.fromCacheOnly)
        #expect(check.isActive("premium"))
        #expect(check.snapshot?.evaluatedAt == written.addingTimeInterval(hour))  // the old floor still holds

        let qonversion = try await device.launch(device.qonversion)
        #expect(await qonversion.isAnonymous)
        let qonversionAlice = try await device.launch(device.qonversion, appUserId: "alice")
        #expect(await qonversionAlice.checkEntitlements(.fromCacheOnly).snapshot == nil)

        // Nothing old is rewritten: new writes go to the namespace.
        device.revenueCat.succeed()
        _ = try await revenueCat.logIn("bob")
        #expect(await old.storedAppUserId() == "alice")
        #expect(try temporary.files(in: temporary.cache).contains("revenuecat"))
    }

    @Test("an old anonymous id goes to the provider whose form it has")
    func oldAnonymousIdByForm() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = Backends(directory: temporary.cache)
        let anonymous = "QON_0123456789abcdef0123456789abcdef"
        try await DirectoryEntitlementCache(directory: temporary.cache).storeAppUserId(anonymous)
        #expect(try await device.launch(device.qonversion).appUserId == anonymous)
        #expect(try await device.launch(device.revenueCat).appUserId != anonymous)
    }

    @Test("logging out drops the customer's old entry too")
    func logOutDropsTheOldEntry() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = Backends(directory: temporary.cache)
        let old = try DirectoryEntitlementCache(directory: temporary.cache)
        try await old.store(Self.entry(for: "alice", grants: "premium", at: device.time.now), for: "alice")
        let client = try await device.launch(device.revenueCat, appUserId: "alice")
        try await client.logOut()
        #expect(await old.entry(for: "alice") == nil)
        device.revenueCat.goOffline()
        let again = try await device.launch(device.revenueCat, appUserId: "alice")
        #expect(await again.checkEntitlements(.fromCacheOnly).snapshot == nil)
    }
}

import EntitlementKit
import Foundation
import Testing

@Suite("Client over the directory cache: relaunch, damage, another customer's file", .timeLimit(.minutes(5)))
struct ClientOverDirectoryTests {
    /// A device whose storage is a directory; each launch opens a new cache instance over it, as a new
    /// process would.
    private struct DiskDevice {
        let time = TestTime()
        let backend: TestProvider
        let directory: URL

        init(directory: URL) {
            backend = TestProvider(time: time)
            self.directory = directory
        }

        func launch(appUserId: String? = nil) async throws -> EntitlementClient {
            time.relaunch()
            return try await EntitlementClient(
                provider: backend, cache: try DirectoryEntitlementCache(directory: directory), appUserId: appUserId,
                deviceClock: time.device, monotonicClock: time.monotonic)
        }

        /// Where the client keeps its files: its provider's namespace in the directory.
        var namespaceDirectory: URL {
            directory.appendingPathComponent(DirectoryEntitlementCache.directoryName(forNamespace: "revenuecat"))
        }

        func entryFile(for appUserId: String) -> URL {
            namespaceDirectory.appendingPathComponent(DirectoryEntitlementCache.entryFileName(for: appUserId))
        }
    }

    @Test("a relaunch over the same directory keeps the id, the fresh entry, and the floor")
    func relaunch() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = DiskDevice(directory: temporary.cache)
        let start = device.time.now
        let first = try await device.launch()
        let anonymous = await first.appUserId
        device.backend.grant("premium", to: anonymous, until: start.addingTimeInterval(day))
        #expect(await first.checkEntitlements().isActive("premium"))

        device.time.advance(minute)
        let second = try await device.launch()
        #expect(await second.appUserId == anonymous)
        let cached = await second.checkEntitlements()
        #expect(cached.source == .cache)
        #expect(cached.isActive("premium"))

        device.backend.goOffline()
        device.time.advance(2 * day)
        #expect(await second.checkEntitlements().isActive("premium") == false)  // raises the floor on disk
        device.time.setDeviceOffset(-5 * day)
        let third = try await device.launch()
        let offline = await third.checkEntitlements()
        #expect(offline.source == .cache)
        #expect(offline.error?.code == .offline)
        #expect(offline.isActive("premium") == false)
        #expect(device.backend.calls(.snapshot) == 3)  // one success, two offline attempts
    }

    @Test("a damaged entry file is refetched online and grants nothing offline, whichever byte is damaged")
    func damagedEntryNeverGrants() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = DiskDevice(directory: temporary.cache)
        device.backend.grant("premium", to: "alice", until: nil)
        _ = try await device.launch(appUserId: "alice").checkEntitlements()
        let file = device.entryFile(for: "alice")
        let intact = [UInt8](try Data(contentsOf: file))
        device.backend.revokeAll(from: "alice")
        device.backend.goOffline()

        // Every 7th offset through the whole client (the cache alone is tested at every offset).
        for offset in stride(from: 0, to: intact.count, by: 7) {
            var damaged = intact
            damaged[offset] ^= 0x01
            try overwrite(file, with: damaged)
            let client = try await device.launch(appUserId: "alice")
            for policy in FetchPolicy.allCases {
                let check = await client.checkEntitlements(policy)
                #expect(check.snapshot == nil, "byte \(offset), \(policy)")
                #expect(check.isActive("premium") == false)
            }
        }

        device.backend.succeed()
        try overwrite(file, with: intact.prefix(intact.count / 2))
        let online = try await device.launch(appUserId: "alice")
        let check = await online.checkEntitlements()
        #expect(check.source == .network)
        #expect(check.activeEntitlementIds == [])
        #expect(await online.checkEntitlements(.fromCacheOnly).source == .cache)  // rewritten whole
    }

    @Test("another customer's file copied under this customer's name is ignored")
    func foreignEntry() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = DiskDevice(directory: temporary.cache)
        device.backend.grant("premium", to: "alice", until: nil)
        _ = try await device.launch(appUserId: "alice").checkEntitlements()
        try FileManager.default.copyItem(at: device.entryFile(for: "alice"), to: device.entryFile(for: "bob"))
        device.backend.goOffline()
        let bob = try await device.launch(appUserId: "bob")
        let check = await bob.checkEntitlements()
        #expect(check.snapshot == nil)
        #expect(check.error?.code == .offline)
    }

    @Test("a damaged device file: a new anonymous id (never another customer's), and the entries still keyed")
    func damagedDeviceFile() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = DiskDevice(directory: temporary.cache)
        _ = try await device.launch(appUserId: "alice")
        let file = device.namespaceDirectory.appendingPathComponent("device.cache")
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count - 3] ^= 0x01
        try overwrite(file, with: bytes)
        let relaunched = try await device.launch()
        #expect(await relaunched.isAnonymous)
    }

    @Test("logOut and logIn delete the previous customer's file")
    func identityChangesDeleteFiles() async throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }
        let device = DiskDevice(directory: temporary.cache)
        let client = try await device.launch(appUserId: "alice")
        _ = await client.checkEntitlements()
        #expect(FileManager.default.fileExists(atPath: device.entryFile(for: "alice").path))
        _ = try await client.logIn("bob")
        #expect(FileManager.default.fileExists(atPath: device.entryFile(for: "alice").path) == false)
        #expect(FileManager.default.fileExists(atPath: device.entryFile(for: "bob").path))
        try await client.logOut()
        #expect(FileManager.default.fileExists(atPath: device.entryFile(for: "bob").path) == false)
        #expect(try temporary.files(in: device.namespaceDirectory) == [".lock", "device.cache"])
    }
}

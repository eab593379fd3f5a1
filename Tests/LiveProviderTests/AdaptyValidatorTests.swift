import EntitlementKit
import EntitlementKitAdapty
import Foundation
import LoopbackHTTPServer
import Testing

/// Adapty's conditional fetch across a relaunch: the client keeps the response hash with its cache entry
/// (as the entry's validator), so a new process's provider asks "changed since?" and an unchanged profile
/// is not decoded again; a kept validator is only ever used for the profile and customer it was given for.
@Suite(.timeLimit(.minutes(5))) struct AdaptyValidatorTests {
    static let device = AdaptyBodies.deviceProfile
    static let undecodable = "this is not JSON, and would fail to decode"

    static func scratchDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("adapty-validator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return url
    }

    @Test func theHashKeptInTheCacheSkipsDecodingAnUnchangedProfileAfterARelaunch() async throws {
        let server = try LoopbackHTTPServer(replies: [
            AdaptyBodies.reply(Self.device, hash: "h1"),
            .json(200, Self.undecodable, headers: [.init("x-response-hash", "h1")]),
        ])
        defer { server.stop() }
        let directory = try Self.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try await EntitlementClient(
            provider: try AdaptyProviderTests.provider(server),
            cache: try DirectoryEntitlementCache(directory: directory),
            appUserId: Self.device)
        let fetched = await first.checkEntitlements()
        #expect(fetched.source == .network && fetched.error == nil)

        // A new process: a provider that remembers no hash, a client over the same directory.
        let second = try await EntitlementClient(
            provider: try AdaptyProviderTests.provider(server),
            cache: try DirectoryEntitlementCache(directory: directory),
            appUserId: Self.device)
        let revalidated = await second.checkEntitlements(.fetchCurrent)
        #expect(revalidated.source == .network)
        #expect(revalidated.error == nil)
        #expect(revalidated.snapshot?.entitlements.keys.sorted() == fetched.snapshot?.entitlements.keys.sorted())
        #expect(server.requests.map { $0.header("adapty-sdk-previous-response-hash") } == [nil, "h1"])
    }

    @Test func aKeptValidatorIsUsedOnlyForItsProfileAndCustomer() async throws {
        let snapshot = EntitlementSnapshot(provider: .adapty, appUserId: Self.device, evaluatedAt: Date())
        let misplaced = [
            // Another profile's hash.
            ValidatedSnapshot(snapshot: snapshot, validator: AdaptyBodies.otherProfile + " h1"),
            // Another customer's snapshot.
            ValidatedSnapshot(
                snapshot: EntitlementSnapshot(provider: .adapty, appUserId: "mallory", evaluatedAt: Date()),
                validator: Self.device + " h1"),
            // Not a validator this provider gives.
            ValidatedSnapshot(snapshot: snapshot, validator: "h1"),
            ValidatedSnapshot(snapshot: snapshot, validator: Self.device + " h1 h2"),
        ]
        for cached in misplaced {
            let server = try LoopbackHTTPServer(replies: [
                .json(200, Self.undecodable, headers: [.init("x-response-hash", "h1")])
            ])
            defer { server.stop() }
            let provider = try AdaptyProviderTests.provider(server)
            let failure = await AdaptyProviderTests.failure {
                _ = try await provider.snapshot(for: Self.device, revalidating: cached)
            }
            #expect(failure?.code == .badResponse, "\(cached.validator ?? "nil")")
            #expect(server.requests.map { $0.header("adapty-sdk-previous-response-hash") } == [nil])
        }
    }

    @Test func theValidatorNamesTheProfileAndItsHash() async throws {
        let server = try LoopbackHTTPServer(replies: [AdaptyBodies.reply(Self.device, hash: "h1")])
        defer { server.stop() }
        let answer = try await AdaptyProviderTests.provider(server).snapshot(for: Self.device, revalidating: nil)
        #expect(answer.validator == Self.device + " h1")
    }
}

// swift-format-ignore-file
// (the examples are kept exactly as the article shows them)
import EntitlementKit
import Foundation
import Testing

// doc-example: Sources/EntitlementKit/Documentation.docc/WritingAnEntitlementProvider.md
/// How the app reaches its accounts server; `status` is the HTTP status.
protocol AccountsAPI: Sendable {
    /// `GET /entitlements/{userId}`, the id percent-encoded as one path segment.
    func entitlements(of userId: String) async throws -> (status: Int, body: Data)
    /// `POST /{path}` with a JSON body.
    func post(_ path: String, body: Data) async throws -> (status: Int, body: Data)
}

struct AccountsProvider: EntitlementProvider {
    let api: any AccountsAPI

    var provider: ProviderID { ProviderID(rawValue: "accounts") }

    func makeAnonymousAppUserId() -> String { "anonymous-" + UUID().uuidString.lowercased() }
    func isAnonymous(_ appUserId: String) -> Bool { appUserId.hasPrefix("anonymous-") }

    func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await call(for: appUserId) { try await api.entitlements(of: appUserId) }
    }

    func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        let body = Data(JSONValue.object(["from": .string(currentAppUserId), "to": .string(newAppUserId)]).compactText.utf8)
        let snapshot = try await call(for: newAppUserId) { try await api.post("logins", body: body) }
        return LogInResult(snapshot: snapshot, created: false)
    }

    func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        let body = Data(JSONValue.object(["userId": .string(appUserId), "receipt": .string(receipt.token)]).compactText.utf8)
        return try await call(for: appUserId) { try await api.post("receipts", body: body) }
    }

    func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await syncPurchases(purchase.receipt, for: appUserId)
    }

    /// One request, its failures in the client's codes, its body decoded strictly.
    private func call(for appUserId: String, _ request: () async throws -> (status: Int, body: Data))
        async throws(EntitlementClientError) -> EntitlementSnapshot
    {
        let answer: (status: Int, body: Data)
        do {
            answer = try await request()
        } catch {
            throw EntitlementClientError(.offline, "accounts server unreachable")
        }
        switch answer.status {
        case 200..<300: break
        case 401, 403: throw EntitlementClientError(.credentialsRefused, "refused", httpStatus: answer.status)
        case 500...: throw EntitlementClientError(.backendUnavailable, "server error", httpStatus: answer.status)
        default: throw EntitlementClientError(.badResponse, "unexpected status", httpStatus: answer.status)
        }
        do {
            return try decode(answer.body, for: appUserId)
        } catch {
            throw EntitlementClientError(.badResponse, "\(error)", documentError: error)
        }
    }

    private func decode(_ body: Data, for appUserId: String) throws(DocumentError) -> EntitlementSnapshot {
        let root = try JSONNode(parsing: body)
        let serverTime = try root.required("serverTime").date()
        let entitlements = try root.required("entitlements").elements().map { (item) throws(DocumentError) in
            Entitlement(
                id: try item.required("id").string(),
                productId: try item.optional("productId")?.string(),
                expirationDate: try item.optional("expiresAt")?.date(),   // null: a lifetime purchase
                at: serverTime)
        }
        return EntitlementSnapshot(
            provider: provider, appUserId: appUserId, requestDate: serverTime, evaluatedAt: serverTime,
            entitlements: entitlements)
    }
}
// end doc-example

// doc-example: Sources/EntitlementKit/Documentation.docc/WritingAnEntitlementProvider.md
func checkPro(api: any AccountsAPI, cacheFolder: URL) async throws -> Bool {
    let client = try await EntitlementClient(
        provider: AccountsProvider(api: api), cache: try DirectoryEntitlementCache(directory: cacheFolder))
    return await client.checkEntitlements().isActive("pro")
}
// end doc-example

/// The article's provider over recorded answers, run through a real client and a real cache folder.
@Suite("Writing your own EntitlementProvider (article)", .timeLimit(.minutes(5)))
struct WritingAnEntitlementProviderArticleTests {
    struct RecordedAPI: AccountsAPI {
        var status = 200
        var body = #"{"serverTime": "2025-06-01T12:00:00Z", "entitlements": [{"id": "pro", "productId": "pro_monthly", "expiresAt": null}]}"#
        func entitlements(of userId: String) async throws -> (status: Int, body: Data) { (status, Data(body.utf8)) }
        func post(_ path: String, body: Data) async throws -> (status: Int, body: Data) { (status, Data(self.body.utf8)) }
    }

    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-" + UUID().uuidString)
        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func aLifetimePurchaseOnTheServerUnlocksPro() async throws {
        #expect(try await checkPro(api: RecordedAPI(), cacheFolder: Folder().url))
    }

    @Test func anHTMLErrorPageIsABadResponseNeverAccess() async throws {
        let provider = AccountsProvider(api: RecordedAPI(body: "<html>502</html>"))
        await #expect(throws: EntitlementClientError.self) { _ = try await provider.snapshot(for: "alice") }
        #expect(try await checkPro(api: RecordedAPI(body: "<html>502</html>"), cacheFolder: Folder().url) == false)
    }

    @Test func statusesBecomeTheClientsCodes() async {
        for (status, code) in [(401, EntitlementClientError.Code.credentialsRefused), (503, .backendUnavailable), (404, .badResponse)] {
            do {
                _ = try await AccountsProvider(api: RecordedAPI(status: status)).snapshot(for: "alice")
                Issue.record("\(status) answered")
            } catch {
                #expect(error.code == code)
            }
        }
    }

    @Test func anonymousIdsAreTold() {
        let provider = AccountsProvider(api: RecordedAPI())
        #expect(provider.isAnonymous(provider.makeAnonymousAppUserId()))
        #expect(!provider.isAnonymous("alice"))
    }
}

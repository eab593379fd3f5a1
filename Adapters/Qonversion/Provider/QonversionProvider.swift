import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// Qonversion as an ``EntitlementKit/EntitlementProvider``, over the endpoints its mobile SDKs call: the
/// customer's snapshot from `POST v1/user/init`, logIn through `POST v2/identities`, restores through
/// `v1/user/init` with the App Store receipt (iOS) or `POST v1/user/restore` with Play purchase tokens
/// (Android), purchases through `POST v1/user/purchase`. Every launch result goes through
/// ``QonversionAdapter``, the same decoding path as files.
///
/// Your app user ids are Qonversion *identities*; Qonversion keeps its own user id (`QON_…`) per
/// customer. An anonymous id (`QON_` + 32 lowercase hex digits) is a Qonversion user id itself; any other
/// id is resolved through `POST v2/identities` (once per provider, then remembered).
///
/// ```swift
/// let provider = try QonversionProvider(configuration: .init(projectKey: "PV77…"))
/// let snapshot = try await provider.snapshot(for: "alice")
/// ```
public struct QonversionProvider: EntitlementProvider {
    /// The configuration (its description never shows the key).
    public let configuration: Configuration
    private let core: LiveProviderCore
    private let identities = QonversionIdentityDirectory()
    private let adapter = QonversionAdapter()

    /// Qonversion's anonymous id prefix.
    public static let anonymousPrefix = "QON_"

    /// Creates the provider. `randomNumberGenerator` draws anonymous ids and retry jitter (the system's
    /// by default); `clock` is the instant snapshots are first evaluated at (the runtime client
    /// re-evaluates them at its trusted instant).
    public init(
        configuration: Configuration, logger: EntitlementLogger = .disabled, clock: any WallClock = SystemClock(),
        randomNumberGenerator: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        core = LiveProviderCore(
            configuration: configuration.live, logger: logger, clock: clock,
            randomNumberGenerator: randomNumberGenerator)
    }

    /// `qonversion`.
    public var provider: ProviderID { .qonversion }

    /// The provider's raw value and a digest of the key (`<provider>-` + 16 hex digits): two projects
    /// sharing a cache directory never share an id or an answer.
    public var storageNamespace: String { configuration.live.storageNamespace(for: provider) }

    /// `QON_` + 32 lowercase hex digits.
    public func makeAnonymousAppUserId() -> String {
        core.makeAnonymousId(prefix: Self.anonymousPrefix)
    }

    /// Whether `appUserId` is `QON_` + 32 lowercase hex digits.
    public func isAnonymous(_ appUserId: String) -> Bool {
        AppUserIdCheck(appUserId).anonymousForm == .qonversion
    }

    /// `POST v1/user/init` for the customer's Qonversion user.
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try LiveProviderCore.checkUsable(appUserId)
        let userId = try await qonversionUserId(for: appUserId)
        return try await launch(
            userId: userId, appUserId: appUserId, path: "v1/user/init", trigger: "ActualizePermissions", extra: [:])
    }

    /// `POST v2/identities` binding `newAppUserId` to the current Qonversion user (an anonymous current id)
    /// or to a fresh one; Qonversion answers with the user the identity belongs to. `created` is whether
    /// that is the user offered (the identity was new), not one that already had it.
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try LiveProviderCore.checkUsable(currentAppUserId)
        try LiveProviderCore.checkUsable(newAppUserId)
        let offered = isAnonymous(currentAppUserId) ? currentAppUserId : makeAnonymousAppUserId()
        let userId = try await identify(newAppUserId, offering: offered)
        let snapshot = try await launch(
            userId: userId, appUserId: newAppUserId, path: "v1/user/init", trigger: "Identify", extra: [:])
        return LogInResult(snapshot: snapshot, created: userId == offered)
    }

    /// A restore: the App Store receipt through `v1/user/init` (as the iOS SDK does); any other store's
    /// token through `v1/user/restore` (as the Android SDK does).
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try LiveProviderCore.checkUsable(appUserId)
        let userId = try await qonversionUserId(for: appUserId)
        if Self.isAppleStore(receipt.store) {
            return try await launch(
                userId: userId, appUserId: appUserId, path: "v1/user/init", trigger: "Restore",
                extra: [Field.receipt: .string(receipt.token)])
        }
        return try await launch(
            userId: userId, appUserId: appUserId, path: "v1/user/restore", trigger: "Restore",
            extra: [Field.history: .array([.object([Field.purchaseToken: .string(receipt.token)])])])
    }

    /// `POST v1/user/purchase` with the product bought and its receipt or purchase token.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try LiveProviderCore.checkUsable(appUserId)
        let userId = try await qonversionUserId(for: appUserId)
        var extra: [String: JSONValue] = [:]
        var details: [String: JSONValue] = [Field.product: .string(purchase.productId)]
        if Self.isAppleStore(purchase.receipt.store) {
            extra[Field.receipt] = .string(purchase.receipt.token)
        } else {
            details[Field.purchaseToken] = .string(purchase.receipt.token)
        }
        extra[Field.purchase] = .object(details)
        return try await launch(
            userId: userId, appUserId: appUserId, path: "v1/user/purchase", trigger: "Purchase", extra: extra)
    }

    private static func isAppleStore(_ store: Store) -> Bool {
        store == .appStore || store == .macAppStore
    }

    /// The Qonversion user of `appUserId`: itself when anonymous, else remembered or asked for.
    private func qonversionUserId(for appUserId: String) async throws(EntitlementClientError) -> String {
        if isAnonymous(appUserId) { return appUserId }
        if let known = await identities.userId(for: appUserId) { return known }
        return try await identify(appUserId, offering: makeAnonymousAppUserId())
    }

    /// `POST v2/identities {anon_id, identity_id}` → `data.anon_id`, the user the identity belongs to.
    private func identify(_ identity: String, offering userId: String) async throws(EntitlementClientError)
        -> String
    {
        let operation = "POST /v2/identities"
        let body = JSONValue.object([Field.anonId: .string(userId), Field.identityId: .string(identity)])
        let response = try await send(path: "v2/identities", body: body, trigger: "Identify", operation: operation)
        guard response.isSuccess else { throw QonversionErrorBody.error(for: response, operation: operation) }
        let bound: String
        do throws(DocumentError) {
            let anonId = try JSONNode(parsing: response.body).required(Field.data).required(Field.anonId)
            bound = try anonId.string()
            guard !bound.isEmpty else { throw anonId.invalid("is empty: not a Qonversion user id") }
        } catch {
            throw HTTPFailureMapping.refusedBody(error, response: response, operation: operation)
        }
        await identities.record(bound, for: identity)
        return bound
    }

    /// A v1 user call whose answer is a launch result, read by the adapter.
    private func launch(
        userId: String, appUserId: String, path: String, trigger: String, extra: [String: JSONValue]
    ) async throws(EntitlementClientError) -> EntitlementSnapshot {
        let operation = "POST /" + path
        var fields = extra
        fields[Field.accessToken] = .string(configuration.projectKey.secretValue)
        fields[Field.qUid] = .string(userId)
        fields[Field.clientUid] = .string(userId)
        fields[Field.debugMode] = .bool(configuration.sandbox)
        let response = try await send(path: path, body: .object(fields), trigger: trigger, operation: operation)
        return try core.snapshot(from: response, operation: operation, vendorError: QonversionErrorBody.error) {
            body, instant throws(DocumentError) in
            var snapshot = try adapter.snapshot(from: body, at: instant)
            snapshot.appUserId = appUserId
            return snapshot
        }
    }

    private func send(path: String, body: JSONValue, trigger: String, operation: String)
        async throws(EntitlementClientError) -> HTTPResponse
    {
        let key = (configuration.sandbox ? "test_" : "") + configuration.projectKey.secretValue
        var headers: [(name: String, value: String)] = [("Trigger", trigger)]
        if let platform = configuration.platform { headers.append(("Platform", platform)) }
        return try await core.send(
            "POST", path: path, authorization: "Bearer " + key, headers: headers, body: body,
            contentType: "application/json; charset=utf-8", secrets: [configuration.projectKey.secretValue],
            operation: operation)
    }
}

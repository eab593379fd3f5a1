import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// RevenueCat's REST API v1 as an ``EntitlementKit/EntitlementProvider``: the customer's snapshot
/// (`GET /v1/subscribers/{id}`), logIn (`POST /v1/subscribers/identify`), restores, syncs and purchases
/// (`POST /v1/receipts`). Every body goes through ``RevenueCatAdapter``, the same decoding path as files.
///
/// ```swift
/// let provider = try RevenueCatProvider(configuration: .init(apiKey: "appl_…"))
/// let snapshot = try await provider.snapshot(for: "alice")
/// ```
///
/// App user ids are checked before any request (``EntitlementKit/AppUserIdCheck/backendRefusal`` →
/// `invalidAppUserId`) and sent as one percent-encoded path segment. Errors carry the client's codes; see
/// the *Connecting a backend* article.
public struct RevenueCatProvider: EntitlementProvider {
    /// The configuration (its description never shows the key).
    public let configuration: Configuration
    private let core: LiveProviderCore
    private let adapter = RevenueCatAdapter()

    /// RevenueCat's anonymous id prefix.
    public static let anonymousPrefix = "$RCAnonymousID:"

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

    /// `revenuecat`.
    public var provider: ProviderID { .revenueCat }

    /// The provider's raw value and a digest of the key (`<provider>-` + 16 hex digits): two projects
    /// sharing a cache directory never share an id or an answer.
    public var storageNamespace: String { configuration.live.storageNamespace(for: provider) }

    /// `$RCAnonymousID:` + 32 lowercase hex digits.
    public func makeAnonymousAppUserId() -> String {
        core.makeAnonymousId(prefix: Self.anonymousPrefix)
    }

    /// Whether `appUserId` is `$RCAnonymousID:` + 32 lowercase hex digits.
    public func isAnonymous(_ appUserId: String) -> Bool {
        AppUserIdCheck(appUserId).anonymousForm == .revenueCat
    }

    /// `GET /v1/subscribers/{id}`.
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try LiveProviderCore.checkUsable(appUserId)
        let operation = "GET /v1/subscribers/{id}"
        let response = try await send(
            "GET", path: "v1/subscribers/" + PathSegment.encode(appUserId), body: nil, platform: configuration.platform,
            operation: operation)
        return try decode(response, for: appUserId, operation: operation)
    }

    /// `POST /v1/subscribers/identify`; `created` is RevenueCat's `201 Created` (a `200` means the
    /// customer existed).
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try LiveProviderCore.checkUsable(currentAppUserId)
        try LiveProviderCore.checkUsable(newAppUserId)
        let operation = "POST /v1/subscribers/identify"
        let body = JSONValue.object([
            Field.appUserId: .string(currentAppUserId), Field.newAppUserId: .string(newAppUserId),
        ])
        let response = try await send(
            "POST", path: "v1/subscribers/identify", body: body, platform: configuration.platform, operation: operation)
        let snapshot = try decode(response, for: newAppUserId, operation: operation)
        return LogInResult(snapshot: snapshot, created: response.status == 201)
    }

    /// `POST /v1/receipts` with `is_restore: true`.
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await postReceipt(receipt, productId: nil, isRestore: true, for: appUserId)
    }

    /// `POST /v1/receipts` with the product bought.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await postReceipt(purchase.receipt, productId: purchase.productId, isRestore: false, for: appUserId)
    }

    private func postReceipt(_ receipt: StoreReceipt, productId: String?, isRestore: Bool, for appUserId: String)
        async throws(EntitlementClientError) -> EntitlementSnapshot
    {
        try LiveProviderCore.checkUsable(appUserId)
        let operation = "POST /v1/receipts"
        var fields: [String: JSONValue] = [
            Field.fetchToken: .string(receipt.token), Field.appUserId: .string(appUserId),
            Field.isRestore: .bool(isRestore),
        ]
        if let productId {
            // The iOS SDK names one App Store product; Android sends Play products as a list.
            if receipt.store == .appStore || receipt.store == .macAppStore {
                fields[Field.productId] = .string(productId)
            } else {
                fields[Field.productIds] = .array([.string(productId)])
            }
        }
        let response = try await send(
            "POST", path: "v1/receipts", body: .object(fields),
            platform: Self.platform(of: receipt.store) ?? configuration.platform, operation: operation)
        return try decode(response, for: appUserId, operation: operation)
    }

    /// The `X-Platform` RevenueCat reads a receipt's store from.
    private static func platform(of store: Store) -> String? {
        switch store {
        case .appStore: "iOS"
        case .macAppStore: "macOS"
        case .playStore: "android"
        case .amazon: "amazon"
        default: nil
        }
    }

    /// RevenueCat's `X-RevenueCat-Request-Time` header (milliseconds since the epoch), which its SDKs
    /// prefer to the body's `request_date`: it is the time of this answer even when the body was cached
    /// on the way. Unreadable or out-of-range values are ignored.
    private static func requestTime(_ response: HTTPResponse) -> Date? {
        guard let text = response.headers["x-revenuecat-request-time"], let milliseconds = Int64(text),
            milliseconds > 0
        else { return nil }
        return EpochTime.date(millisecondsSince1970: milliseconds)
    }

    private func send(
        _ method: String, path: String, body: JSONValue?, platform: String?, operation: String
    ) async throws(EntitlementClientError) -> HTTPResponse {
        let key = configuration.apiKey.secretValue
        return try await core.send(
            method, path: path, authorization: "Bearer " + key,
            headers: platform.map { [("X-Platform", $0)] } ?? [], body: body, secrets: [key], operation: operation,
            unformableURLCode: .invalidAppUserId)
    }

    private func decode(_ response: HTTPResponse, for appUserId: String, operation: String)
        throws(EntitlementClientError) -> EntitlementSnapshot
    {
        try core.snapshot(from: response, operation: operation, vendorError: RevenueCatErrorBody.error) {
            body, instant throws(DocumentError) in
            var snapshot = try adapter.snapshot(from: body, at: instant)
            snapshot.appUserId = appUserId
            if let serverTime = Self.requestTime(response) { snapshot.requestDate = serverTime }
            return snapshot
        }
    }
}

import EntitlementKit
import Foundation

/// StoreKit 2 on the device as an ``EntitlementProvider``: for an app with no vendor and no server, the
/// signed transactions StoreKit holds, verified and mapped with a catalog, answer `checkEntitlements`.
///
/// ```swift
/// let provider = AppStoreOnDeviceProvider(
///     source: StoreKitTransactionSource(),
///     catalog: EntitlementCatalog(products: ["com.acme.pro.monthly": .init(entitlementIds: ["pro"])]),
///     bundleId: "com.acme.app")
/// let client = try await EntitlementClient(provider: provider, cache: cache)
/// ```
///
/// - A snapshot is ``AppStoreAdapter``'s mapping of the source's JWS (a JSON array of them) with the
///   catalog, every JWS verified: chained to a configured root (Apple Root CA - G3 by default), its
///   `bundleId` the configured one. StoreKit test data (`Xcode`, `LocalTesting`) only when allowed, then
///   `notRequested`. One JWS that does not verify refuses the whole answer (`badResponse`): the client
///   keeps its cached answer, and a forged transaction never grants access.
/// - Identity: purchases belong to the device's Apple account, not to an app user id. By default
///   (``IdentityMode/device``) every app user id on the device sees them; ``logIn(from:to:)`` and a logOut
///   only change the id the client keeps (anonymous ids are lower-case UUIDs). With
///   ``IdentityMode/byAppAccountToken`` a transaction counts for an app user only when its
///   `appAccountToken` is that user's.
/// - ``syncPurchases(_:for:)`` calls the source's `sync()` (a restore); ``reportPurchase(_:for:)`` takes the
///   purchase's JWS (`StoreReceipt(store: .appStore, token: jws)`), verifies it and answers a snapshot that
///   includes it.
/// - The store's pushes (``SignedTransactionSource/transactionUpdates()``) are the provider's change signals:
///   the client refetches, so its update streams show a renewal or refund as it happens.
/// - Time: each answer's `requestDate` is its newest `signedDate`; the client's trusted instant rises to it
///   only when the answer is `verified`.
public actor AppStoreOnDeviceProvider: EntitlementProvider {
    /// Which app users see a transaction.
    public enum IdentityMode: Sendable, Hashable {
        /// Every app user id on the device sees every transaction of the device's Apple account.
        case device
        /// A transaction counts for an app user only when its `appAccountToken` (set by the app at purchase)
        /// is that user's: the app user id itself when it is a UUID (in any case), else the token registered
        /// for it with ``AppStoreOnDeviceProvider/register(appAccountToken:for:)``.
        case byAppAccountToken
    }

    /// Where the JWS come from.
    public nonisolated let source: any SignedTransactionSource
    /// Which app users see a transaction.
    public nonisolated let identity: IdentityMode
    private nonisolated let adapter: AppStoreAdapter
    private nonisolated let deviceClock: any WallClock
    /// The tokens registered for app user ids that are not UUIDs, by the id's bytes.
    private var registeredTokens: [[UInt8]: UUID] = [:]

    /// A provider over `source`.
    ///
    /// - Parameters:
    ///   - catalog: which products unlock which entitlements (without one, each product is its own).
    ///   - rootCertificates: the DER roots a JWS must chain to; `nil` is Apple Root CA - G3 (another root is
    ///     for test chains).
    ///   - bundleId: the app's bundle id, which every transaction must carry (`nil`: not checked).
    ///   - allowsUnverifiedTestData: read StoreKit test data (`Xcode`, `LocalTesting` environments),
    ///     unverified, so an app runs with a StoreKit configuration file; never in a release build.
    ///   - identity: which app users see a transaction.
    ///   - deviceClock: the instant answers are evaluated at (the client evaluates them again at its trusted
    ///     instant).
    public init(
        source: any SignedTransactionSource, catalog: EntitlementCatalog = .identity,
        rootCertificates: [Data]? = nil, bundleId: String? = nil, allowsUnverifiedTestData: Bool = false,
        identity: IdentityMode = .device, deviceClock: any WallClock = SystemClock()
    ) {
        self.source = source
        self.identity = identity
        self.deviceClock = deviceClock
        var adapter = AppStoreAdapter(
            catalog: catalog, allowsUnverifiedTestData: allowsUnverifiedTestData, bundleId: bundleId,
            rootCertificates: rootCertificates)
        // Each transaction's JWS is verified once, not at every check.
        adapter.signatures = VerifiedJWSMemo(base: adapter.signatures)
        self.adapter = adapter
    }

    /// Registers the `appAccountToken` the app sets on purchases made by `appUserId` (an id that is not a
    /// UUID), for ``IdentityMode/byAppAccountToken``.
    public func register(appAccountToken: UUID, for appUserId: String) {
        registeredTokens[Array(appUserId.utf8)] = appAccountToken
    }

    // MARK: EntitlementProvider

    /// `appstore`.
    public nonisolated var provider: ProviderID { .appStore }

    /// A new lower-case UUID: what the app passes as `appAccountToken` when it buys for an anonymous user.
    public nonisolated func makeAnonymousAppUserId() -> String {
        UUID().uuidString.lowercased()
    }

    /// Whether `appUserId` is a lower-case UUID.
    public nonisolated func isAnonymous(_ appUserId: String) -> Bool {
        LowercaseUUID.matches(appUserId)
    }

    /// The verified mapping of the source's current entitlements, as `appUserId` sees them.
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await map(source.currentEntitlements(), for: appUserId)
    }

    /// No backend decides aliasing: the device's transactions stay where they are, and the answer is what
    /// `newAppUserId` sees (`created` is always `false`).
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        LogInResult(snapshot: try await snapshot(for: newAppUserId), created: false)
    }

    /// A restore: the source's `sync()`, then the new snapshot. `receipt` is not read (StoreKit holds what
    /// the device's account owns).
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await source.sync()
        return try await snapshot(for: appUserId)
    }

    /// The purchase's JWS (`purchase.receipt.token`, an App Store receipt), verified, with the source's
    /// current entitlements: the answer includes the purchase even before StoreKit lists it.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        guard purchase.receipt.store == .appStore else {
            throw EntitlementClientError(
                .badResponse, "a purchase from \(purchase.receipt.store.rawValue) is not an App Store transaction")
        }
        let jws = purchase.receipt.token
        _ = try map([jws], for: nil)  // verified on its own, whomever it counts for
        var all = try await source.currentEntitlements()
        if !all.contains(jws) { all.append(jws) }
        return try map(all, for: appUserId)
    }

    /// One "something changed" signal per JWS the source delivers.
    public nonisolated func makeChangeSignals() -> AsyncStream<Void>? {
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let updates = source.transactionUpdates()
        let relay = Task {
            for await _ in updates { continuation.yield() }
            continuation.finish()
        }
        continuation.onTermination = { _ in relay.cancel() }
        return signals
    }

    // MARK: Mapping

    /// The adapter's snapshot of `jwsList` (kept for `appUserId` by the identity mode; `nil`: all), answered
    /// as `appUserId`'s.
    private func map(_ jwsList: [String], for appUserId: String?) throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        let counted = appUserId.map { kept(jwsList, for: $0) } ?? jwsList
        let document = Data(JSONValue.array(counted.map(JSONValue.string)).compactText.utf8)
        var snapshot: EntitlementSnapshot
        do {
            snapshot = try adapter.snapshot(from: document, at: deviceClock.now())
        } catch {
            throw EntitlementClientError(
                .badResponse, "the store's transactions were refused: \(error)", documentError: error)
        }
        snapshot.appUserId = appUserId
        return snapshot
    }

    /// The JWS that count for `appUserId`: all of them by default; by app account token, the transactions
    /// carrying the user's token and their subscriptions' renewal infos. A JWS whose payload does not read
    /// is kept, so the adapter refuses it.
    private func kept(_ jwsList: [String], for appUserId: String) -> [String] {
        guard identity == .byAppAccountToken else { return jwsList }
        let token = UUID(uuidString: appUserId) ?? registeredTokens[Array(appUserId.utf8)]
        let payloads = jwsList.map(Self.payload(of:))
        var chains: Set<String> = []
        var kept: [String] = []
        for (jws, payload) in zip(jwsList, payloads) {
            guard let payload else {
                kept.append(jws)
                continue
            }
            guard payload[Field.transactionId] != nil || payload[Field.type] != nil else { continue }  // renewal info
            guard case .string(let text)? = payload[Field.appAccountToken], let token,
                UUID(uuidString: text) == token
            else { continue }
            kept.append(jws)
            if case .string(let chain)? = payload[Field.originalTransactionId] { chains.insert(chain) }
        }
        for (jws, payload) in zip(jwsList, payloads) {
            guard let payload, payload[Field.transactionId] == nil, payload[Field.type] == nil,
                case .string(let chain)? = payload[Field.originalTransactionId], chains.contains(chain)
            else { continue }
            kept.append(jws)
        }
        return kept
    }

    /// The members of a JWS's payload, unverified (only to tell whose it is; the adapter verifies).
    private static func payload(of jws: String) -> [String: JSONValue]? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(parts[1]),
            case .object(let members)? = try? JSONValue.parse(Data(bytes))
        else { return nil }
        return members
    }
}

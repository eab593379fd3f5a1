import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// Adapty's SDK backend as an ``EntitlementKit/EntitlementProvider``, over the endpoints its mobile SDKs
/// call, with the public SDK key as `Authorization: Api-Key`: the profile from
/// `GET /api/v1/sdk/analytics/profiles/{profile_id}/`, identify (logIn) and the first launch through the
/// create `POST` on the same path, restores and purchases through the App Store and Play validation
/// calls. Every profile goes through ``AdaptyAdapter``, the same decoding path as files.
///
/// An anonymous app user id is an Adapty profile id in the SDKs' form (a lower-case UUID). Any other id
/// is your `customer_user_id`; the provider learns the profile id behind it from the create `POST`, as
/// the SDK does (once per provider, then remembered). A snapshot's `appUserId` is always the id you asked
/// for, even when Adapty answered with a profile id other than the one offered.
///
/// Reads are conditional, as the SDKs' are: the last `x-response-hash` of each profile is sent back, and
/// an answer with that same hash is not decoded again (the snapshot decoded from the earlier answer is
/// served, judged at the provider's clock).
///
/// ```swift
/// let provider = try AdaptyProvider(configuration: .init(publicSDKKey: "public_live_…"))
/// let snapshot = try await provider.snapshot(for: "alice")
/// ```
public struct AdaptyProvider: EntitlementProvider {
    /// The configuration (its description never shows the key).
    public let configuration: Configuration
    private let core: LiveProviderCore
    private let directory = AdaptyProfileDirectory()
    private let hashes = AdaptyResponseHashes()
    private let adapter = AdaptyAdapter()

    /// The SDK backend's profile path below the base URL.
    private static let profilesPath = "api/v1/sdk/analytics/profiles/"
    private static let profileOperation = "/api/v1/sdk/analytics/profiles/{profile_id}/"

    /// Creates the provider. `randomNumberGenerator` draws anonymous ids, offered profile ids and retry
    /// jitter (the system's by default); `clock` is the instant snapshots are first evaluated at.
    public init(
        configuration: Configuration, logger: EntitlementLogger = .disabled, clock: any WallClock = SystemClock(),
        randomNumberGenerator: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
        self.configuration = configuration
        core = LiveProviderCore(
            configuration: configuration.live, logger: logger, clock: clock,
            randomNumberGenerator: randomNumberGenerator)
    }

    /// `adapty`.
    public var provider: ProviderID { .adapty }

    /// The provider's raw value and a digest of the key (`<provider>-` + 16 hex digits): two projects
    /// sharing a cache directory never share an id or an answer.
    public var storageNamespace: String { configuration.live.storageNamespace(for: provider) }

    /// A new profile id in the SDKs' form: a lower-case version-4 UUID. Its first read creates the profile
    /// (`POST`), as the SDK's first launch and logout do.
    public func makeAnonymousAppUserId() -> String {
        let profileId = newProfileId()
        directory.madeHere(profileId)
        return profileId
    }

    /// Whether `appUserId` is a lower-case UUID, the form of the profile ids Adapty's SDKs make.
    public func isAnonymous(_ appUserId: String) -> Bool {
        AdaptyProfileId.isAnonymousForm(appUserId)
    }

    /// The customer's profile: `GET …/profiles/{profile_id}/` (conditional on the last response hash).
    /// An anonymous id this provider made, or one Adapty answers 404 for, is created first (`POST`); a
    /// customer user id not yet seen is identified (`POST` with `customer_user_id`).
    public func snapshot(for appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await validatedSnapshot(for: appUserId).snapshot
    }

    /// ``snapshot(for:)``, conditional on `cached`'s validator when this provider has no response hash of
    /// its own for the profile yet (after a relaunch, the client's cache entry keeps it): an unchanged
    /// profile is `cached`'s snapshot, not decoded again. The validator answered is the profile id and
    /// its response hash; one for another profile than the one read is not used.
    public func snapshot(for appUserId: String, revalidating cached: ValidatedSnapshot?)
        async throws(EntitlementClientError) -> ValidatedSnapshot
    {
        try LiveProviderCore.checkUsable(appUserId)
        let customer = isAnonymous(appUserId) ? nil : appUserId
        if let cached, let validator = cached.validator.flatMap(AdaptyValidator.init(text:)),
            validator.profileId.utf8.elementsEqual(
                (customer.map(directory.profileId(forCustomer:)) ?? appUserId)?.utf8 ?? "".utf8),
            cached.snapshot.appUserId?.utf8.elementsEqual(appUserId.utf8) == true,
            await hashes.entry(for: validator.profileId) == nil
        {
            await hashes.remember(validator.hash, cached.snapshot, customer: customer, for: validator.profileId)
        }
        return try await validatedSnapshot(for: appUserId)
    }

    /// The customer's snapshot with the validator of the answer it came from.
    private func validatedSnapshot(for appUserId: String) async throws(EntitlementClientError) -> ValidatedSnapshot {
        try LiveProviderCore.checkUsable(appUserId)
        if isAnonymous(appUserId) {
            if !directory.isNotYetCreated(appUserId),
                let answer = try await read(profileId: appUserId, appUserId: appUserId, customer: nil)
            {
                return answer
            }
            return try await create(profileId: appUserId, customer: nil, appUserId: appUserId).answer
        }
        if let profileId = directory.profileId(forCustomer: appUserId),
            let answer = try await read(profileId: profileId, appUserId: appUserId, customer: appUserId)
        {
            return answer
        }
        return try await create(profileId: newProfileId(), customer: appUserId, appUserId: appUserId).answer
    }

    /// Identify, as Adapty's SDK does it: the create `POST` with `customer_user_id`, for the current
    /// profile when it is anonymous (an anonymous customer signing up keeps its purchases) or for a new
    /// profile id otherwise (an identified customer's profile is never handed to another). Adapty answers
    /// with the profile that holds the id — the one offered, or an existing one; `created` is whether it
    /// is the one offered.
    public func logIn(from currentAppUserId: String, to newAppUserId: String) async throws(EntitlementClientError)
        -> LogInResult
    {
        try LiveProviderCore.checkUsable(currentAppUserId)
        try LiveProviderCore.checkUsable(newAppUserId)
        let offered = isAnonymous(currentAppUserId) ? currentAppUserId : newProfileId()
        let (answer, profileId) = try await create(
            profileId: offered, customer: newAppUserId, appUserId: newAppUserId)
        return LogInResult(snapshot: answer.snapshot, created: profileId.utf8.elementsEqual(offered.utf8))
    }

    /// A restore: an App Store original transaction id (all digits) through
    /// `POST …/purchase/app-store/original-transaction-id/validate/` (`request_source: restore`), any other
    /// App Store token as a receipt through `POST …/in-apps/apple/receipt/validate/`, a Play purchase token
    /// through `POST …/purchase/play-store/token/v2/restore/`.
    public func syncPurchases(_ receipt: StoreReceipt, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await validate(receipt, productId: nil, for: appUserId)
    }

    /// A purchase just made: the App Store calls as for a restore (`request_source: purchasing`), a Play
    /// purchase token with its product through `POST …/purchase/play-store/token/v2/validate/`.
    public func reportPurchase(_ purchase: StorePurchase, for appUserId: String) async throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try await validate(purchase.receipt, productId: purchase.productId, for: appUserId)
    }

    private func newProfileId() -> String {
        AdaptyProfileId.make(fromHex: core.makeAnonymousId(prefix: ""))
    }

    private func validate(_ receipt: StoreReceipt, productId: String?, for appUserId: String)
        async throws(EntitlementClientError) -> EntitlementSnapshot
    {
        try LiveProviderCore.checkUsable(appUserId)
        let customer = isAnonymous(appUserId) ? nil : appUserId
        // Checked before any request: Adapty's SDK backend validates App Store and Play purchases only.
        guard AdaptyStoreRequest.isValidated(receipt.store) else {
            throw EntitlementClientError(
                .badResponse,
                "Adapty's SDK backend validates App Store and Google Play purchases only, not store \(receipt.store.rawValue)"
            )
        }
        var profileId = try await existingProfileId(for: appUserId, customer: customer)
        for attempt in 1...2 {
            guard let request = AdaptyStoreRequest(receipt, productId: productId, profileId: profileId) else { break }
            let response = try await send(
                "POST", path: request.path, body: request.body, profileId: profileId, operation: request.operation)
            if response.status == 404, attempt == 1 {
                // Adapty does not know the profile (made offline, or removed since it was identified):
                // create or identify it, as a read would, and validate once more.
                profileId = try await recreatedProfileId(for: appUserId, customer: customer)
                continue
            }
            return try await accept(
                response, operation: request.operation, appUserId: appUserId, expectedProfile: profileId,
                customer: customer)
        }
        throw EntitlementClientError(.badResponse, "unreachable: the store was accepted above")
    }

    /// After a 404: the anonymous profile created, or the customer identified afresh.
    private func recreatedProfileId(for appUserId: String, customer: String?) async throws(EntitlementClientError)
        -> String
    {
        guard let customer else {
            await hashes.forget(appUserId)
            return try await create(profileId: appUserId, customer: nil, appUserId: appUserId).profileId
        }
        directory.forget(customer: customer)
        return try await create(profileId: newProfileId(), customer: customer, appUserId: customer).profileId
    }

    /// The profile id a validation names: an anonymous id itself (created first when Adapty has not been
    /// told about it), a known customer's profile, or the one an identify answers with.
    private func existingProfileId(for appUserId: String, customer: String?) async throws(EntitlementClientError)
        -> String
    {
        guard let customer else {
            if directory.isNotYetCreated(appUserId) {
                _ = try await create(profileId: appUserId, customer: nil, appUserId: appUserId)
            }
            return appUserId
        }
        if let known = directory.profileId(forCustomer: customer) { return known }
        return try await create(profileId: newProfileId(), customer: customer, appUserId: customer).profileId
    }

    /// `GET …/profiles/{profile_id}/`; `nil` when Adapty does not know the profile (404).
    private func read(profileId: String, appUserId: String, customer: String?) async throws(EntitlementClientError)
        -> ValidatedSnapshot?
    {
        let operation = "GET " + Self.profileOperation
        let remembered = await hashes.entry(for: profileId)
        let response = try await send(
            "GET", path: Self.profilesPath + PathSegment.encode(profileId) + "/", body: nil, profileId: profileId,
            previousHash: remembered?.hash, operation: operation)
        if response.status == 404 {
            await hashes.forget(profileId)
            if let customer { directory.forget(customer: customer) }
            return nil
        }
        if response.isSuccess, let remembered, remembered.isFor(customer: customer),
            AdaptyResponseHashes.usableHash(response.headers["x-response-hash"]) == remembered.hash
        {
            // Unchanged since the answer that was decoded: the body is not read (Adapty's SDKs do not decode
            // it either). Only an entry that passed every check below is ever remembered.
            var snapshot = remembered.snapshot.evaluated(at: core.clock.now())
            snapshot.appUserId = appUserId
            return ValidatedSnapshot(
                snapshot: snapshot, validator: AdaptyValidator(profileId: profileId, hash: remembered.hash).text)
        }
        return try await decode(
            response, operation: operation, appUserId: appUserId, expectedProfile: profileId, customer: customer
        ).answer
    }

    /// The create `POST` for `profileId`, with `customer_user_id` when identifying. Returns the snapshot
    /// and the profile id Adapty answered with (another one when the customer already had a profile).
    private func create(profileId: String, customer: String?, appUserId: String)
        async throws(EntitlementClientError) -> (answer: ValidatedSnapshot, profileId: String)
    {
        let operation = "POST " + Self.profileOperation
        var attributes: [String: JSONValue] = [:]
        if let customer { attributes[Field.customerUserId] = .string(customer) }
        let body = JSONValue.object([
            Field.data: .object([
                Field.type: .string("adapty_analytics_profile"), Field.id: .string(profileId),
                Field.attributes: .object(attributes),
            ])
        ])
        let response = try await send(
            "POST", path: Self.profilesPath + PathSegment.encode(profileId) + "/", body: body, profileId: profileId,
            operation: operation)
        // Identifying may switch profiles; creating an anonymous profile may not.
        let (answer, answered) = try await decode(
            response, operation: operation, appUserId: appUserId,
            expectedProfile: customer == nil ? profileId : nil, customer: customer)
        directory.created(profileId)
        if let customer { directory.record(answered, forCustomer: customer) }
        return (answer, answered)
    }

    /// A profile answer that must be `expectedProfile`'s.
    private func accept(
        _ response: HTTPResponse, operation: String, appUserId: String, expectedProfile: String, customer: String?
    ) async throws(EntitlementClientError) -> EntitlementSnapshot {
        try await decode(
            response, operation: operation, appUserId: appUserId, expectedProfile: expectedProfile, customer: customer
        ).answer.snapshot
    }

    /// Decodes a profile answer, checks whose it is, and remembers its response hash. Fails closed: an
    /// answer for another profile than the one asked for, or naming another customer than the one asked
    /// for (or none when one was asked for), is `badResponse`, and the profile's remembered hash is dropped.
    private func decode(
        _ response: HTTPResponse, operation: String, appUserId: String, expectedProfile: String?, customer: String?
    ) async throws(EntitlementClientError) -> (answer: ValidatedSnapshot, profileId: String) {
        if let expectedProfile { await hashes.forget(expectedProfile) }
        var answeredProfile = ""
        let snapshot = try core.snapshot(from: response, operation: operation, vendorError: AdaptyErrorBody.error) {
            body, instant throws(DocumentError) in
            let document = try JSONNode(parsing: body)
            var snapshot = try adapter.snapshot(from: document, at: instant)
            let identity = try AdaptyReplyIdentity(document)
            try identity.check(expectedProfile: expectedProfile, customer: customer)
            answeredProfile = identity.profileId
            snapshot.appUserId = appUserId
            return snapshot
        }
        guard let hash = AdaptyResponseHashes.usableHash(response.headers["x-response-hash"]) else {
            await hashes.forget(answeredProfile)
            return (ValidatedSnapshot(snapshot: snapshot), answeredProfile)
        }
        await hashes.remember(hash, snapshot, customer: customer, for: answeredProfile)
        return (
            ValidatedSnapshot(
                snapshot: snapshot, validator: AdaptyValidator(profileId: answeredProfile, hash: hash).text),
            answeredProfile
        )
    }

    private func send(
        _ method: String, path: String, body: JSONValue?, profileId: String, previousHash: String? = nil,
        operation: String
    ) async throws(EntitlementClientError) -> HTTPResponse {
        let key = configuration.publicSDKKey.secretValue
        var headers: [(name: String, value: String)] = [("adapty-sdk-profile-id", profileId)]
        if let platform = configuration.platform { headers.append(("adapty-sdk-platform", platform)) }
        if let previousHash { headers.append(("adapty-sdk-previous-response-hash", previousHash)) }
        return try await core.send(
            method, path: path, authorization: "Api-Key " + key, headers: headers, body: body,
            contentType: "application/vnd.api+json", secrets: [key], operation: operation)
    }
}

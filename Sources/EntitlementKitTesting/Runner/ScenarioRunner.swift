import EntitlementKit
import EntitlementKitAppStore
import Foundation

/// Runs a ``Scenario`` through the real `EntitlementClient`, the real adapter and a fresh
/// ``SimulatedBackend``, device by device, and checks every step's expectations.
///
/// With `.appStore` there is no backend: each device runs `AppStoreOnDeviceProvider` over the simulated
/// App Store (``SimulatedTransactionSource``), every transaction a JWS signed with the test chain and
/// verified against the test root, the scenario's products as the catalog. The stories that need a server
/// do not apply there: aliases, transfers and restore behaviours (`logIn`'s `created`, `lookup`), Play's
/// transfer at configure, and RevenueCat's refund rule (Apple's revoked transaction grants nothing at once,
/// and StoreKit stops listing a lapsed or refunded one, so its dates are not in the answer). Store changes
/// are not pushed during a run (a push is answered in the background, so `updates` counts would depend on
/// timing).
///
/// Each device has persistent storage (one `InMemoryEntitlementCache` kept across relaunches and
/// replaced by `reinstall`), a wall clock reading true time plus the device's offset, and a monotonic
/// clock measuring true time since that client's `configure`.
///
/// ```swift
/// let scenario = try Scenario(contentsOf: url)
/// for provider in ProviderID.backends {
///     let report = await ScenarioRunner.run(scenario, provider: provider, file: url.lastPathComponent)
///     #expect(report.passed, "\(report)")
/// }
/// ```
public enum ScenarioRunner {
    /// Runs `scenario` against a simulated `provider` backend (`.revenueCat`, `.qonversion`, `.adapty`) or
    /// the simulated App Store on the device (`.appStore`); `file` names the story in failure lines.
    public static func run(_ scenario: Scenario, provider: ProviderID, file: String = "scenario") async
        -> ScenarioReport
    {
        let store = SimulatedStore(products: Array(scenario.products.values), start: scenario.start)
        let backend = SimulatedBackend(flavour: provider, store: store, restoreBehavior: scenario.restoreBehavior)
        var run = ScenarioRun(scenario: scenario, flavour: provider, file: file, store: store, server: backend)
        for step in scenario.steps {
            await run.perform(step)
        }
        return ScenarioReport(file: file, provider: provider, stepCount: scenario.steps.count, failures: run.failures)
    }

    /// Runs `scenario` against the server `makeServer` builds over the run's simulated store (see
    /// ``ScenarioServer``); `file` names the story in failure lines.
    public static func run(
        _ scenario: Scenario, file: String = "scenario",
        server makeServer: (SimulatedStore) async throws -> any ScenarioServer
    ) async rethrows -> ScenarioReport {
        let store = SimulatedStore(products: Array(scenario.products.values), start: scenario.start)
        let server = try await makeServer(store)
        var run = ScenarioRun(scenario: scenario, flavour: server.flavour, file: file, store: store, server: server)
        for step in scenario.steps {
            await run.perform(step)
        }
        return ScenarioReport(
            file: file, provider: server.flavour, stepCount: scenario.steps.count, failures: run.failures)
    }

    /// Reads the scenario file at `url` and runs it against each of `providers`.
    public static func run(contentsOf url: URL, providers: [ProviderID] = ProviderID.backends)
        async throws(ScenarioFileError) -> [ScenarioReport]
    {
        let scenario = try Scenario(contentsOf: url)
        var reports: [ScenarioReport] = []
        for provider in providers {
            reports.append(await run(scenario, provider: provider, file: url.lastPathComponent))
        }
        return reports
    }
}

/// One device during a run.
private struct ScenarioDevice {
    var cache = InMemoryEntitlementCache()
    var client: EntitlementClient?
    /// Why the last configure produced no client.
    var configureError: EntitlementClientError?
    var clock: ControllableClock?
    var storeAccount = ""
    var store = Store.appStore
    var offset = ISODuration()
    /// The device's StoreKit (App Store runs only).
    var transactions: SimulatedTransactionSource?
    var isOnline = true

    var receipt: StoreReceipt { StoreReceipt(store: store, token: storeAccount) }
}

/// What a step answered, for the expectations.
private struct StepAnswer {
    var snapshot: EntitlementSnapshot?
    var source: String?
    var error: EntitlementClientError.Code?
    var created: Bool?
    var appUserId: String?
    var isAnonymous: Bool?
    var updates: Int?
    var aliases: [String]?
}

/// The state of one run: the server, the devices, the labels, the failures so far.
private struct ScenarioRun {
    let scenario: Scenario
    let flavour: ProviderID
    let file: String
    let store: SimulatedStore
    let server: any ScenarioServer
    /// The test chain the simulated App Store signs with (App Store runs only).
    let signer: AppStoreTestSigner?
    var trueTime: Date
    var devices: [String: ScenarioDevice] = [:]
    var labels: [String: String] = [:]
    var failures: [ScenarioFailure] = []

    init(scenario: Scenario, flavour: ProviderID, file: String, store: SimulatedStore, server: any ScenarioServer) {
        self.scenario = scenario
        self.flavour = flavour
        self.file = file
        trueTime = scenario.start
        self.store = store
        self.server = server
        signer = flavour == .appStore ? try? AppStoreTestSigner() : nil
    }

    private var isOnDevice: Bool { flavour == .appStore }

    /// The bundle id of the simulated app.
    private static let bundleId = "com.example.scenario"

    mutating func perform(_ step: ScenarioStep) async {
        let answer = await answer(to: step.action)
        guard let answer else { return }
        check(step, against: answer)
    }

    // MARK: Actions

    private mutating func answer(to action: ScenarioAction) async -> StepAnswer? {
        switch action {
        case .configure(let name, let appUserId, let storeAccount, let store, let label):
            return await configure(name, appUserId: appUserId, storeAccount: storeAccount, store: store, label: label)
        case .reinstall(let name):
            devices[name] = ScenarioDevice(offset: devices[name]?.offset ?? ISODuration())
            return StepAnswer(snapshot: nil, source: nil, error: nil, updates: 0)
        case .logIn(let name, let reference):
            let id = resolve(reference)
            return await clientOperation(name) { (client) throws(EntitlementClientError) in
                let result = try await client.logIn(id)
                return (result.snapshot, result.created)
            }
        case .logOut(let name, let label):
            guard let client = devices[name]?.client else { return await notRunning(name) }
            do {
                try await client.logOut()
            } catch {
                return await state(of: name, snapshot: nil, source: "cache", error: error.code)
            }
            if let label { labels[label] = await client.appUserId }
            return await state(of: name, snapshot: await client.cachedSnapshot(), source: "cache", error: nil)
        case .purchase(let name, let product) where isOnDevice:
            let transactions = devices[name]?.transactions
            return await clientOperation(name) { (client) throws(EntitlementClientError) in
                guard let transactions else { throw EntitlementClientError(.badResponse, "no App Store on the device") }
                let jws = try transactions.buy(product)
                let receipt = StoreReceipt(store: .appStore, token: jws)
                return (try await client.recordPurchase(StorePurchase(receipt: receipt, productId: product)), nil)
            }
        case .purchase(let name, let product):
            let receipt = devices[name]?.receipt ?? StoreReceipt(store: .appStore, token: "")
            return await clientOperation(name) { (client) throws(EntitlementClientError) in
                (try await client.recordPurchase(StorePurchase(receipt: receipt, productId: product)), nil)
            }
        case .restore(let name):
            let receipt = devices[name]?.receipt ?? StoreReceipt(store: .appStore, token: "")
            return await clientOperation(name) { (client) throws(EntitlementClientError) in
                (try await client.restorePurchases(receipt), nil)
            }
        case .syncPurchases(let name):
            let receipt = devices[name]?.receipt ?? StoreReceipt(store: .appStore, token: "")
            return await clientOperation(name) { (client) throws(EntitlementClientError) in
                (try await client.syncPurchases(receipt), nil)
            }
        case .check(let name, let policy):
            guard let client = devices[name]?.client else { return await notRunning(name) }
            let check = await client.checkEntitlements(policy)
            return await state(
                of: name, snapshot: check.snapshot, source: check.source.rawValue, error: check.error?.code)
        case .store(let storeAccount, let product, let event):
            store.storeEvent(event, storeAccount: storeAccount, productId: product)
            await server.storeChanged()
            return nil
        case .advance(let duration):
            let moved = duration.added(to: trueTime)
            if moved > trueTime { trueTime = moved }
            store.setTime(trueTime)
            for device in devices.values { device.clock?.advance(by: duration) }
            await server.storeChanged()
            return nil
        case .deviceClock(let name, let offset):
            devices[name]?.offset = offset
            devices[name]?.clock?.setOffset(offset)
            return await currentState(of: name)
        case .network(let name, let online):
            await server.setOnline(online, device: name)
            devices[name]?.isOnline = online
            devices[name]?.transactions?.isOnline = online
            return await currentState(of: name)
        case .lookup where isOnDevice:
            return StepAnswer(snapshot: nil, aliases: [])  // no server to ask
        case .lookup(let reference):
            let id = resolve(reference)
            do {
                let snapshot = try await server.lookup(id)
                return StepAnswer(snapshot: snapshot, aliases: await server.aliases(of: id))
            } catch {
                return StepAnswer(snapshot: nil, error: error.code, aliases: await server.aliases(of: id))
            }
        }
    }

    private mutating func configure(
        _ name: String, appUserId: AppUserIdReference?, storeAccount: String, store: Store, label: String?
    ) async -> StepAnswer {
        var device = devices[name] ?? ScenarioDevice()
        device.storeAccount = storeAccount
        device.store = store
        let clock = ControllableClock(start: trueTime, offset: device.offset)
        device.clock = clock
        let provider: any EntitlementProvider
        if isOnDevice {
            guard let signer else {
                device.client = nil
                device.configureError = EntitlementClientError(.badResponse, "the test chain could not be read")
                devices[name] = device
                return await notRunning(name)
            }
            let transactions = SimulatedTransactionSource(
                store: self.store, storeAccount: storeAccount, bundleId: Self.bundleId, signer: signer,
                deliversUpdates: false)
            transactions.isOnline = device.isOnline
            device.transactions = transactions
            provider = AppStoreOnDeviceProvider(
                source: transactions, catalog: catalog, rootCertificates: [signer.rootCertificate],
                bundleId: Self.bundleId, deviceClock: clock)
        } else {
            provider = await server.scenarioProvider(device: name)
        }
        do {
            device.client = try await EntitlementClient(
                provider: provider, cache: device.cache, appUserId: appUserId.map(resolve),
                freshFor: scenario.freshFor, deviceClock: clock, monotonicClock: clock)
            device.configureError = nil
        } catch {
            device.client = nil
            device.configureError = error
        }
        devices[name] = device
        guard let client = device.client else { return await notRunning(name) }
        if let label { labels[label] = await client.appUserId }
        if store == .playStore {
            // Google Play: the SDK posts the store's purchases at configure, so transfers happen here.
            do {
                let snapshot = try await client.syncPurchases(device.receipt)
                return await state(of: name, snapshot: snapshot, source: "network", error: nil)
            } catch {
                return await state(of: name, snapshot: nil, source: "network", error: error.code)
            }
        }
        return await state(of: name, snapshot: await client.cachedSnapshot(), source: "cache", error: nil)
    }

    /// Runs a backend operation of the device's client; a failure carries no snapshot.
    private func clientOperation(
        _ name: String,
        _ operation: (EntitlementClient) async throws(EntitlementClientError) -> (EntitlementSnapshot, Bool?)
    ) async -> StepAnswer {
        guard let client = devices[name]?.client else { return await notRunning(name) }
        // The source is where the answer came from: `network` when the client called the backend (even
        // when the call failed), `cache` when it answered on the device (logIn to the current id, an id
        // refused before any call).
        let callsBefore = await callCount(device: name)
        let result: Result<(EntitlementSnapshot, Bool?), EntitlementClientError>
        do {
            result = .success(try await operation(client))
        } catch {
            result = .failure(error)
        }
        let source = await callCount(device: name) > callsBefore ? "network" : "cache"
        switch result {
        case .success(let (snapshot, created)):
            var answer = await state(of: name, snapshot: snapshot, source: source, error: nil)
            answer.created = created
            return answer
        case .failure(let error):
            return await state(of: name, snapshot: nil, source: source, error: error.code)
        }
    }

    /// How many calls `name` made to its backend (or its StoreKit, on the device).
    private func callCount(device name: String) async -> Int {
        if isOnDevice { return devices[name]?.transactions?.callCount ?? 0 }
        return await server.callCount(device: name)
    }

    private var catalog: EntitlementCatalog { scenario.storeCatalog }

    private func currentState(of name: String) async -> StepAnswer {
        guard let client = devices[name]?.client else { return await notRunning(name) }
        return await state(of: name, snapshot: await client.cachedSnapshot(), source: "cache", error: nil)
    }

    private func state(
        of name: String, snapshot: EntitlementSnapshot?, source: String?, error: EntitlementClientError.Code?
    )
        async -> StepAnswer
    {
        let client = devices[name]?.client
        return StepAnswer(
            snapshot: snapshot, source: source, error: error, appUserId: await client?.appUserId,
            isAnonymous: await client?.isAnonymous, updates: await client?.updateCount ?? 0)
    }

    /// A device whose last configure failed (or that was reinstalled) answers with that error and
    /// no snapshot.
    private func notRunning(_ name: String) async -> StepAnswer {
        StepAnswer(snapshot: nil, source: nil, error: devices[name]?.configureError?.code, updates: 0)
    }

    private func resolve(_ reference: AppUserIdReference) -> String {
        switch reference {
        case .literal(let id): id
        case .label(let label): labels[label] ?? "@" + label
        }
    }

    // MARK: Expectations

    private mutating func check(_ step: ScenarioStep, against answer: StepAnswer) {
        let expected = step.expectations
        func compare(_ key: String, _ expectedValue: JSONValue, _ actualValue: JSONValue) {
            guard expectedValue != actualValue else { return }
            failures.append(
                ScenarioFailure(
                    file: file, provider: flavour, step: step.number, action: step.action.name, key: key,
                    expected: expectedValue, actual: actualValue))
        }
        let snapshot = answer.snapshot
        if let active = expected.active {
            compare("active", Self.sortedList(active), Self.sortedList(snapshot?.activeEntitlementIds ?? []))
        }
        for (id, state) in (expected.renewState ?? [:]).sorted(by: { $0.key < $1.key }) {
            let actual = snapshot?[id].map { JSONValue.string($0.renewState.canonicalRawValue) } ?? .string("absent")
            compare("renewState.\(id)", .string(state.rawValue), actual)
        }
        for (id, date) in (expected.expirationDate ?? [:]).sorted(by: { $0.key < $1.key }) {
            let actual = snapshot?[id].map { Self.date($0.expirationDate) } ?? .string("absent")
            compare("expirationDate.\(id)", Self.date(date), actual)
        }
        if let error = expected.error {
            compare(
                "error", error.map { .string($0.rawValue) } ?? .null, answer.error.map { .string($0.rawValue) } ?? .null
            )
        }
        if let source = expected.source {
            compare("source", .string(source), answer.source.map(JSONValue.string) ?? .null)
        }
        if let reference = expected.appUserId {
            compare("appUserId", .string(resolve(reference)), answer.appUserId.map(JSONValue.string) ?? .null)
        }
        if let isAnonymous = expected.isAnonymous {
            compare("isAnonymous", .bool(isAnonymous), answer.isAnonymous.map(JSONValue.bool) ?? .null)
        }
        if let created = expected.created {
            compare("created", .bool(created), answer.created.map(JSONValue.bool) ?? .null)
        }
        if let aliases = expected.aliases {
            compare("aliases", Self.sortedList(aliases.map(resolve)), Self.sortedList(answer.aliases ?? []))
        }
        if let updates = expected.updates {
            compare("updates", .integer(Int64(updates)), answer.updates.map { .integer(Int64($0)) } ?? .null)
        }
    }

    private static func sortedList(_ ids: some Sequence<String>) -> JSONValue {
        .array(Set(ids).sorted().map(JSONValue.string))
    }

    private static func date(_ date: Date?) -> JSONValue {
        date.map { .string(RFC3339.string(from: $0)) } ?? .null
    }
}

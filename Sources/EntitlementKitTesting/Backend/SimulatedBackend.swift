import EntitlementKit
import EntitlementKitAdapty
import EntitlementKitQonversion
import EntitlementKitRevenueCat
import Foundation

/// A deterministic in-memory subscription backend with RevenueCat's documented identity and restore
/// rules, answering in a real provider's wire format: RevenueCat (v1 subscriber JSON), Qonversion (v1
/// launch result) or Adapty (profile), by its ``flavour``.
///
/// State: customers (sets of aliased app user ids), which customer owns each store account's receipt (at
/// most one), and direct purchases (consumables and non-renewing purchases, which belong to the customer
/// who bought them). The purchases themselves are the ``SimulatedStore``'s, which several backends may
/// share: then a receipt bought through one is restored through another, as in a migration. Every answer is
/// rendered as the provider's JSON at true time and mapped through the real adapter, so the adapter sees
/// exactly what the live backend would send. Time only moves when ``advance(by:)`` or ``setTime(_:)``
/// (or the shared store) says so. Devices reach it through ``provider(device:)``; a device taken off the
/// network gets `offline` for every call.
public actor SimulatedBackend {
    /// The wire format and adapter it answers with.
    public nonisolated let flavour: ProviderID
    /// How a receipt owned by another identified customer is treated.
    public nonisolated let restoreBehavior: RestoreBehavior
    /// The store accounts and purchases it sees (shared with other backends when given to them too).
    public nonisolated let store: SimulatedStore
    private nonisolated let identifiers: SeededIdentifiers
    private var now: Date { store.trueTime }
    private var customers: [Int: SimulatedCustomer] = [:]
    private var customerByAppUserId: [AppUserIdKey: Int] = [:]  // by bytes, as a real backend keys ids
    private var nextCustomer = 1
    /// Store account → the customer who owns its receipt.
    private var receiptOwners: [String: Int] = [:]
    private var offlineDevices: Set<String> = []
    private var callCounts: [String: Int] = [:]

    /// Creates an empty backend answering as `flavour` (`.revenueCat`, `.qonversion` or `.adapty`) over a
    /// store of its own selling `products`, at true time `start`. Anonymous ids come from a generator
    /// seeded with `seed`, so runs repeat exactly.
    public init(
        flavour: ProviderID, products: [ScenarioProduct] = [],
        restoreBehavior: RestoreBehavior = .transferToNewAppUserId,
        start: Date, seed: UInt64 = 0x5EED
    ) {
        self.init(
            flavour: flavour, store: SimulatedStore(products: products, start: start),
            restoreBehavior: restoreBehavior, seed: seed)
    }

    /// Creates an empty backend answering as `flavour` over `store`, which other backends may share.
    public init(
        flavour: ProviderID, store: SimulatedStore, restoreBehavior: RestoreBehavior = .transferToNewAppUserId,
        seed: UInt64 = 0x5EED
    ) {
        self.flavour = flavour
        self.restoreBehavior = restoreBehavior
        self.store = store
        self.identifiers = SeededIdentifiers(seed: seed)
    }

    /// A provider for one device: the device's calls fail with `offline` while it is off the network.
    public nonisolated func provider(device: String = "device") -> SimulatedProvider {
        SimulatedProvider(backend: self, device: device)
    }

    // MARK: Time and network

    /// True time.
    public var trueTime: Date { now }

    /// Moves the store's true time forward by `duration` (calendar months clamped); a negative duration is
    /// ignored.
    public func advance(by duration: ISODuration) {
        store.advance(by: duration)
    }

    /// Sets the store's true time; it never moves back.
    public func setTime(_ instant: Date) {
        store.setTime(instant)
    }

    /// Takes `device` off the network (`online == false`) or back on.
    public func setOnline(_ online: Bool, device: String) {
        if online { offlineDevices.remove(device) } else { offlineDevices.insert(device) }
    }

    // MARK: Store side

    /// A store-side event on the store account's latest purchase of `productId` (at the shared store).
    /// Nothing happens when the account never bought the product.
    public func storeEvent(_ event: StoreEvent, storeAccount: String, productId: String) {
        store.storeEvent(event, storeAccount: storeAccount, productId: productId)
    }

    // MARK: The backend's own view

    /// The backend's own answer for `appUserId` at true time, mapped through the adapter (creates the
    /// customer when the id is unknown, as the REST API does).
    public func lookup(_ appUserId: String) throws(EntitlementClientError) -> EntitlementSnapshot {
        try render(customer: customerNumber(for: appUserId))
    }

    /// Every app user id that resolves to `appUserId`'s customer, the original first; `[]` for an
    /// unknown id.
    public func aliases(of appUserId: String) -> [String] {
        guard let number = customerByAppUserId[AppUserIdKey(appUserId)], let customer = customers[number] else {
            return []
        }
        return customer.appUserIds
    }

    /// The wire document the backend sends for `appUserId` now (RevenueCat subscriber JSON, Qonversion
    /// launch result or Adapty SDK profile), for tests that want the bytes.
    public func wireDocument(for appUserId: String) -> JSONValue {
        wire(customer: customerNumber(for: appUserId))
    }

    // MARK: Provider operations

    nonisolated func seededAnonymousAppUserId() -> String {
        identifiers.anonymousAppUserId(for: flavour)
    }

    func snapshot(for appUserId: String, device: String) throws(EntitlementClientError) -> EntitlementSnapshot {
        try requireOnline(device)
        return try render(customer: customerNumber(for: appUserId))
    }

    /// logIn from `current` to `new`: ``IdentityRules/logIn(currentCustomerIsAnonymous:target:)``'s decision (the
    /// one the ledger applies too) on this backend's alias table.
    func logIn(from current: String, to new: String, device: String) throws(EntitlementClientError) -> LogInResult {
        try requireOnline(device)
        let currentNumber = customerNumber(for: current)
        if current.utf8.elementsEqual(new.utf8) {
            return LogInResult(snapshot: try render(customer: currentNumber), created: false)
        }
        let existing = customerByAppUserId[AppUserIdKey(new)]
        let target: IdentityRules.LogInTarget =
            if let existing {
                existing == currentNumber
                    ? .sameCustomer
                    : .otherCustomer(
                        hasAnonymousId: customers[existing]?.appUserIds.contains(where: isAnonymousId) ?? false)
            } else {
                .unknown
            }
        switch IdentityRules.logIn(currentCustomerIsAnonymous: isAnonymousCustomer(currentNumber), target: target) {
        case .aliasNewId:
            customers[currentNumber]?.appUserIds.append(new)
            customerByAppUserId[AppUserIdKey(new)] = currentNumber
        case .mergeIntoNewIdsCustomer:
            if let existing { merge(currentNumber, into: existing) }
        case .none:
            break
        }
        return LogInResult(snapshot: try render(customer: customerNumber(for: new)), created: existing == nil)
    }

    /// Posts `storeAccount`'s receipt as `appUserId` (restore, sync, Play's configure).
    func post(storeAccount: String, store: Store, as appUserId: String, device: String) throws(EntitlementClientError)
        -> EntitlementSnapshot
    {
        try requireOnline(device)
        let poster = customerNumber(for: appUserId)
        try postReceipt(storeAccount, as: poster, activeAccounts: activeAccounts())
        return try render(customer: customerNumber(for: appUserId))
    }

    /// A purchase of `productId` by `storeAccount` as `appUserId`.
    func purchase(productId: String, storeAccount: String, store: Store, as appUserId: String, device: String)
        throws(EntitlementClientError) -> EntitlementSnapshot
    {
        try requireOnline(device)
        guard self.store.sells(productId) else {
            throw EntitlementClientError(.badResponse, "the store does not sell \(productId)")
        }
        let buyer = customerNumber(for: appUserId)
        let heldActive = activeAccounts()
        guard let bought = self.store.buy(productId: productId, storeAccount: storeAccount, store: store) else {
            throw EntitlementClientError(.badResponse, "the store does not sell \(productId)")
        }
        guard self.store.purchase(at: bought)?.kind.isOnReceipt ?? false else {
            customers[buyer]?.directPurchases.append(bought)
            return try render(customer: buyer)
        }
        try postReceipt(storeAccount, as: buyer, activeAccounts: heldActive)
        return try render(customer: customerNumber(for: appUserId))
    }

    // MARK: Rules

    /// The receipt-posting rules of the scenario contract: ``IdentityRules/posting(owner:behavior:heldActiveSubscription:)``'s
    /// decision (the one the ledger applies too) on this backend's receipts. `activeAccounts` are the
    /// store accounts holding an active subscription before the posting: the owner held one when any
    /// receipt it owns is among them. Throws `receiptInUseByOtherUser` when the receipt stays with its
    /// identified owner.
    private func postReceipt(_ storeAccount: String, as poster: Int, activeAccounts: Set<String>)
        throws(EntitlementClientError)
    {
        guard !store.receiptPurchases(of: storeAccount).isEmpty else { return }
        let owner = receiptOwners[storeAccount].flatMap { customers[$0] == nil || $0 == poster ? nil : $0 }
        let heldActiveSubscription =
            owner.map { owner in receiptOwners.contains { $0.value == owner && activeAccounts.contains($0.key) } }
            ?? false
        let ownerKind: IdentityRules.ReceiptOwner =
            if let owner { isAnonymousCustomer(owner) ? .anonymous : .identified } else { .noneOrPoster }
        switch IdentityRules.posting(
            owner: ownerKind, behavior: restoreBehavior, heldActiveSubscription: heldActiveSubscription)
        {
        case .keep, .transfer:
            receiptOwners[storeAccount] = poster
        case .merge:
            if let owner { merge(poster, into: owner) }
        case .receiptInUseByOtherUser:
            throw receiptInUse(storeAccount)
        }
    }

    /// The store accounts whose receipt holds an active subscription now.
    private func activeAccounts() -> Set<String> {
        Set(receiptOwners.keys.filter { store.hasActiveSubscription($0) })
    }

    private func receiptInUse(_ storeAccount: String) -> EntitlementClientError {
        EntitlementClientError(
            .receiptInUseByOtherUser, "the receipt of store account \(storeAccount) belongs to another customer",
            httpStatus: 400, vendorCode: flavour == .revenueCat ? "7102" : nil)
    }

    /// Merges two customers into the older one (its original id stays first); returns the survivor.
    @discardableResult
    private func merge(_ first: Int, into second: Int) -> Int {
        guard first != second, let a = customers[first], let b = customers[second] else { return second }
        let (survivor, absorbed) = first < second ? (first, second) : (second, first)
        let older = first < second ? a : b
        let younger = first < second ? b : a
        var merged = older
        merged.appUserIds += younger.appUserIds
        merged.directPurchases += younger.directPurchases
        merged.firstSeen = min(older.firstSeen, younger.firstSeen)
        customers[survivor] = merged
        customers[absorbed] = nil
        for id in younger.appUserIds { customerByAppUserId[AppUserIdKey(id)] = survivor }
        for (account, owner) in receiptOwners where owner == absorbed {
            receiptOwners[account] = survivor
        }
        return survivor
    }

    private func customerNumber(for appUserId: String) -> Int {
        if let number = customerByAppUserId[AppUserIdKey(appUserId)] { return number }
        let number = nextCustomer
        nextCustomer += 1
        customers[number] = SimulatedCustomer(appUserIds: [appUserId], firstSeen: now)
        customerByAppUserId[AppUserIdKey(appUserId)] = number
        return number
    }

    private nonisolated func isAnonymousId(_ appUserId: String) -> Bool {
        isSimulatedAnonymousId(appUserId, flavour: flavour)
    }

    private func isAnonymousCustomer(_ number: Int) -> Bool {
        customers[number]?.appUserIds.allSatisfy(isAnonymousId) ?? false
    }

    /// How many calls `device` has made (offline ones too): what tells a step that reached the backend
    /// (source `network`) from one answered on the device (source `cache`).
    public func callCount(device: String) -> Int {
        callCounts[device, default: 0]
    }

    /// Every backend call passes here first, so it is where calls are counted.
    private func requireOnline(_ device: String) throws(EntitlementClientError) {
        callCounts[device, default: 0] += 1
        if offlineDevices.contains(device) {
            throw EntitlementClientError(.offline, "the device \(device) is off the network")
        }
    }

    // MARK: Rendering

    private func view(customer number: Int) -> CustomerView {
        let customer = customers[number] ?? SimulatedCustomer(appUserIds: [], firstSeen: now)
        let owned = receiptOwners.filter { $0.value == number }.keys.sorted().flatMap(store.receiptPurchases(of:))
        let direct = customer.directPurchases.compactMap(store.purchase(at:))
        return CustomerView(customer: customer, purchases: owned + direct, at: now)
    }

    private func wire(customer number: Int) -> JSONValue {
        let view = view(customer: number)
        switch flavour {
        case .qonversion: return QonversionWireRenderer.launchResult(view)
        case AdaptyProfileIdForm.flavour: return AdaptyWireRenderer.profile(view)
        default: return RevenueCatWireRenderer.subscriber(view)
        }
    }

    private func render(customer number: Int) throws(EntitlementClientError) -> EntitlementSnapshot {
        let data = Data(wire(customer: number).compactText.utf8)
        do {
            if flavour == .qonversion { return try QonversionAdapter().snapshot(from: data, at: now) }
            if flavour == AdaptyProfileIdForm.flavour { return try AdaptyAdapter().snapshot(from: data, at: now) }
            return try RevenueCatAdapter().snapshot(from: data, at: now)
        } catch {
            throw EntitlementClientError(.badResponse, "the adapter refused the answer: \(error)", documentError: error)
        }
    }
}

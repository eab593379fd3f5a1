import EntitlementKit
import Foundation

/// The identity rules applied to one transaction's rows: customers created on first sight, merged into
/// the older, purchases moved between them — ``IdentityRules``'s decisions, applied.
struct LedgerIdentity {
    let rows: LedgerRows
    let configuration: LedgerConfiguration
    /// Customers merged away during this transaction → the customer they became.
    private(set) var mergedInto: [LedgerCustomerID: LedgerCustomerID] = [:]

    init(rows: LedgerRows, configuration: LedgerConfiguration) {
        self.rows = rows
        self.configuration = configuration
    }

    func isAnonymous(_ appUserId: String) -> Bool { configuration.isAnonymousAppUserId(appUserId) }

    func isAnonymous(_ customer: LedgerCustomer) -> Bool { customer.appUserIds.allSatisfy(isAnonymous) }

    /// The customer `id` is now (after merges in this transaction).
    func current(_ id: LedgerCustomerID) -> LedgerCustomerID {
        var id = id
        while let next = mergedInto[id] { id = next }
        return id
    }

    /// `appUserId`'s customer, created when no one has the id.
    func customer(for appUserId: String) async throws(LedgerRefusal) -> LedgerCustomer {
        if let id = try await rows.customerID(forAppUserId: appUserId), let customer = try await rows.customer(id) {
            return customer
        }
        let customer = LedgerCustomer(id: try await rows.nextCustomerID(), appUserIds: [appUserId])
        try await rows.save(customer)
        try await rows.setCustomerID(customer.id, forAppUserId: appUserId)
        return customer
    }

    /// `appUserId`'s customer as the app uses the id (a read, a posting, a logIn): created when no one has
    /// it, and no longer a placeholder.
    func use(_ appUserId: String) async throws(LedgerRefusal) -> LedgerCustomer {
        var customer = try await customer(for: appUserId)
        if customer.isPlaceholder {
            customer.placeholder = nil
            try await rows.save(customer)
        }
        return customer
    }

    /// `appUserId`'s customer for a record's token no one registered: created as a placeholder when no
    /// one has the id.
    func placeholder(for appUserId: String) async throws(LedgerRefusal) -> LedgerCustomer {
        if let existing = try await existingCustomer(for: appUserId) { return existing }
        let customer = LedgerCustomer(id: try await rows.nextCustomerID(), appUserIds: [appUserId], placeholder: true)
        try await rows.save(customer)
        try await rows.setCustomerID(customer.id, forAppUserId: appUserId)
        return customer
    }

    /// The customer an account token no one registered stands for: the id itself, and for an
    /// `appAccountToken` that is a UUID the id that is the same UUID in lower or upper case (ids are
    /// otherwise compared by bytes); `nil` when no customer has it.
    func existingCustomer(forToken appUserId: String, kind: LedgerAccountKey.Kind?) async throws(LedgerRefusal)
        -> LedgerCustomer?
    {
        var spellings = [appUserId]
        if kind == .appAccountToken, UUID(uuidString: appUserId) != nil {
            spellings += [appUserId.lowercased(), appUserId.uppercased()]
        }
        for spelling in spellings {
            if let customer = try await existingCustomer(for: spelling) { return customer }
        }
        return nil
    }

    /// An existing customer with `appUserId`.
    func existingCustomer(for appUserId: String) async throws(LedgerRefusal) -> LedgerCustomer? {
        guard let id = try await rows.customerID(forAppUserId: appUserId) else { return nil }
        return try await rows.customer(id)
    }

    /// Merges two customers into the older one (its original id stays first); the survivor.
    mutating func merge(_ first: LedgerCustomerID, _ second: LedgerCustomerID) async throws(LedgerRefusal)
        -> LedgerCustomerID
    {
        guard first != second, let a = try await rows.customer(first), let b = try await rows.customer(second) else {
            return second
        }
        var (survivor, absorbed) = a.id < b.id ? (a, b) : (b, a)
        survivor.appUserIds += absorbed.appUserIds
        survivor.placeholder = nil
        for thread in absorbed.threads {
            survivor.own(thread)
            if var row = try await rows.head(thread) {
                row.owner = survivor.id
                try await rows.save(row)
            }
        }
        for appUserId in absorbed.appUserIds { try await rows.setCustomerID(survivor.id, forAppUserId: appUserId) }
        try await rows.save(survivor)
        try await rows.removeCustomer(absorbed.id)
        mergedInto[absorbed.id] = survivor.id
        return survivor.id
    }

    /// Gives `thread` to `customer`, taking it from its previous owner.
    func assign(_ thread: inout LedgerThreadHead, to customer: LedgerCustomerID) async throws(LedgerRefusal) {
        if let previous = thread.owner, previous != customer, var owner = try await rows.customer(previous) {
            owner.disown(thread.id)
            try await rows.save(owner)
        }
        thread.owner = customer
        try await rows.save(thread)
        if var owner = try await rows.customer(customer) {
            owner.own(thread.id)
            try await rows.save(owner)
        }
    }

    /// Moves every purchase of the placeholder `placeholder` to `customer` and removes it (its token was
    /// linked to `customer` before the app used its id); whether it moved anything.
    func absorb(placeholder: LedgerCustomer, into customer: LedgerCustomerID) async throws(LedgerRefusal) -> Bool {
        guard placeholder.isPlaceholder, placeholder.id != customer else { return false }
        for id in placeholder.threads {
            guard var thread = try await rows.head(id) else { continue }
            try await assign(&thread, to: customer)
        }
        for appUserId in placeholder.appUserIds { try await rows.removeCustomerID(forAppUserId: appUserId) }
        try await rows.removeCustomer(placeholder.id)
        return !placeholder.threads.isEmpty
    }

    /// The name of a customer in outcomes: its original app user id.
    func name(of id: LedgerCustomerID) async throws(LedgerRefusal) -> String? {
        try await rows.customer(current(id))?.originalAppUserId
    }

    /// logIn from `current` to `new` (seed 002), as the simulated backend does: `current` counts as
    /// anonymous only when its customer holds no identified id.
    mutating func logIn(from current: String, to new: String) async throws(LedgerRefusal) -> LedgerLogInResult {
        let currentCustomer = try await use(current)
        if current.utf8.elementsEqual(new.utf8) {
            return LedgerLogInResult(created: false, outcome: .noChange(reason: "logIn to the current id"))
        }
        let existing = try await existingCustomer(for: new)
        if existing != nil { _ = try await use(new) }
        let target: IdentityRules.LogInTarget =
            if let existing {
                existing.id == currentCustomer.id
                    ? .sameCustomer : .otherCustomer(hasAnonymousId: existing.appUserIds.contains(where: isAnonymous))
            } else {
                .unknown
            }
        switch IdentityRules.logIn(currentCustomerIsAnonymous: isAnonymous(currentCustomer), target: target) {
        case .aliasNewId:
            var customer = currentCustomer
            customer.appUserIds.append(new)
            try await rows.save(customer)
            try await rows.setCustomerID(customer.id, forAppUserId: new)
            return LedgerLogInResult(created: true, outcome: .applied(customers: [customer.originalAppUserId]))
        case .mergeIntoNewIdsCustomer:
            let survivor = try await merge(currentCustomer.id, existing?.id ?? currentCustomer.id)
            let name = try await name(of: survivor) ?? new
            return LedgerLogInResult(created: false, outcome: .applied(customers: [name]))
        case .none:
            _ = try await use(new)
            return LedgerLogInResult(created: existing == nil, outcome: .noChange(reason: "logIn aliased no id"))
        }
    }
}

import Foundation

/// Which of two grants of one entitlement wins, wherever several could unlock it: a store's transactions
/// of the products the catalog maps to one entitlement, Stripe's subscription items and checkout lines, the
/// sources a ledger merges, the two backends a migration's `.eitherGrants` merges, a simulated backend's
/// purchases. The one implementation of the rule; every such place asks it.
///
/// The rule (`store-direct.md`, `ledger.md`, `stripe-mapping.md`): the grant with the latest access wins —
/// access beats none; then no expiry beats any; then the later expiry; then the later purchase. Grants equal
/// on all four tie, and a tie keeps the grant met first, so the caller's order (a document's, a catalog's)
/// decides, never a dictionary's. A migration's merge asks the coarser ``givesLongerAccess(than:)``.
package struct GrantPrecedence: Sendable, Hashable {
    /// Whether the grant gives access at the instant judged.
    package var isActive: Bool
    /// Its end of access; `nil` for none (lifetime).
    package var expirationDate: Date?
    /// Its latest purchase or renewal, when known.
    package var purchaseDate: Date?

    /// A grant's place in the order, from its facts.
    package init(isActive: Bool, expirationDate: Date?, purchaseDate: Date?) {
        self.isActive = isActive
        self.expirationDate = expirationDate
        self.purchaseDate = purchaseDate
    }

    /// An entitlement's place: ``Entitlement/isActive``, ``Entitlement/expirationDate`` and
    /// ``Entitlement/latestPurchaseDate``.
    package init(_ entitlement: Entitlement) {
        self.init(
            isActive: entitlement.isActive, expirationDate: entitlement.expirationDate,
            purchaseDate: entitlement.latestPurchaseDate)
    }

    /// Whether this grant wins over `other`, met before it; `false` on a tie.
    package func wins(over other: GrantPrecedence) -> Bool {
        if isActive != other.isActive { return isActive }
        if let expiresLater = expiresLater(than: other) { return expiresLater }
        return (purchaseDate ?? .distantPast) > (other.purchaseDate ?? .distantPast)
    }

    /// Whether this grant gives longer access than `other`, the grant a migration's merge already holds
    /// (`swap.md`): access beats none; between two grants that give access, no expiry beats any, then the
    /// later expiry. Everything else — two lapsed grants, one expiry — is a tie, which keeps the serving
    /// backend's grant: the merge never trades the answer the app had for a shadow's on dates alone.
    package func givesLongerAccess(than other: GrantPrecedence) -> Bool {
        if isActive != other.isActive { return isActive }
        return isActive && expiresLater(than: other) == true
    }

    /// Whether this grant's access ends later (none ends last); `nil` when both end together.
    private func expiresLater(than other: GrantPrecedence) -> Bool? {
        switch (expirationDate, other.expirationDate) {
        case (nil, _?): true
        case (_?, nil): false
        case (let mine?, let theirs?) where mine != theirs: mine > theirs
        default: nil
        }
    }
}

extension Entitlement {
    /// Whether this grant of an entitlement wins over `other`, met before it (``GrantPrecedence``).
    package func winsGrant(over other: Entitlement) -> Bool {
        GrantPrecedence(self).wins(over: GrantPrecedence(other))
    }
}

import Foundation

/// An asynchronous source of a customer's snapshots, with the identity operations every backend has.
///
/// This is the seam for the runtime client: a live HTTP provider, a cache, a simulated backend in
/// tests. An app holds one `EntitlementProvider` and asks it ``snapshot(at:)``; swapping backends means
/// swapping the provider, not the paywall code.
public protocol EntitlementProvider: Sendable {
    /// The provider id of the snapshots it returns.
    var provider: String { get }

    /// The current customer's snapshot, evaluated at `instant`.
    func snapshot(at instant: Date) async throws -> EntitlementSnapshot

    /// Switches to the customer `appUserId` and returns their snapshot, evaluated at `instant`.
    func logIn(_ appUserId: String, at instant: Date) async throws -> EntitlementSnapshot

    /// Forgets the identified customer and returns to an anonymous one.
    func logOut() async throws
}

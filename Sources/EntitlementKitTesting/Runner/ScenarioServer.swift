import EntitlementKit
import Foundation

/// A server the scenario runner's devices talk to: the ``SimulatedBackend`` by default, or a server of
/// your own (a loopback server over `EntitlementLedger`, say) built over the run's ``SimulatedStore``.
///
/// The runner buys nothing itself: a device's purchase, restore and sync go through the provider the
/// server gives it, which buys in the shared store and tells its server as the real app would. When the
/// store changes on its own (a store event, time moving on) the runner calls ``storeChanged()`` so the
/// server hears what the store would push.
///
/// ```swift
/// let report = try await ScenarioRunner.run(scenario, file: "story.json") { store in
///     try await MyLoopbackServer(store: store, restoreBehavior: scenario.restoreBehavior)
/// }
/// ```
public protocol ScenarioServer: Sendable {
    /// The name failures carry.
    var flavour: ProviderID { get }
    /// The provider device `device`'s client uses (the runner makes one per `configure`).
    func scenarioProvider(device: String) async -> any EntitlementProvider
    /// Takes `device` off the network (`online == false`) or back on: its provider's calls fail `offline`.
    func setOnline(_ online: Bool, device: String) async
    /// How many calls `device`'s providers made, offline ones too: what tells `network` from `cache`.
    func callCount(device: String) async -> Int
    /// The server's own view of `appUserId` now (a `lookup` step).
    func lookup(_ appUserId: String) async throws(EntitlementClientError) -> EntitlementSnapshot
    /// Every app user id that resolves to `appUserId`'s customer; `[]` for an unknown id.
    func aliases(of appUserId: String) async -> [String]
    /// The store changed without a device's call (a store event, renewals as time moved).
    func storeChanged() async
}

extension SimulatedBackend: ScenarioServer {
    public nonisolated func scenarioProvider(device: String) -> any EntitlementProvider {
        provider(device: device)
    }

    /// The simulated backend reads the shared store at every answer: nothing to be told.
    public func storeChanged() {}
}

import EntitlementKit
import Foundation

/// The one action of a step.
public enum ScenarioAction: Sendable, Hashable {
    /// Starts the app on a device (a relaunch when already configured).
    case configure(
        device: String, appUserId: AppUserIdReference?, storeAccount: String, store: Store, label: String?)
    /// Wipes the device's storage.
    case reinstall(device: String)
    /// Client logIn.
    case logIn(device: String, appUserId: AppUserIdReference)
    /// Client logOut; `label` names the new anonymous id.
    case logOut(device: String, label: String?)
    /// The device's store account buys a product now.
    case purchase(device: String, product: String)
    /// The device's store account's receipt is posted (a user-initiated restore).
    case restore(device: String)
    /// The device's store account's receipt is posted (a programmatic sync).
    case syncPurchases(device: String)
    /// checkEntitlements with a fetch policy.
    case check(device: String, policy: FetchPolicy)
    /// A store-side event.
    case store(storeAccount: String, product: String, event: StoreEvent)
    /// True time moves forward.
    case advance(ISODuration)
    /// The device's clock is set to true time + offset.
    case deviceClock(device: String, offset: ISODuration)
    /// The device goes off or back on the network.
    case network(device: String, online: Bool)
    /// The backend's own view of a customer.
    case lookup(appUserId: AppUserIdReference)

    /// The action's name in the file.
    public var name: String {
        switch self {
        case .configure: "configure"
        case .reinstall: "reinstall"
        case .logIn: "logIn"
        case .logOut: "logOut"
        case .purchase: "purchase"
        case .restore: "restore"
        case .syncPurchases: "syncPurchases"
        case .check: "check"
        case .store: "store"
        case .advance: "advance"
        case .deviceClock: "deviceClock"
        case .network: "network"
        case .lookup: "lookup"
        }
    }

    /// The device it acts on, if any.
    public var device: String? {
        switch self {
        case .configure(let device, _, _, _, _), .reinstall(let device), .logIn(let device, _),
            .logOut(let device, _), .purchase(let device, _), .restore(let device), .syncPurchases(let device),
            .check(let device, _), .deviceClock(let device, _), .network(let device, _):
            device
        case .store, .advance, .lookup:
            nil
        }
    }
}

import EntitlementKit
import Foundation

extension Scenario {
    /// Reads a scenario file's bytes, strictly: every rule of the format is checked before anything
    /// runs. A malformed file is a `DocumentError` naming the JSON path (`steps[3].purchase.product`),
    /// the value, and, for anything inside a step, the step number counted from 1.
    public init(json data: Data) throws(DocumentError) {
        try self.init(json: JSONNode(parsing: data))
    }

    /// Reads a parsed scenario document; see ``init(json:)-(Data)``.
    public init(json root: JSONNode) throws(DocumentError) {
        var reader = ScenarioReader()
        self = try reader.read(root)
    }

    /// Reads a scenario file from disk: ``ScenarioFileError/unreadable(file:reason:)`` when it cannot be
    /// opened or read (missing, a directory, no permission), ``ScenarioFileError/malformed(file:error:)``
    /// when it breaks a rule of the format.
    public init(contentsOf url: URL) throws(ScenarioFileError) {
        let data = try Self.contents(of: url)
        do {
            try self.init(json: data)
        } catch {
            throw .malformed(file: url.path, error: error)
        }
    }

    private static func contents(of url: URL) throws(ScenarioFileError) -> Data {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadable(file: url.path, reason: String(cString: strerror(errno))) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .unreadable(file: url.path, reason: "is a directory")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .unreadable(file: url.path, reason: error.localizedDescription)
        }
    }
}

/// A scenario file that cannot be used.
public enum ScenarioFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file cannot be read (missing, a directory, no permission).
    case unreadable(file: String, reason: String)
    /// The file breaks a rule of the format.
    case malformed(file: String, error: DocumentError)

    /// `file: path: value reason`.
    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "\(file): cannot be read: \(reason)"
        case .malformed(let file, let error): "\(file): \(error)"
        }
    }
}

/// The strict reader behind ``Scenario/init(json:)-(JSONNode)``: walks the steps in order, tracking
/// which devices are configured and which labels are defined, so an undefined device, product or label
/// is refused where it is used.
struct ScenarioReader {
    private static let topLevelKeys = ["scenario", "start", "restoreBehavior", "freshFor", "products", "steps"]
    private static let actionFields: [String: (required: [String], optional: [String])] = [
        "configure": (["device", "storeAccount"], ["appUserId", "store", "label"]),
        "reinstall": (["device"], []),
        "logIn": (["device", "appUserId"], []),
        "logOut": (["device"], ["label"]),
        "purchase": (["device", "product"], []),
        "restore": (["device"], []),
        "syncPurchases": (["device"], []),
        "check": (["device"], ["policy"]),
        "store": (["storeAccount", "product", "event"], []),
        "deviceClock": (["device", "offset"], []),
        "network": (["device", "online"], []),
        "lookup": (["appUserId"], []),
    ]
    /// `advance` takes its duration directly: `{"advance": "P1M"}`.
    private static let actionNames = (Array(actionFields.keys) + ["advance"]).sorted()
    private static let deviceExpectationKeys = [
        "active", "renewState", "expirationDate", "error", "source", "appUserId", "isAnonymous", "updates",
    ]
    private static let lookupExpectationKeys = ["active", "renewState", "expirationDate", "aliases"]

    private var products: [String: ScenarioProduct] = [:]
    private var configuredDevices: Set<String> = []
    private var labels: [String: Int] = [:]

    mutating func read(_ root: JSONNode) throws(DocumentError) -> Scenario {
        try root.requireObjectShape()
        try Self.refuseUnknownKeys(in: root, allowed: Self.topLevelKeys, what: "a scenario key")
        let title = try root.optional("scenario")?.string()
        let start = try Self.wholeSecondDate(root.required("start"))
        var restoreBehavior = RestoreBehavior.transferToNewAppUserId
        if let node = try root.optional("restoreBehavior") {
            guard let behavior = RestoreBehavior(rawValue: try node.string()) else {
                throw node.invalid(
                    "is not a restore behaviour (\(RestoreBehavior.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            restoreBehavior = behavior
        }
        var freshFor = Duration.seconds(300)
        if let node = try root.optional("freshFor") {
            let duration = try Self.duration(node)
            guard !duration.isNegative else { throw node.invalid("must not be negative, such as PT5M or P1M") }
            // The client's window is a fixed length; calendar months take theirs from `start`
            // (P1M from Jan 1 is 31 days), one length for the whole story.
            let end = duration.added(to: start)
            freshFor = .milliseconds(end.millisecondsSince1970 - start.millisecondsSince1970)
        }
        if let node = try root.optional("products") {
            for (id, member) in try node.sortedMembers() {
                products[id] = try Self.product(member, id: id)
            }
        }
        let stepsNode = try root.required("steps")
        var steps: [ScenarioStep] = []
        for element in try stepsNode.elements() {
            steps.append(try step(element, number: steps.count + 1))
        }
        return Scenario(
            title: title, start: start, restoreBehavior: restoreBehavior, freshFor: freshFor, products: products,
            steps: steps)
    }

    // MARK: Products

    private static func product(_ node: JSONNode, id: String) throws(DocumentError) -> ScenarioProduct {
        try node.requireObjectShape()
        let kindNode = try node.required("kind")
        let kindName = try kindNode.string()
        let allowed: [String]
        switch kindName {
        case "autoRenewable": allowed = ["kind", "period", "trial", "gracePeriod", "entitlements"]
        case "nonRenewing": allowed = ["kind", "period", "entitlements"]
        case "nonConsumable", "consumable": allowed = ["kind", "entitlements"]
        default:
            throw kindNode.invalid("is not a product kind (autoRenewable, nonRenewing, nonConsumable, consumable)")
        }
        try refuseUnknownKeys(in: node, allowed: allowed, what: "a field of a \(kindName) product")
        var entitlements: [String] = []
        if let list = try node.optional("entitlements") {
            for element in try list.elements() {
                let entitlement = try element.string()
                guard !entitlement.isEmpty else { throw element.invalid("is empty: an entitlement needs an id") }
                entitlements.append(entitlement)
            }
        }
        let kind: ScenarioProduct.Kind
        switch kindName {
        case "autoRenewable":
            kind = .autoRenewable(
                period: try positiveDuration(node.required("period")),
                trial: try node.optional("trial").map { (node) throws(DocumentError) in try positiveDuration(node) },
                gracePeriod: try node.optional("gracePeriod").map { (node) throws(DocumentError) in
                    let grace = try duration(node)
                    guard !grace.isNegative else { throw node.invalid("must not be negative") }
                    return grace
                })
        case "nonRenewing":
            kind = .nonRenewing(period: try positiveDuration(node.required("period")))
        case "nonConsumable":
            kind = .nonConsumable
        default:
            // A consumable grants nothing, whatever it lists.
            kind = .consumable
            entitlements = []
        }
        return ScenarioProduct(id: id, kind: kind, entitlements: entitlements)
    }

    // MARK: Steps

    private mutating func step(_ node: JSONNode, number: Int) throws(DocumentError) -> ScenarioStep {
        try node.requireObjectShape(step: number)
        let members = try node.sortedMembers()
        var actionNodes: [(String, JSONNode)] = []
        for (key, member) in members where key != "expect" {
            guard Self.actionNames.contains(key) else {
                throw DocumentError(
                    kind: .invalidValue, path: member.path,
                    reason: "is not an action (\(Self.actionNames.joined(separator: ", "))) (step \(number))")
            }
            actionNodes.append((key, member))
        }
        guard let (name, actionNode) = actionNodes.first else {
            throw DocumentError(
                kind: .missingField, path: node.path, reason: "has no action; a step has exactly one (step \(number))")
        }
        if actionNodes.count > 1 {
            throw DocumentError(
                kind: .inconsistent, path: actionNodes[1].1.path,
                reason: "is a second action next to `\(name)`; a step has exactly one (step \(number))")
        }
        let action = try self.action(name, actionNode, step: number)
        var expectations = ScenarioExpectations()
        if let expect = try node.optional("expect") {
            expectations = try self.expectations(expect, for: action, step: number)
        }
        return ScenarioStep(number: number, action: action, expectations: expectations)
    }

    private mutating func action(_ name: String, _ node: JSONNode, step: Int) throws(DocumentError) -> ScenarioAction {
        if name == "advance" {
            let duration = try Self.duration(node, step: step)
            guard !duration.isNegative else { throw node.invalid("must not move time back (step \(step))") }
            return .advance(duration)
        }
        guard let fields = Self.actionFields[name] else {
            throw node.invalid("is not an action (step \(step))")
        }
        try node.requireObjectShape(step: step)
        for (key, member) in try node.sortedMembers()
        where !fields.required.contains(key) && !fields.optional.contains(key) {
            throw DocumentError(
                kind: .invalidValue, path: member.path,
                reason:
                    "is not a field of \(name) (\((fields.required + fields.optional).joined(separator: ", "))) (step \(step))"
            )
        }
        for key in fields.required where try node.optional(key) == nil {
            throw DocumentError(
                kind: .missingField, path: node.path.appending(key), reason: "is required but missing (step \(step))")
        }
        switch name {
        case "configure":
            let device = try Self.name(node.required("device"), step: step)
            let appUserId = try node.optional("appUserId").map { (id) throws(DocumentError) in
                try appUserIdReference(id, step: step)
            }
            let storeAccount = try Self.name(node.required("storeAccount"), step: step)
            var store = Store.appStore
            if let storeNode = try node.optional("store") {
                switch try storeNode.string() {
                case "appStore": store = .appStore
                case "playStore": store = .playStore
                default: throw storeNode.invalid("is not a store (appStore, playStore) (step \(step))")
                }
            }
            let label = try node.optional("label").map { (label) throws(DocumentError) in
                try defineLabel(label, step: step)
            }
            configuredDevices.insert(device)
            return .configure(
                device: device, appUserId: appUserId, storeAccount: storeAccount, store: store, label: label)
        case "reinstall":
            let device = try configuredDevice(node, step: step)
            configuredDevices.remove(device)
            return .reinstall(device: device)
        case "logIn":
            let device = try configuredDevice(node, step: step)
            return .logIn(device: device, appUserId: try appUserIdReference(node.required("appUserId"), step: step))
        case "logOut":
            let device = try configuredDevice(node, step: step)
            let label = try node.optional("label").map { (label) throws(DocumentError) in
                try defineLabel(label, step: step)
            }
            return .logOut(device: device, label: label)
        case "purchase":
            let device = try configuredDevice(node, step: step)
            return .purchase(device: device, product: try product(node.required("product"), step: step))
        case "restore":
            return .restore(device: try configuredDevice(node, step: step))
        case "syncPurchases":
            return .syncPurchases(device: try configuredDevice(node, step: step))
        case "check":
            let device = try configuredDevice(node, step: step)
            var policy = FetchPolicy.cachedOrFetched
            if let policyNode = try node.optional("policy") {
                guard let value = FetchPolicy(rawValue: try policyNode.string()) else {
                    throw policyNode.invalid(
                        "is not a fetch policy (\(FetchPolicy.allCases.map(\.rawValue).joined(separator: ", "))) (step \(step))"
                    )
                }
                policy = value
            }
            return .check(device: device, policy: policy)
        case "store":
            let storeAccount = try Self.name(node.required("storeAccount"), step: step)
            let product = try product(node.required("product"), step: step)
            let eventNode = try node.required("event")
            guard let event = StoreEvent(rawValue: try eventNode.string()) else {
                throw eventNode.invalid(
                    "is not a store event (\(StoreEvent.allCases.map(\.rawValue).joined(separator: ", "))) (step \(step))"
                )
            }
            return .store(storeAccount: storeAccount, product: product, event: event)
        case "deviceClock":
            let device = try configuredDevice(node, step: step)
            return .deviceClock(device: device, offset: try Self.duration(node.required("offset"), step: step))
        case "network":
            let device = try configuredDevice(node, step: step)
            let online = try node.required("online")
            guard case .bool(let flag) = online.value else {
                throw DocumentError(
                    kind: .wrongType, path: online.path, offending: online.value,
                    reason: "must be a boolean, not \(online.value.typeDescription) (step \(step))")
            }
            return .network(device: device, online: flag)
        default:
            return .lookup(appUserId: try appUserIdReference(node.required("appUserId"), step: step))
        }
    }

    // MARK: Expectations

    private func expectations(_ node: JSONNode, for action: ScenarioAction, step: Int) throws(DocumentError)
        -> ScenarioExpectations
    {
        let allowed: [String]
        switch action {
        case .lookup: allowed = Self.lookupExpectationKeys
        case .logIn: allowed = Self.deviceExpectationKeys + ["created"]
        case .store, .advance: allowed = []
        default: allowed = Self.deviceExpectationKeys
        }
        try node.requireObjectShape(step: step)
        var result = ScenarioExpectations()
        for (key, member) in try node.sortedMembers() {
            guard allowed.contains(key) else {
                let known = Self.deviceExpectationKeys + ["created", "aliases"]
                throw DocumentError(
                    kind: .invalidValue, path: member.path,
                    reason: known.contains(key)
                        ? "is not an expectation of \(action.name) (step \(step))"
                        : "is not an expectation key (\(known.joined(separator: ", "))) (step \(step))")
            }
            switch key {
            case "active":
                var ids: Set<String> = []
                for element in try member.elements(step: step) { ids.insert(try element.string(step: step)) }
                result.active = ids
            case "renewState":
                var states: [String: RenewState] = [:]
                for (id, value) in try member.sortedMembers() {
                    let text = try value.string(step: step)
                    guard let state = RenewState.knownValues.first(where: { $0.rawValue == text }) else {
                        throw value.invalid(
                            "is not a renew state (\(RenewState.knownValues.map(\.rawValue).joined(separator: ", "))) (step \(step))"
                        )
                    }
                    states[id] = state
                }
                result.renewState = states
            case "expirationDate":
                var dates: [String: Date?] = [:]
                for (id, value) in try member.sortedMembers() {
                    dates[id] = value.isNull ? .some(nil) : .some(try Self.wholeSecondDate(value, step: step))
                }
                result.expirationDate = dates
            case "error":
                if member.isNull {
                    result.error = .some(nil)
                } else {
                    let text = try member.string(step: step)
                    guard let code = EntitlementClientError.Code(rawValue: text) else {
                        throw member.invalid(
                            "is not an error code (\(EntitlementClientError.Code.allCases.map(\.rawValue).joined(separator: ", "))) or null (step \(step))"
                        )
                    }
                    result.error = .some(code)
                }
            case "source":
                let text = try member.string(step: step)
                guard text == "network" || text == "cache" else {
                    throw member.invalid("is not a source (network, cache) (step \(step))")
                }
                result.source = text
            case "appUserId":
                result.appUserId = try appUserIdReference(member, step: step)
            case "isAnonymous":
                result.isAnonymous = try member.bool(step: step)
            case "created":
                result.created = try member.bool(step: step)
            case "aliases":
                var ids: [AppUserIdReference] = []
                for element in try member.elements(step: step) {
                    ids.append(try appUserIdReference(element, step: step))
                }
                result.aliases = ids
            default:
                let count = try member.integer(step: step)
                guard count >= 0, count <= Int64(Int32.max) else {
                    throw member.invalid("must be a count, 0 or more (step \(step))")
                }
                result.updates = Int(count)
            }
        }
        return result
    }

    // MARK: Names, labels, durations

    private func configuredDevice(_ action: JSONNode, step: Int) throws(DocumentError) -> String {
        let node = try action.required("device")
        let device = try Self.name(node, step: step)
        guard configuredDevices.contains(device) else {
            throw node.invalid(
                "is not a configured device (configure it first; reinstall un-configures) (step \(step))")
        }
        return device
    }

    private func product(_ node: JSONNode, step: Int) throws(DocumentError) -> String {
        let id = try node.string(step: step)
        guard products[id] != nil else {
            throw node.invalid("is not a product defined in `products` (step \(step))")
        }
        return id
    }

    private mutating func defineLabel(_ node: JSONNode, step: Int) throws(DocumentError) -> String {
        let label = try Self.name(node, step: step)
        guard !label.hasPrefix("@") else {
            throw node.invalid(
                "defines a label: write it without @ here, and as \"@name\" where it is used (step \(step))")
        }
        if let earlier = labels[label] {
            throw node.invalid("is already defined at step \(earlier); a label is defined once (step \(step))")
        }
        labels[label] = step
        return label
    }

    private func appUserIdReference(_ node: JSONNode, step: Int) throws(DocumentError) -> AppUserIdReference {
        let text = try node.string(step: step)
        guard text.hasPrefix("@") else { return .literal(text) }
        let label = String(text.dropFirst())
        guard labels[label] != nil else {
            throw node.invalid(
                "names no label defined so far (labels are defined by configure or logOut; literal ids cannot start with @) (step \(step))"
            )
        }
        return .label(label)
    }

    private static func name(_ node: JSONNode, step: Int) throws(DocumentError) -> String {
        let text = try node.string(step: step)
        guard !text.isEmpty else { throw node.invalid("must not be empty (step \(step))") }
        return text
    }

    private static func duration(_ node: JSONNode, step: Int? = nil) throws(DocumentError) -> ISODuration {
        let suffix = step.map { " (step \($0))" } ?? ""
        guard case .string(let text) = node.value else {
            throw DocumentError(
                kind: .wrongType, path: node.path, offending: node.value,
                reason: "must be an ISO 8601 duration string, not \(node.value.typeDescription)\(suffix)")
        }
        guard let duration = ISODuration(text) else {
            throw node.invalid("is not an ISO 8601 duration (such as P1M, P7D, PT5M, -P10D)\(suffix)")
        }
        guard !hasFractionOfASecond(text) else { throw node.invalid(wholeSecondsReason + suffix) }
        return duration
    }

    /// A date-time in whole seconds: the same rule as durations, for the same reason.
    private static func wholeSecondDate(_ node: JSONNode, step: Int? = nil) throws(DocumentError) -> Date {
        let suffix = step.map { " (step \($0))" } ?? ""
        guard case .string(let text) = node.value else {
            throw DocumentError(
                kind: .wrongType, path: node.path, offending: node.value,
                reason: "must be an ISO 8601 date string, not \(node.value.typeDescription)\(suffix)")
        }
        guard let date = RFC3339.date(from: text) else { throw node.invalid("is not an ISO 8601 date\(suffix)") }
        guard !hasFractionOfASecond(text) else { throw node.invalid(wholeSecondsReason + suffix) }
        return date
    }

    /// Why instants and durations are whole seconds: Qonversion's wire carries whole seconds, so a
    /// sub-second story would have one answer per backend, and a story has one right answer.
    private static let wholeSecondsReason =
        "has a fraction of a second; scenario times are whole seconds, because Qonversion's wire carries "
        + "whole seconds and a story must have one answer for every provider"

    /// Whether the text has a decimal fraction with a non-zero digit (`.5`, `.001`; `.000` is whole).
    private static func hasFractionOfASecond(_ text: String) -> Bool {
        guard let dot = text.firstIndex(where: { $0 == "." || $0 == "," }) else { return false }
        return text[text.index(after: dot)...].prefix(while: \.isNumber).contains { $0 != "0" }
    }

    private static func positiveDuration(_ node: JSONNode) throws(DocumentError) -> ISODuration {
        let duration = try duration(node)
        guard !duration.isNegative, !duration.isZero else { throw node.invalid("must be a positive duration") }
        return duration
    }

    private static func refuseUnknownKeys(in node: JSONNode, allowed: [String], what: String) throws(DocumentError) {
        for (key, member) in try node.sortedMembers() where !allowed.contains(key) {
            throw DocumentError(
                kind: .invalidValue, path: member.path, reason: "is not \(what) (\(allowed.joined(separator: ", ")))")
        }
    }
}

extension JSONNode {
    /// The members of an object in ascending key order (UTF-8 bytes), so the first problem reported is
    /// always the same one.
    fileprivate func sortedMembers() throws(DocumentError) -> [(key: String, node: JSONNode)] {
        try members().sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) }
    }

    fileprivate func requireObjectShape(step: Int? = nil) throws(DocumentError) {
        guard case .object = value else { throw mismatch("an object", step: step) }
    }

    fileprivate func elements(step: Int) throws(DocumentError) -> [JSONNode] {
        guard case .array = value else { throw mismatch("an array", step: step) }
        return try elements()
    }

    fileprivate func string(step: Int) throws(DocumentError) -> String {
        guard case .string(let text) = value else { throw mismatch("a string", step: step) }
        return text
    }

    fileprivate func bool(step: Int) throws(DocumentError) -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("a boolean", step: step) }
        return flag
    }

    fileprivate func integer(step: Int) throws(DocumentError) -> Int64 {
        guard case .integer(let number) = value else { throw mismatch("a whole number", step: step) }
        return number
    }

    private func mismatch(_ expected: String, step: Int?) -> DocumentError {
        DocumentError(
            kind: .wrongType, path: path, offending: value,
            reason: "must be \(expected), not \(value.typeDescription)" + (step.map { " (step \($0))" } ?? ""))
    }
}

import Foundation

/// A ``ShadowReport`` in its stable JSON form: what an app sends to its own analytics, and what
/// `entitlements shadow-report` reads back from many devices to decide a cut-over.
///
/// One object per report:
///
/// ```json
/// {"instant":"2025-06-01T12:00:00Z","serving":"revenuecat","shadow":"adapty","outcome":"disagreed",
///  "accessDifferences":[{"entitlementId":"premium","activeOnServing":true,"activeOnShadow":false,
///   "reasonOnServing":{"code":"activeUntil","date":"2025-07-01T00:00:00Z"},"reasonOnShadow":{"code":"refunded","raw":"REFUND_FULL"}}],
///  "fieldDifferences":[{"entitlementId":"premium","field":"renewState"}]}
/// ```
///
/// `outcome` is `agreed`, `disagreed`, `shadowFailed`, `shadowTimedOut`, `skipped` or `writeFailed`; the
/// other keys appear only where they apply: `accessDifferences` and `fieldDifferences` (no values: they may
/// be personal) for a disagreement, `error` (an ``EntitlementClientError/Code``) for a failure, `action`
/// (`purchase`, `restore`, `sync`, `logIn`, `logOut`) for a failed write, `skipped` (`anonymous`) for a
/// skip, and `appUserId` only when the app asks for it. Keys this version does not know are ignored when
/// read back, so an older reader takes a newer app's reports; a value it does not know (an outcome, a
/// code) is refused with a located ``DocumentError``, because a gate must not pass on reports it could not
/// read.
public struct ShadowReportRecord: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What happened to the comparison, with what the JSON form keeps of it.
    public enum Outcome: Sendable, Hashable {
        /// Both backends agreed on access and every compared field.
        case agreed
        /// The backends differed; at least one of the lists is not empty.
        case disagreed(accessDifferences: [AccessDifference], fieldDifferences: [FieldDifference])
        /// The shadow backend failed with this code.
        case shadowFailed(EntitlementClientError.Code)
        /// The shadow backend did not answer in time.
        case shadowTimedOut
        /// The shadow backend was not asked.
        case skipped(ShadowReport.SkipReason)
        /// A write reached the serving backend and failed on the shadow with this code.
        case writeFailed(Action, EntitlementClientError.Code)

        /// The outcome's name in the JSON form (`disagreed`).
        public var name: String {
            switch self {
            case .agreed: "agreed"
            case .disagreed: "disagreed"
            case .shadowFailed: "shadowFailed"
            case .shadowTimedOut: "shadowTimedOut"
            case .skipped: "skipped"
            case .writeFailed: "writeFailed"
            }
        }

        /// Whether this is a comparison: `agreed` or `disagreed`.
        public var isComparison: Bool {
            switch self {
            case .agreed, .disagreed: true
            default: false
            }
        }
    }

    /// A write sent to both backends, as the JSON form names it.
    public enum Action: String, Sendable, Hashable, CaseIterable {
        /// A purchase reported (`reportPurchase`).
        case purchase
        /// A restore the customer asked for.
        case restore
        /// A sync of the store's purchases (`syncPurchases`).
        case sync
        /// A log-in.
        case logIn
        /// A log-out.
        case logOut
    }

    /// An entitlement active on one backend only, with each side's reason when it is known.
    public struct AccessDifference: Sendable, Hashable {
        /// The entitlement (`premium`).
        public var entitlementId: String
        /// Whether the serving backend grants it.
        public var activeOnServing: Bool
        /// Whether the shadow backend grants it.
        public var activeOnShadow: Bool
        /// Why the serving backend decided so, as `diff --json` writes it (`{"code", "date"?, "raw"?}`).
        public var reasonOnServing: JSONValue?
        /// Why the shadow backend decided so.
        public var reasonOnShadow: JSONValue?

        /// Creates an access difference.
        public init(
            entitlementId: String, activeOnServing: Bool, activeOnShadow: Bool, reasonOnServing: JSONValue? = nil,
            reasonOnShadow: JSONValue? = nil
        ) {
            self.entitlementId = entitlementId
            self.activeOnServing = activeOnServing
            self.activeOnShadow = activeOnShadow
            self.reasonOnServing = reasonOnServing
            self.reasonOnShadow = reasonOnShadow
        }
    }

    /// A compared field that differed, without its values.
    public struct FieldDifference: Sendable, Hashable {
        /// The entitlement (`premium`).
        public var entitlementId: String
        /// The field's name in the unified JSON form (`renewState`).
        public var field: String

        /// Creates a field difference.
        public init(entitlementId: String, field: String) {
            self.entitlementId = entitlementId
            self.field = field
        }
    }

    /// When the comparison was made.
    public var instant: Date
    /// The backend whose answer the app got.
    public var serving: ProviderID
    /// The backend asked in the shadow.
    public var shadow: ProviderID
    /// What happened.
    public var outcome: Outcome
    /// The customer, only when the app chose to send it.
    public var appUserId: String?

    /// Creates a record.
    public init(instant: Date, serving: ProviderID, shadow: ProviderID, outcome: Outcome, appUserId: String? = nil) {
        self.instant = instant
        self.serving = serving
        self.shadow = shadow
        self.outcome = outcome
        self.appUserId = appUserId
    }

    /// The JSON form of `report`; its app user id only when `includingAppUserId` (it identifies a person).
    public init(_ report: ShadowReport, includingAppUserId: Bool = false) {
        self.init(
            instant: report.instant, serving: report.servingProvider, shadow: report.shadowProvider,
            outcome: Outcome(report.outcome), appUserId: includingAppUserId ? report.appUserId : nil)
    }

    // MARK: JSON

    /// The JSON form: one object, keys only where they apply.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "instant": .string(RFC3339.string(from: instant)),
            "serving": .string(serving.rawValue),
            "shadow": .string(shadow.rawValue),
            "outcome": .string(outcome.name),
        ]
        switch outcome {
        case .agreed, .shadowTimedOut:
            break
        case .disagreed(let accessDifferences, let fieldDifferences):
            if !accessDifferences.isEmpty {
                members["accessDifferences"] = .array(
                    accessDifferences.map { difference in
                        var object: [String: JSONValue] = [
                            "entitlementId": .string(difference.entitlementId),
                            "activeOnServing": .bool(difference.activeOnServing),
                            "activeOnShadow": .bool(difference.activeOnShadow),
                        ]
                        object["reasonOnServing"] = difference.reasonOnServing
                        object["reasonOnShadow"] = difference.reasonOnShadow
                        return .object(object)
                    })
            }
            if !fieldDifferences.isEmpty {
                members["fieldDifferences"] = .array(
                    fieldDifferences.map {
                        .object(["entitlementId": .string($0.entitlementId), "field": .string($0.field)])
                    })
            }
        case .shadowFailed(let code):
            members["error"] = .string(code.rawValue)
        case .skipped(let reason):
            members["skipped"] = .string(reason.rawValue)
        case .writeFailed(let action, let code):
            members["action"] = .string(action.rawValue)
            members["error"] = .string(code.rawValue)
        }
        if let appUserId { members["appUserId"] = .string(appUserId) }
        return .object(members)
    }

    /// The JSON form on one line, keys sorted: one JSON Lines record.
    public var jsonLine: String { jsonValue.compactText }

    /// `disagreed revenuecat/adapty at 2025-06-01T12:00:00Z`.
    public var description: String { "\(outcome.name) \(serving)/\(shadow) at \(RFC3339.string(from: instant))" }

    /// Reads the JSON form; keys it does not know are ignored.
    public init(json node: JSONNode) throws(DocumentError) {
        instant = try node.required("instant").date()
        serving = ProviderID(rawValue: try Self.name(node.required("serving")))
        shadow = ProviderID(rawValue: try Self.name(node.required("shadow")))
        appUserId = try node.optional("appUserId")?.string()
        let outcomeNode = try node.required("outcome")
        switch try outcomeNode.string() {
        case "agreed":
            outcome = .agreed
        case "disagreed":
            let access = try node.optional("accessDifferences")?.elements() ?? []
            let fields = try node.optional("fieldDifferences")?.elements() ?? []
            guard !access.isEmpty || !fields.isEmpty else {
                throw outcomeNode.invalid("has neither accessDifferences nor fieldDifferences")
            }
            outcome = .disagreed(
                accessDifferences: try access.map { (element) throws(DocumentError) in
                    AccessDifference(
                        entitlementId: try Self.name(element.required("entitlementId")),
                        activeOnServing: try element.required("activeOnServing").bool(),
                        activeOnShadow: try element.required("activeOnShadow").bool(),
                        reasonOnServing: try Self.reason(element.optional("reasonOnServing")),
                        reasonOnShadow: try Self.reason(element.optional("reasonOnShadow")))
                },
                fieldDifferences: try fields.map { (element) throws(DocumentError) in
                    FieldDifference(
                        entitlementId: try Self.name(element.required("entitlementId")),
                        field: try Self.name(element.required("field")))
                })
        case "shadowFailed":
            outcome = .shadowFailed(try Self.code(node.required("error")))
        case "shadowTimedOut":
            outcome = .shadowTimedOut
        case "skipped":
            let reasonNode = try node.required("skipped")
            guard let reason = ShadowReport.SkipReason(rawValue: try reasonNode.string()) else {
                throw reasonNode.invalid("is not a reason to skip (anonymous)")
            }
            outcome = .skipped(reason)
        case "writeFailed":
            let actionNode = try node.required("action")
            guard let action = Action(rawValue: try actionNode.string()) else {
                throw actionNode.invalid("is not an action (purchase, restore, sync, logIn, logOut)")
            }
            outcome = .writeFailed(action, try Self.code(node.required("error")))
        default:
            throw outcomeNode.invalid(
                "is not an outcome (agreed, disagreed, shadowFailed, shadowTimedOut, skipped, writeFailed)")
        }
    }

    /// Reads one JSON Lines record (or any one JSON document).
    public init(jsonData data: Data) throws(DocumentError) {
        try self.init(json: JSONNode(parsing: data))
    }

    /// Decodes the JSON form; a failure is `DecodingError.dataCorrupted` with the located ``DocumentError``
    /// as its underlying error.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        do {
            try self.init(json: JSONNode(value))
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// Encodes the JSON form, whatever the encoder's date strategy.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }

    private static func name(_ node: JSONNode) throws(DocumentError) -> String {
        guard let name = try node.identifier() else { throw node.invalid("must not be empty") }
        return name
    }

    private static func code(_ node: JSONNode) throws(DocumentError) -> EntitlementClientError.Code {
        guard let code = EntitlementClientError.Code(rawValue: try node.string()) else {
            throw node.invalid("is not an EntitlementClientError code")
        }
        return code
    }

    /// A reason as `diff --json` writes it: an object with a string `code`, kept as written.
    private static func reason(_ node: JSONNode?) throws(DocumentError) -> JSONValue? {
        guard let node else { return nil }
        _ = try Self.name(node.required("code"))
        return node.value
    }
}

extension ShadowReportRecord.Outcome {
    /// What the JSON form keeps of a report's outcome: no field values, error codes only.
    init(_ outcome: ShadowReport.Outcome) {
        switch outcome {
        case .agreed:
            self = .agreed
        case .disagreed(let diff):
            self = .disagreed(
                accessDifferences: diff.accessDifferences.map { difference in
                    ShadowReportRecord.AccessDifference(
                        entitlementId: difference.entitlementId, activeOnServing: difference.activeInA,
                        activeOnShadow: difference.activeInB, reasonOnServing: difference.reasonInA?.jsonValue,
                        reasonOnShadow: difference.reasonInB?.jsonValue)
                },
                fieldDifferences: diff.fieldDifferences.map {
                    ShadowReportRecord.FieldDifference(entitlementId: $0.entitlementId, field: $0.field.name)
                })
        case .shadowFailed(let error):
            self = .shadowFailed(error.code)
        case .shadowTimedOut:
            self = .shadowTimedOut
        case .skipped(let reason):
            self = .skipped(reason)
        case .writeFailed(let action, let error):
            self = .writeFailed(ShadowReportRecord.Action(action), error.code)
        }
    }
}

extension ShadowReportRecord.Action {
    /// The JSON form's name of a ``MigratingProvider`` write.
    init(_ action: ShadowReport.WriteAction) {
        switch action {
        case .logIn: self = .logIn
        case .syncPurchases: self = .sync
        case .reportPurchase: self = .purchase
        }
    }
}

extension ShadowReport: Encodable {
    /// Encodes the stable JSON form (``ShadowReportRecord``) without the app user id; to send it as well,
    /// encode `ShadowReportRecord(report, includingAppUserId: true)`.
    public func encode(to encoder: any Encoder) throws {
        try ShadowReportRecord(self).encode(to: encoder)
    }
}

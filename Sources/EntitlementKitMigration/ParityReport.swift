import EntitlementKit

/// The result of joining two exports on `appUserId` and comparing every matched customer.
///
/// Lists are complete and sorted by app user id, then entitlement id (by UTF-8 bytes); a customer's field
/// differences keep ``ComparedField/all`` order. ``jsonValue`` is the `entitlements parity --json` report.
public struct ParityReport: Sendable, Hashable {
    /// Customer counts. Every decoded customer of A is exactly one of matched or only in A, and likewise
    /// for B.
    public struct Totals: Sendable, Hashable {
        /// Distinct customers decoded from A.
        public var customersInA: Int
        /// Distinct customers decoded from B.
        public var customersInB: Int
        /// Customers in both.
        public var matched: Int
        /// Customers in A and not in B.
        public var onlyInA: Int
        /// Customers in B and not in A.
        public var onlyInB: Int
        /// Matched customers with at least one access difference.
        public var withAccessDifferences: Int
        /// Matched customers with at least one field difference.
        public var withFieldDifferences: Int

        /// Creates totals.
        public init(
            customersInA: Int, customersInB: Int, matched: Int, onlyInA: Int, onlyInB: Int,
            withAccessDifferences: Int, withFieldDifferences: Int
        ) {
            self.customersInA = customersInA
            self.customersInB = customersInB
            self.matched = matched
            self.onlyInA = onlyInA
            self.onlyInB = onlyInB
            self.withAccessDifferences = withAccessDifferences
            self.withFieldDifferences = withFieldDifferences
        }
    }

    /// One customer's access difference.
    public struct AccessDifference: Sendable, Hashable {
        /// The customer.
        public var appUserId: String
        /// The difference.
        public var difference: EntitlementKit.AccessDifference

        /// Creates an entry.
        public init(appUserId: String, difference: EntitlementKit.AccessDifference) {
            self.appUserId = appUserId
            self.difference = difference
        }
    }

    /// One customer's field difference.
    public struct FieldDifference: Sendable, Hashable {
        /// The customer.
        public var appUserId: String
        /// The difference.
        public var difference: EntitlementKit.FieldDifference

        /// Creates an entry.
        public init(appUserId: String, difference: EntitlementKit.FieldDifference) {
            self.appUserId = appUserId
            self.difference = difference
        }
    }

    /// Customer counts.
    public var totals: Totals
    /// Customers only in A, sorted.
    public var onlyInA: [String]
    /// Customers only in B, sorted.
    public var onlyInB: [String]
    /// Every access difference of every matched customer.
    public var accessDifferences: [AccessDifference]
    /// Every field difference of every matched customer.
    public var fieldDifferences: [FieldDifference]
    /// Customers present on one side only who hold an active entitlement there: they lose or gain
    /// access in the move as surely as an access difference does.
    public var oneSidedCustomersWithAccess: Int

    /// Creates a report.
    public init(
        totals: Totals, onlyInA: [String], onlyInB: [String], accessDifferences: [AccessDifference],
        fieldDifferences: [FieldDifference], oneSidedCustomersWithAccess: Int
    ) {
        self.totals = totals
        self.onlyInA = onlyInA
        self.onlyInB = onlyInB
        self.accessDifferences = accessDifferences
        self.fieldDifferences = fieldDifferences
        self.oneSidedCustomersWithAccess = oneSidedCustomersWithAccess
    }

    /// Whether some customer's access differs between A and B: an access difference of a matched
    /// customer, or a customer on one side only who has access there.
    public var hasAccessDifferences: Bool {
        totals.withAccessDifferences > 0 || oneSidedCustomersWithAccess > 0
    }

    /// The `parity --json` object: `totals`, `onlyInA`, `onlyInB`, `accessDifferences`, `fieldDifferences`.
    public var jsonValue: JSONValue {
        .object([
            "totals": .object([
                "customersInA": .integer(Int64(totals.customersInA)),
                "customersInB": .integer(Int64(totals.customersInB)),
                "matched": .integer(Int64(totals.matched)),
                "onlyInA": .integer(Int64(totals.onlyInA)),
                "onlyInB": .integer(Int64(totals.onlyInB)),
                "withAccessDifferences": .integer(Int64(totals.withAccessDifferences)),
                "withFieldDifferences": .integer(Int64(totals.withFieldDifferences)),
            ]),
            "onlyInA": .array(onlyInA.map(JSONValue.string)),
            "onlyInB": .array(onlyInB.map(JSONValue.string)),
            "accessDifferences": .array(
                accessDifferences.map { entry in
                    var members = entry.difference.jsonMembers
                    members["appUserId"] = .string(entry.appUserId)
                    return .object(members)
                }),
            "fieldDifferences": .array(
                fieldDifferences.map { entry in
                    .object([
                        "appUserId": .string(entry.appUserId),
                        "entitlementId": .string(entry.difference.entitlementId),
                        "field": .string(entry.difference.field.name),
                        "a": entry.difference.a,
                        "b": entry.difference.b,
                    ])
                }),
        ])
    }

    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    static func precedes(_ lhs: (String, String, Int), _ rhs: (String, String, Int)) -> Bool {
        // Ties by bytes too: `String`'s `!=` would call two canonically equivalent ids (two customers)
        // one, and interleave their entries by entitlement id.
        if !lhs.0.utf8.elementsEqual(rhs.0.utf8) { return precedes(lhs.0, rhs.0) }
        if !lhs.1.utf8.elementsEqual(rhs.1.utf8) { return precedes(lhs.1, rhs.1) }
        return lhs.2 < rhs.2
    }
}

import Foundation

/// How two snapshots of one customer differ: first in access, then field by field.
///
/// Use it wherever two backends describe the same customer — a migration check, a contract test, or an
/// app that runs a second backend in *shadow mode* next to the one that decides access:
///
/// ```swift
/// // revenueCat, qonversion: any two `EntitlementProvider`s; `MigratingProvider` does all of this for you
/// let primary = try await revenueCat.snapshot(for: appUserId)   // decides access
/// let shadow = try await qonversion.snapshot(for: appUserId)    // observed only
/// let diff = SnapshotDiff(primary, shadow.evaluated(at: primary.evaluatedAt), options: .init(expiryTolerance: 60))
/// if diff.hasAccessDifferences {
///     print("shadow backend disagrees on access: \(diff.accessDifferences)")
/// } else if !diff.fieldDifferences.isEmpty {
///     print("shadow backend differs in details: \(diff.fieldDifferences)")
/// }
/// ```
///
/// Evaluate both snapshots at the same instant (map both responses with one `at:` or call
/// ``EntitlementSnapshot/evaluated(at:)`` on both): the diff compares them as given.
///
/// **Access differences** are the entitlement ids active in one snapshot and not in the other, with each
/// side's ``Entitlement/accessReason``; an id a snapshot does not list is inactive there. **Field differences** cover the fields in
/// ``Options/fields`` (see ``ComparedField`` for which fields and why) for every entitlement both
/// snapshots list, plus ``ComparedField/present`` for an entitlement only one snapshot lists while
/// inactive there — so every disagreement is reported exactly once. Both lists are sorted by entitlement
/// id (by UTF-8 bytes); field differences of one entitlement follow the order of ``ComparedField/all``.
public struct SnapshotDiff: Sendable, Hashable, CustomStringConvertible {
    /// What to compare.
    public struct Options: Sendable, Hashable {
        /// Expiration dates this many seconds apart or less count as equal. Backends round and delay
        /// differently (one stores whole seconds, another learns of a renewal a minute later); `0`, the
        /// default, demands the same millisecond.
        public var expiryTolerance: TimeInterval
        /// The fields compared for entitlements both snapshots list; ``ComparedField/all`` by default.
        /// Leave out a field the backends are known to name differently (product ids, when the new
        /// backend has its own product catalogue).
        public var fields: Set<ComparedField>

        /// Creates options.
        public init(expiryTolerance: TimeInterval = 0, fields: Set<ComparedField> = Set(ComparedField.all)) {
            self.expiryTolerance = expiryTolerance
            self.fields = fields
        }
    }

    /// Entitlements active in one snapshot and not in the other, sorted by entitlement id.
    public var accessDifferences: [AccessDifference]
    /// Disagreements in the compared fields, sorted by entitlement id, then in ``ComparedField/all`` order.
    public var fieldDifferences: [FieldDifference]

    /// Creates a diff from its parts.
    public init(accessDifferences: [AccessDifference] = [], fieldDifferences: [FieldDifference] = []) {
        self.accessDifferences = accessDifferences
        self.fieldDifferences = fieldDifferences
    }

    /// Compares snapshot `a` with snapshot `b`.
    public init(_ a: EntitlementSnapshot, _ b: EntitlementSnapshot, options: Options = Options()) {
        var accessDifferences: [AccessDifference] = []
        var fieldDifferences: [FieldDifference] = []
        let ids = Set(a.entitlements.keys).union(b.entitlements.keys)
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let fields = ComparedField.all.filter { options.fields.contains($0) }
        for id in ids {
            let entitlementA = a.entitlements[id]
            let entitlementB = b.entitlements[id]
            let activeInA = entitlementA?.isActive ?? false
            let activeInB = entitlementB?.isActive ?? false
            if let difference = AccessDifference(entitlementId: id, entitlementA, entitlementB) {
                accessDifferences.append(difference)
            }
            guard let entitlementA, let entitlementB else {
                // Listed on one side only: an active one is already an access difference.
                if !activeInA, !activeInB, options.fields.contains(.present) {
                    fieldDifferences.append(
                        FieldDifference(
                            entitlementId: id, field: .present,
                            a: .bool(entitlementA != nil), b: .bool(entitlementB != nil)))
                }
                continue
            }
            for field in fields {
                if let (valueA, valueB) = field.difference(
                    entitlementA, entitlementB, expiryTolerance: options.expiryTolerance)
                {
                    fieldDifferences.append(FieldDifference(entitlementId: id, field: field, a: valueA, b: valueB))
                }
            }
        }
        self.init(accessDifferences: accessDifferences, fieldDifferences: fieldDifferences)
    }

    /// Whether some entitlement is active in one snapshot and not in the other.
    public var hasAccessDifferences: Bool { !accessDifferences.isEmpty }

    /// Whether the snapshots agree on access and on every compared field.
    public var isEmpty: Bool { accessDifferences.isEmpty && fieldDifferences.isEmpty }

    /// The report `entitlements diff` prints: both counts, always, each followed by its differences,
    /// one per line, indented.
    ///
    /// ```
    /// access differences: 1
    ///   premium: active in A, not in B (A: until 2025-07-05T08:00:00Z; B: expired 2025-06-05T08:00:00Z)
    /// field differences: 1
    ///   premium: expirationDate A "2025-07-05T08:00:00Z", B "2025-06-05T08:00:00Z"
    /// ```
    public var description: String {
        var lines = ["access differences: \(accessDifferences.count)"]
        lines += accessDifferences.map { "  \($0)" }
        lines.append("field differences: \(fieldDifferences.count)")
        lines += fieldDifferences.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }

    /// `{"accessDifferences": [...], "fieldDifferences": [...]}`, the `entitlements diff --json` report.
    public var jsonValue: JSONValue {
        .object([
            "accessDifferences": .array(accessDifferences.map(\.jsonValue)),
            "fieldDifferences": .array(fieldDifferences.map(\.jsonValue)),
        ])
    }
}

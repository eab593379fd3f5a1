import EntitlementKit

/// The `check` table: one row per entitlement, columns aligned, no trailing spaces.
struct CheckTable {
    let snapshot: EntitlementSnapshot
    /// The ids to list, in order; `nil` lists every entitlement.
    let ids: [String]?

    static let header = ["ID", "ACTIVE", "RENEW STATE", "EXPIRES", "STORE", "PRODUCT", "WHY"]

    var rows: [[String]] {
        let ids = self.ids ?? snapshot.all.map(\.id)
        return ids.map { id in
            guard let entitlement = snapshot[id] else {
                return [id, "no", "-", "-", "-", "-", AccessDifference.words(nil)]
            }
            return [
                id,
                entitlement.isActive ? "yes" : "no",
                entitlement.renewState.canonicalRawValue,
                entitlement.expirationDate.map(RFC3339.string(from:)) ?? "never",
                entitlement.store.canonicalRawValue,
                entitlement.productId ?? "-",
                entitlement.accessReason.description,
            ]
        }
    }

    var text: String {
        let rows = self.rows
        if rows.isEmpty { return Self.format([Self.header]) + "(no entitlements)\n" }
        return Self.format([Self.header] + rows)
    }

    private static func format(_ lines: [[String]]) -> String {
        let columnCount = header.count
        var widths = [Int](repeating: 0, count: columnCount)
        for line in lines {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        var text = ""
        for line in lines {
            var rendered = ""
            for (column, cell) in line.enumerated() {
                rendered += cell
                if column < columnCount - 1 {
                    rendered += String(repeating: " ", count: widths[column] - cell.count + 2)
                }
            }
            while rendered.hasSuffix(" ") { rendered.removeLast() }
            text += rendered + "\n"
        }
        return text
    }
}

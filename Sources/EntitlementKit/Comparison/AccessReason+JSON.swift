import Foundation

extension AccessReason {
    /// The reason in JSON reports (`diff --json`, `parity --json`, shadow reports): `{"code", "date"?,
    /// "raw"?}` — `date` for `activeUntil`, `inGracePeriod` and `expired`, `raw` for a denial whose source
    /// gave its own value; a key that does not apply is left out.
    ///
    /// ```json
    /// {"code": "activeUntil", "date": "2025-10-03T12:00:05Z"}
    /// {"code": "refunded", "raw": "REFUND_FULL"}
    /// {"code": "lifetime"}
    /// ```
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = ["code": .string(code)]
        if let date { members["date"] = .string(RFC3339.string(from: date)) }
        if case .denied(_, let raw?) = self { members["raw"] = .string(raw) }
        return .object(members)
    }
}

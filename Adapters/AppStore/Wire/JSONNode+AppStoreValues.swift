import EntitlementKit
import Foundation

extension JSONNode {
    /// An App Store date: a JSON number of milliseconds since 1970 (Xcode writes fractions, kept to the
    /// millisecond). A string, or a value outside the years a snapshot can write, is refused: a date in
    /// the wrong unit must not become an expiry thousands of years away.
    func appStoreDate() throws(DocumentError) -> Date {
        let milliseconds: Int64
        switch value {
        case .integer(let integer):
            milliseconds = integer
        case .double(let double) where double.isFinite && abs(double) < 9.0e15:
            milliseconds = Int64(double.rounded(.down))
        case .double:
            throw invalid("is not a plausible count of milliseconds since 1970")
        default:
            throw typeMismatch("a number of milliseconds since 1970")
        }
        guard RFC3339.supportedMilliseconds.contains(milliseconds) else {
            throw invalid("is not a plausible count of milliseconds since 1970")
        }
        return Date(millisecondsSince1970: milliseconds)
    }

    /// The optional member `key` as an App Store date.
    func optionalAppStoreDate(_ key: String) throws(DocumentError) -> Date? {
        try optional(key)?.appStoreDate()
    }
}

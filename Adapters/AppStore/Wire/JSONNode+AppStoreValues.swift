import EntitlementKit
import Foundation

extension JSONNode {
    /// An App Store date: a JSON number of milliseconds since 1970 (Xcode writes fractions, kept to the
    /// millisecond). A string, or a value outside the years a snapshot can write, is refused: a date in
    /// the wrong unit must not become an expiry thousands of years away.
    func appStoreDate() throws(DocumentError) -> Date {
        let date: Date?
        switch value {
        case .integer(let integer): date = EpochTime.date(millisecondsSince1970: integer)
        case .double(let double): date = EpochTime.date(millisecondsSince1970: double)
        default: throw typeMismatch("a number of milliseconds since 1970")
        }
        guard let date else { throw invalid("is not a plausible count of milliseconds since 1970") }
        return date
    }

    /// The optional member `key` as an App Store date.
    func optionalAppStoreDate(_ key: String) throws(DocumentError) -> Date? {
        try optional(key)?.appStoreDate()
    }
}

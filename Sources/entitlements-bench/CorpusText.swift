import EntitlementKit
import Foundation

/// Pieces shared by the corpus generators: JSON literals and dates written the way vendors write them.
enum CorpusText {
    /// Seconds since 1970 of 2025-09-15T10:00:00Z, the instant the benchmark evaluates at.
    static let instant: Int64 = 1_757_930_400

    /// A JSON string literal; `text` must already be valid JSON string content (escapes included).
    static func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }

    /// An RFC 3339 date in UTC, with a millisecond fraction when `milliseconds` is not zero: the core's
    /// canonical form, which is also how RevenueCat writes dates.
    static func date(_ seconds: Int64, milliseconds: Int = 0) -> String {
        quoted(RFC3339.string(from: Date(millisecondsSince1970: seconds * 1000 + Int64(milliseconds))))
    }

    /// A user id from one of the families real exports hold: plain, anonymous, e-mail-like, non-ASCII
    /// (raw UTF-8 and `\u` escapes), and with escaped quotes or slashes.
    static func userId(_ random: inout SeededGenerator, index: Int) -> String {
        switch random.below(10) {
        case 0: "$RCAnonymousID:" + random.hex(32)
        case 1: "user_\(index)@example.com"
        case 2: "usér_\(index)_ñandú"
        case 3: "\\u00e9l\\u00e8ve_\(index)"
        case 4: "team\\/\(index)\\\"qa\\\""
        case 5: "客户_\(index)"
        default: "user_\(index)_" + random.hex(8)
        }
    }

}

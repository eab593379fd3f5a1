/// Pieces shared by the corpus generators: JSON literals and dates written the way vendors write them.
enum CorpusText {
    /// Seconds since 1970 of 2025-09-15T10:00:00Z, the instant the benchmark evaluates at.
    static let instant: Int64 = 1_757_930_400

    /// A JSON string literal; `text` must already be valid JSON string content (escapes included).
    static func quoted(_ text: String) -> String {
        "\"" + text + "\""
    }

    /// An RFC 3339 date in UTC, with a millisecond fraction when `milliseconds` is not zero.
    static func date(_ seconds: Int64, milliseconds: Int = 0) -> String {
        let days = seconds / 86_400
        let remainder = seconds % 86_400
        let (year, month, day) = civil(days)
        var text =
            pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(remainder / 3600, 2) + ":"
            + pad(remainder / 60 % 60, 2) + ":" + pad(remainder % 60, 2)
        if milliseconds != 0 { text += "." + pad(Int64(milliseconds), 3) }
        return quoted(text + "Z")
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

    private static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

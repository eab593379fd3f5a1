import Foundation

/// Reads a `Retry-After` header: delay-seconds (`120`) or an HTTP-date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`, measured from `now`).
package enum RetryAfter {
    /// The wait the header asks for; nil when absent or unreadable. A date in the past is zero.
    package static func delay(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            guard let seconds = Int64(value) else { return .seconds(Int64.max / 1_000_000_000_000) }
            return .seconds(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        let interval = max(date.timeIntervalSince(now), 0)
        return .milliseconds(Int64(interval * 1000))
    }
}

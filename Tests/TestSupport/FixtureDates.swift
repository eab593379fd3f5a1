import EntitlementKit
import Foundation

/// The instant an RFC 3339 test date names: `2025-09-15T10:00:00Z`, with a fraction
/// (`2025-06-01T12:00:00.250Z`) or an offset (`2025-06-01T14:00:00+02:00`), as the vendors write them.
///
/// Test dates are literals, so one the parser refuses is a bug in the test: it stops the run and names the
/// text rather than standing in for some other instant.
public func instant(_ text: String) -> Date {
    guard let date = RFC3339.date(from: text) else { preconditionFailure("bad test date \(text)") }
    return date
}

/// Midnight UTC of `day` (`2025-06-01`), for tests that count in whole days.
public func midnight(_ day: String) -> Date {
    instant(day + "T00:00:00Z")
}

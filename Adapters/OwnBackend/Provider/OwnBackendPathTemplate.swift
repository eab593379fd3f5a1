import EntitlementKit
import EntitlementKitHTTP
import Foundation

/// A route below the base URL with one `{id}` placeholder: `customers/{id}/entitlements`.
///
/// The id is sent as one percent-encoded path segment (`a b?c` → `a%20b%3Fc`), so it can add no segment,
/// query or fragment. The template itself holds only unreserved characters (`A–Z a–z 0–9 - . _ ~`) and
/// `/` between non-empty segments, none of them `.` or `..`; a leading `/` is dropped (the route stays
/// below the base URL, which may carry a path of its own).
public struct OwnBackendPathTemplate: Sendable, Hashable, CustomStringConvertible {
    /// The template, without a leading `/`.
    public let template: String

    /// Checks `template`: exactly one `{id}`, filling a whole segment. A malformed template is
    /// ``EntitlementKit/EntitlementClientError/Code/credentialsRefused``, as a malformed base URL is (no
    /// request is ever sent to it).
    public init(_ template: String) throws(EntitlementClientError) {
        let trimmed = template.hasPrefix("/") ? String(template.dropFirst()) : template
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        let placeholders = segments.filter { $0 == "{id}" }.count
        guard placeholders == 1, trimmed.components(separatedBy: "{id}").count == 2 else {
            throw Self.refusal(template, "must hold {id} exactly once, as a whole segment")
        }
        for segment in segments where segment != "{id}" {
            guard !segment.isEmpty, segment != ".", segment != ".." else {
                throw Self.refusal(template, "has an empty, \".\" or \"..\" segment")
            }
            guard segment.utf8.allSatisfy(Self.isUnreserved) else {
                throw Self.refusal(template, "may hold only A–Z a–z 0–9 - . _ ~ and / besides {id}")
            }
        }
        self.template = trimmed
    }

    /// A template written in this module, known to be well formed.
    init(checked template: String) {
        self.template = template
    }

    /// The path for `appUserId`, its id percent-encoded as one segment.
    public func path(for appUserId: String) -> String {
        template.replacingOccurrences(of: "{id}", with: PathSegment.encode(appUserId))
    }

    /// The template.
    public var description: String { template }

    private static func refusal(_ template: String, _ reason: String) -> EntitlementClientError {
        EntitlementClientError(.credentialsRefused, "the route \(DocumentError.quoted(template)) \(reason)")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

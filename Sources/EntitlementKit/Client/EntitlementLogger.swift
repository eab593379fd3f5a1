/// Where the client and the providers send what they do. No third-party logging: a level and a handler
/// the app supplies (forward to `os.Logger`, swift-log or a test's list). Nothing secret is ever passed
/// to the handler: API keys never, app user ids only as the operations name them.
public struct EntitlementLogger: Sendable {
    /// How much is worth saying.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        /// Every request and cache decision.
        case debug
        /// What changed: a fetch, a logIn, a purchase stored.
        case info
        /// Something failed but an answer was still given (a cached answer after a failed fetch).
        case warning
        /// Something failed and no answer could be given.
        case error

        /// Orders by severity.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `debug`, `info`, `warning`, `error`.
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }
    }

    /// One line logged.
    public struct Record: Sendable, Hashable, CustomStringConvertible {
        /// Its severity.
        public let level: Level
        /// What happened.
        public let message: String

        /// `level: message`.
        public var description: String { "\(level): \(message)" }
    }

    /// The least severe level passed to the handler.
    public let minimumLevel: Level
    private let handler: (@Sendable (Record) -> Void)?

    /// A logger that passes records at `minimumLevel` or above to `handler`.
    public init(minimumLevel: Level = .info, handler: @escaping @Sendable (Record) -> Void) {
        self.minimumLevel = minimumLevel
        self.handler = handler
    }

    /// A logger that says nothing.
    public static let disabled = EntitlementLogger()

    private init() {
        minimumLevel = .error
        handler = nil
    }

    /// Passes `message` to the handler when `level` is at least ``minimumLevel``. The message is built
    /// only then.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard let handler, level >= minimumLevel else { return }
        handler(Record(level: level, message: message()))
    }
}

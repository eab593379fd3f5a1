import EntitlementKit
import EntitlementKitHTTP
import EntitlementKitOwnBackend
import Foundation
import LoopbackHTTPServer
import TestSupport
import Testing

/// Records the waits between retries instead of spending them.
final class RecordedWaits: RetrySleeper, @unchecked Sendable {
    // Appended from the provider's task, read by the test afterwards.
    private let lock = NSLock()
    private var recorded: [Duration] = []

    func sleep(for duration: Duration) async {
        lock.withLock { recorded.append(duration) }
    }

    var all: [Duration] { lock.withLock { recorded } }
}

/// Every log record, at every level.
final class RecordedLog: @unchecked Sendable {
    // Written by the provider's task, read by the test afterwards.
    private let lock = NSLock()
    private var lines: [String] = []

    var logger: EntitlementLogger {
        EntitlementLogger(minimumLevel: .debug) { [self] record in lock.withLock { lines.append(record.description) } }
    }

    var text: String { lock.withLock { lines.joined(separator: "\n") } }
}

/// What the request-headers closure was asked for, in order.
final class HeaderRequests: @unchecked Sendable {
    // Appended by the closure on the provider's task, read by the test afterwards.
    private let lock = NSLock()
    private var asked: [String] = []

    func note(_ appUserId: String) { lock.withLock { asked.append(appUserId) } }

    var appUserIds: [String] { lock.withLock { asked } }
}

/// Unified snapshot bodies a server sends, written by hand for these tests.
enum SnapshotBodies {
    /// The instant every provider in these tests judges at.
    static let now = instant("2025-09-15T12:00:00Z")

    /// A schema 2 snapshot of `appUserId` (`null` when nil) with one `premium` entitlement expiring at
    /// `expires`, as a ledger answers.
    static func snapshot(for appUserId: String?, expires: String = "2099-01-01T00:00:00Z") -> String {
        let id = appUserId.map { JSONValue.string($0).compactText } ?? "null"
        let active = (RFC3339.date(from: expires) ?? .distantPast) >= evaluatedAt
        return #"""
            {"schemaVersion": 2, "provider": "ledger", "appUserId": \#(id), "originalAppUserId": null,
             "requestDate": "2025-09-15T09:59:00Z", "evaluatedAt": "2025-09-15T10:00:00Z", "verification": "verified",
             "firstSeen": null, "managementUrl": null, "originalApplicationVersion": null, "originalPurchaseDate": null,
             "activeEntitlementIds": \#(active ? #"["premium"]"# : "[]"), "nonSubscriptionTransactions": [],
             "entitlements": {"premium": {"id": "premium", "isActive": \#(active), "willRenew": true,
               "renewState": "willRenew", "productId": "com.example.premium.monthly", "productPlanId": null,
               "periodType": "normal", "store": "appStore", "storeRaw": null, "isSandbox": false,
               "grantType": "purchase", "ownershipType": "purchased", "originalPurchaseDate": "2025-09-01T00:00:00Z",
               "firstPurchaseDate": null, "latestPurchaseDate": "2025-09-01T00:00:00Z", "trialStartDate": null,
               "expirationDate": "\#(expires)", "gracePeriodExpirationDate": null, "unsubscribeDetectedAt": null,
               "billingIssueDetectedAt": null, "refundedAt": null, "cancellationReason": null,
               "cancellationReasonRaw": null, "renewsCount": null, "lastActivatedOfferCode": null,
               "transactions": []}}}
            """#
    }

    /// The same customer in schema 1: no `verification`, no cancellation reason.
    static func schemaOneSnapshot(for appUserId: String) -> String {
        snapshot(for: appUserId)
            .replacingOccurrences(of: #""schemaVersion": 2"#, with: #""schemaVersion": 1"#)
            .replacingOccurrences(of: #" "verification": "verified","#, with: "")
            .replacingOccurrences(of: #" "cancellationReason": null,"#, with: "")
            .replacingOccurrences(of: #""cancellationReasonRaw": null, "#, with: "")
    }

    /// A logIn answer.
    static func logIn(for appUserId: String, created: Bool) -> String {
        #"{"created": \#(created), "snapshot": \#(snapshot(for: appUserId))}"#
    }

    private static let evaluatedAt = instant("2025-09-15T10:00:00Z")
}

extension OwnBackendProvider {
    /// A provider for `server` with recorded waits, judged at ``SnapshotBodies/now``.
    static func forTests(
        _ server: LoopbackHTTPServer, baseURL: URL? = nil, routes: Routes = .standard, attempts: Int = 3,
        maximumBytes: Int = 64 * 1024, waits: RecordedWaits = RecordedWaits(), logger: EntitlementLogger = .disabled,
        requestHeaders: @escaping RequestHeaders = { _ in ["Authorization": "Bearer session-token-for-tests"] }
    ) throws -> OwnBackendProvider {
        let configuration = try Configuration(
            baseURL: baseURL ?? server.baseURL, routes: routes,
            connection: HTTPConnectionOptions(
                requestTimeout: .seconds(5),
                retryPolicy: HTTPRetryPolicy(
                    maximumAttempts: attempts, initialBackoff: .milliseconds(400), maximumBackoff: .seconds(4),
                    maximumRetryAfter: .seconds(10)),
                maximumResponseBytes: maximumBytes, sleeper: waits))
        return OwnBackendProvider(
            configuration: configuration, requestHeaders: requestHeaders, logger: logger,
            clock: FixedClock(SnapshotBodies.now))
    }
}

/// The error an operation threw, or nil (an error of another type than the providers' is recorded as an
/// issue and answered as nil).
func failure<T>(_ operation: () async throws -> T) async -> EntitlementClientError? {
    do {
        _ = try await operation()
        return nil
    } catch let error as EntitlementClientError {
        return error
    } catch {
        Issue.record("not an EntitlementClientError: \(error)")
        return nil
    }
}

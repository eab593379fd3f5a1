import EntitlementKit
import EntitlementKitGooglePlay
import Foundation

private typealias Field = GooglePlayField

/// The Pub/Sub pushes Google Play would send an app's own server — real-time developer notifications in
/// their push body, each with the `Authorization: Bearer` OIDC token Google signs — made with the test
/// kit's throwaway key (``GooglePlayTestPushSigner``); ``jwks`` is what the server configures as Google's
/// keys. Ids (message ids, purchase tokens, order ids) are new on every run unless a `seed` is given, so a
/// persistent store is never fed the same pushes twice by accident.
public final class SimulatedPlayPushes: @unchecked Sendable {
    /// One push: its body (the Pub/Sub JSON), its headers and its message id.
    public struct Push: Sendable, Hashable {
        public var body: String
        public var headers: [String: String]
        public var messageId: String
    }

    /// The app's package name every notification carries.
    public let packageName: String
    /// The audience the push subscription puts in its tokens.
    public let audience: String
    /// The push subscription's service account.
    public let serviceAccountEmail: String
    private let signer: GooglePlayTestPushSigner
    /// This run's id prefix: random, or the seed's.
    private let run: String
    // Guards `count`.
    private let lock = NSLock()
    private var count = 0

    /// Pushes for `packageName`, their tokens for `audience` from `serviceAccountEmail`; `seed` makes the
    /// ids the same on every run.
    public init(
        packageName: String, audience: String, serviceAccountEmail: String, seed: UInt64? = nil
    ) throws {
        self.packageName = packageName
        self.audience = audience
        self.serviceAccountEmail = serviceAccountEmail
        signer = try GooglePlayTestPushSigner()
        run = String(seed ?? UInt64.random(in: 0...UInt64(UInt32.max)), radix: 10)
    }

    /// Google's keys as the server configures them: a JWKS document holding the test key.
    public var jwks: Data { signer.jwks }

    /// A purchase token new to this run.
    public func purchaseToken() -> String { "simulated-token-\(run)-\(next())" }

    /// A `subscriptionNotification` of `notificationType` (4 purchased, 2 renewed, 3 canceled, 13 expired…).
    public func subscription(
        _ notificationType: Int, purchaseToken: String, subscriptionId: String? = nil, at instant: Date
    ) -> Push {
        var members: [String: JSONValue] = [
            Field.version: .string("1.0"), Field.notificationType: .integer(Int64(notificationType)),
            Field.purchaseToken: .string(purchaseToken),
        ]
        if let subscriptionId { members[Field.subscriptionId] = .string(subscriptionId) }
        return push([Field.subscriptionNotification: .object(members)], at: instant)
    }

    /// A `oneTimeProductNotification` (1 purchased, 2 canceled) of `sku`.
    public func oneTimeProduct(_ notificationType: Int, purchaseToken: String, sku: String, at instant: Date) -> Push {
        push(
            [
                Field.oneTimeProductNotification: .object([
                    Field.version: .string("1.0"), Field.notificationType: .integer(Int64(notificationType)),
                    Field.purchaseToken: .string(purchaseToken), Field.sku: .string(sku),
                ])
            ], at: instant)
    }

    /// A `voidedPurchaseNotification`: `productType` 1 subscription, 2 one-time; `refundType` 1 full, 2
    /// quantity-based partial.
    public func voided(purchaseToken: String, productType: Int = 1, refundType: Int = 1, at instant: Date) -> Push {
        push(
            [
                Field.voidedPurchaseNotification: .object([
                    Field.purchaseToken: .string(purchaseToken), Field.orderId: .string("GPA.\(run)-\(next())"),
                    Field.productType: .integer(Int64(productType)), Field.refundType: .integer(Int64(refundType)),
                ])
            ], at: instant)
    }

    /// A `testNotification` (a test publish from the Play Console).
    public func test(at instant: Date) -> Push {
        push([Field.testNotification: .object([Field.version: .string("1.0")])], at: instant)
    }

    private func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    private func push(_ members: [String: JSONValue], at instant: Date) -> Push {
        var notification = members
        notification[Field.version] = .string("1.0")
        notification[Field.packageName] = .string(packageName)
        notification[Field.eventTimeMillis] = .string(String(instant.millisecondsSince1970))
        let messageId = "\(run)\(String(format: "%06d", next()))"
        let body = JSONValue.object([
            Field.message: .object([
                Field.data: .string(Data(JSONValue.object(notification).compactText.utf8).base64EncodedString()),
                Field.messageId: .string(messageId), Field.publishTime: .string(RFC3339.string(from: instant)),
                Field.attributes: .object([:]),
            ]),
            Field.subscription: .string("projects/simulated/subscriptions/play-rtdn"),
        ])
        let header = signer.authorizationHeader(audience: audience, email: serviceAccountEmail, issuedAt: instant)
        return Push(body: body.compactText, headers: ["Authorization": header], messageId: messageId)
    }
}

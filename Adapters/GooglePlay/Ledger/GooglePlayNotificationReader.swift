import EntitlementKit
import EntitlementKitLedger
import Foundation

/// Reads a Google Play real-time developer notification as Pub/Sub pushes it:
/// `{"message": {"data": base64, "messageId", "publishTime", …}, "subscription"}`, `data` holding the
/// `DeveloperNotification` JSON. With a push authentication, the push's token is checked before anything it
/// says is read; without one, nothing it says is taken as fact: a voided purchase asks for a refresh.
struct GooglePlayNotificationReader {
    let packageName: String
    var pushAuthentication: GooglePlayPushAuthentication?

    func read(_ notification: LedgerNotification) throws(LedgerRefusal) -> LedgerReading {
        do {
            return try readChecked(notification.body) { messageId throws(LedgerRefusal) in
                try pushAuthentication?.authenticate(
                    headers: notification.headers, receivedAt: notification.receivedAt, messageId: messageId)
            }
        } catch let error as DocumentError {
            throw LedgerRefusal(.malformedBody, error.description, documentError: error)
        } catch let refusal as LedgerRefusal {
            throw refusal
        } catch {
            throw LedgerRefusal(.malformedBody, "\(error)")
        }
    }

    private func readChecked(
        _ body: Data, authenticate: (String) throws(LedgerRefusal) -> Void
    ) throws -> LedgerReading {
        let push = try JSONNode(parsing: body)
        let message = try push.required(Field.message)
        let messageId = try message.required(Field.messageId).nonEmptyIdentifier()
        try authenticate(messageId)
        let dataNode = try message.required(Field.data)
        guard let decoded = Data(base64Encoded: try dataNode.string()) else {
            throw dataNode.invalid("is not base64")
        }
        let notification: JSONNode
        do {
            notification = JSONNode(try JSONValue.parse(decoded), path: dataNode.path)
        } catch {
            throw DocumentError(kind: error.kind, path: dataNode.path, reason: "does not decode to JSON: \(error)")
        }
        guard notification.kind == .object else { throw notification.typeMismatch("an object") }
        let packageNode = try notification.required(Field.packageName)
        let package = try packageNode.string()
        guard package == packageName else {
            throw LedgerRefusal(
                .packageName,
                "the notification is for package \(DocumentError.quoted(package)), not the configured "
                    + DocumentError.quoted(packageName))
        }
        func reading(_ effect: LedgerReading.Effect) -> LedgerReading {
            LedgerReading(notificationId: messageId, environment: nil, effect: effect)
        }
        if let subscription = try notification.optional(Field.subscriptionNotification) {
            let token = try subscription.required(Field.purchaseToken).nonEmptyIdentifier()
            let productId = try subscription.optional(Field.subscriptionId)?.identifier()
            return reading(.refreshNeeded(purchaseToken: token, productId: productId))
        }
        if let product = try notification.optional(Field.oneTimeProductNotification) {
            let token = try product.required(Field.purchaseToken).nonEmptyIdentifier()
            let productId = try product.optional(Field.sku)?.identifier()
            return reading(.refreshNeeded(purchaseToken: token, productId: productId))
        }
        if let voided = try notification.optional(Field.voidedPurchaseNotification) {
            let token = try voided.required(Field.purchaseToken).nonEmptyIdentifier()
            if try voided.optional(Field.refundType)?.integer() == 2 {
                // A quantity-based partial refund leaves the rest of the purchase: fetch what remains.
                return reading(.refreshNeeded(purchaseToken: token, productId: nil))
            }
            let eventTime = try Self.eventTime(notification.required(Field.eventTimeMillis))
            // An unauthenticated push could be anyone's: the server checks with Google before anything is voided.
            guard pushAuthentication != nil else {
                return reading(.refreshNeeded(purchaseToken: token, productId: nil))
            }
            return reading(.records([GooglePlayLedgerRecords.voided(token: token, at: eventTime)]))
        }
        if try notification.optional(Field.testNotification) != nil {
            return reading(.noChange(reason: "a test notification"))
        }
        return reading(.noChange(reason: "a notification of a kind this source does not read"))
    }

    /// `eventTimeMillis`: a long, sent as a JSON string or number.
    private static func eventTime(_ node: JSONNode) throws(DocumentError) -> Date {
        let milliseconds: Int64
        switch node.value {
        case .integer(let value): milliseconds = value
        case .string(let text):
            guard let value = Int64(text) else { throw node.invalid("is not a count of milliseconds") }
            milliseconds = value
        default: throw node.typeMismatch("milliseconds since 1970, as a number or a string of digits")
        }
        guard let date = EpochTime.date(millisecondsSince1970: milliseconds) else {
            throw node.invalid("is not a plausible count of milliseconds since 1970")
        }
        return date
    }
}

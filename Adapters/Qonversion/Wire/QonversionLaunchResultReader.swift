import EntitlementKit

/// Reads the v1 launch result, the body `checkEntitlements` is fed from in the mobile SDKs:
/// `{"success": true, "data": {"uid": …, "timestamp": …, "permissions": [ … ]}}`.
///
/// Units: every timestamp is whole seconds since the epoch; `active` is `0`/`1`; `renew_state` is an
/// integer code. The product catalogue, offerings and `products_permissions` are not entitlements and
/// are not read.
enum QonversionLaunchResultReader {
    static func read(_ root: JSONNode) throws(DocumentError) -> QonversionWireDocument {
        try root.requireObject()
        if let success = try root.optional("success"), try success.bool() == false {
            throw DocumentError(
                kind: .vendorError, path: success.path, offending: success.value,
                reason: "means the request failed\(serverMessage(root))")
        }
        let data = try root.required("data")
        try data.requireObject()
        // Both SDKs read an absent list as "no entitlements" (it grants nothing); `null` or any other
        // type is malformed.
        let permissions: [JSONNode]
        if let list = data.member("permissions") {
            guard !list.isNull else { throw list.typeMismatch("an array") }
            permissions = try list.elements()
        } else {
            permissions = []
        }

        var entitlements: [QonversionWireEntitlement] = []
        entitlements.reserveCapacity(permissions.count)
        for element in permissions {
            entitlements.append(try entitlement(element))
        }
        return QonversionWireDocument(
            userId: try data.optionalIdentifier("uid"),
            serverTime: try data.optionalEpochSeconds("timestamp"),
            originalApplicationVersion: try data.optionalObject("apple_extra")?.optional(
                "original_application_version")?.string(),
            entitlements: entitlements
        )
    }

    static func entitlement(_ element: JSONNode) throws(DocumentError) -> QonversionWireEntitlement {
        try element.requireObject()
        let (id, idNode) = try element.qonversionEntitlementId()
        var entitlement = QonversionWireEntitlement(
            id: id,
            idNode: idNode,
            activeFlag: try element.required("active").qonversionFlag(),
            productId: try element.optionalIdentifier("associated_product"),
            renewState: try element.optional("renew_state").map { $0.qonversionRenewState() },
            source: try element.optionalEnumerationString("source"),
            currentPeriodType: try element.optionalEnumerationString("current_period_type"),
            grantType: try element.optionalEnumerationString("grant_type"),
            startedDate: try element.optionalEpochSeconds("started_timestamp"),
            expirationDate: try element.optionalEpochSeconds("expiration_timestamp"),
            trialStartDate: try element.optionalEpochSeconds("trial_start_timestamp"),
            firstPurchaseDate: try element.optionalEpochSeconds("first_purchase_timestamp"),
            lastPurchaseDate: try element.optionalEpochSeconds("last_purchase_timestamp"),
            autoRenewDisableDate: try element.optionalEpochSeconds("auto_renew_disable_timestamp"),
            renewsCount: try element.optionalCount("renews_count"),
            lastActivatedOfferCode: try element.optionalIdentifier("last_activated_offer_code")
        )
        if let list = try element.optional("store_transactions") {
            let transactions = try list.elements()
            entitlement.transactions.reserveCapacity(transactions.count)
            for transaction in transactions {
                entitlement.transactions.append(try Self.transaction(transaction))
            }
        }
        return entitlement
    }

    static func transaction(_ element: JSONNode) throws(DocumentError) -> QonversionWireTransaction {
        try element.requireObject()
        return QonversionWireTransaction(
            transactionId: try element.optionalTransactionIdentifier("transaction_id"),
            originalTransactionId: try element.optionalTransactionIdentifier("original_transaction_id"),
            offerCode: try element.optionalIdentifier("offer_code"),
            transactionDate: try element.optionalEpochSeconds("transaction_timestamp"),
            expirationDate: try element.optionalEpochSeconds("expiration_timestamp"),
            // `…_revoke_…`, not `…_revocation_…`: the key the server and both SDKs use.
            revokeDate: try element.optionalEpochSeconds("transaction_revoke_timestamp"),
            environment: try element.optionalEnumerationString("environment"),
            ownershipType: try element.optionalEnumerationString("ownership_type"),
            type: try element.optionalEnumerationString("type")
        )
    }

    /// `: <message>` when a failed envelope carries a readable message, for the error's reason.
    private static func serverMessage(_ root: JSONNode) -> String {
        for container in ["data", "error"] {
            if case .string(let message)? = root.value[container]?["message"], !message.isEmpty {
                return ": " + message
            }
        }
        return ""
    }
}

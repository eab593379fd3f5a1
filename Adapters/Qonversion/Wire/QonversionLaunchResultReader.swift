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
        if let success = try root.optional(Field.success), try success.bool() == false {
            throw DocumentError(
                kind: .vendorError, path: success.path, offending: success.value,
                reason: "means the request failed\(serverMessage(root))")
        }
        let data = try root.required(Field.data)
        try data.requireObject()
        // Both SDKs read an absent list as "no entitlements" (it grants nothing); `null` or any other
        // type is malformed.
        let permissions: [JSONNode]
        if let list = data.member(Field.permissions) {
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
            userId: try data.optionalIdentifier(Field.uid),
            serverTime: try data.optionalEpochSeconds(Field.timestamp),
            originalApplicationVersion: try data.optionalObject(Field.appleExtra)?.optional(
                Field.originalApplicationVersion)?.string(),
            entitlements: entitlements
        )
    }

    static func entitlement(_ element: JSONNode) throws(DocumentError) -> QonversionWireEntitlement {
        try element.requireObject()
        let (id, idNode) = try element.qonversionEntitlementId()
        var entitlement = QonversionWireEntitlement(
            id: id,
            idNode: idNode,
            activeFlag: try element.required(Field.active).qonversionFlag(),
            productId: try element.optionalIdentifier(Field.associatedProduct),
            renewState: try element.optional(Field.renewState).map { $0.qonversionRenewState() },
            source: try element.optionalEnumerationString(Field.source),
            currentPeriodType: try element.optionalEnumerationString(Field.currentPeriodType),
            grantType: try element.optionalEnumerationString(Field.grantType),
            startedDate: try element.optionalEpochSeconds(Field.startedTimestamp),
            expirationDate: try element.optionalEpochSeconds(Field.expirationTimestamp),
            trialStartDate: try element.optionalEpochSeconds(Field.trialStartTimestamp),
            firstPurchaseDate: try element.optionalEpochSeconds(Field.firstPurchaseTimestamp),
            lastPurchaseDate: try element.optionalEpochSeconds(Field.lastPurchaseTimestamp),
            autoRenewDisableDate: try element.optionalEpochSeconds(Field.autoRenewDisableTimestamp),
            renewsCount: try element.optionalCount(Field.renewsCount),
            lastActivatedOfferCode: try element.optionalIdentifier(Field.lastActivatedOfferCode)
        )
        if let list = try element.optional(Field.storeTransactions) {
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
            transactionId: try element.optionalTransactionIdentifier(Field.transactionId),
            originalTransactionId: try element.optionalTransactionIdentifier(Field.originalTransactionId),
            offerCode: try element.optionalIdentifier(Field.offerCode),
            transactionDate: try element.optionalEpochSeconds(Field.transactionTimestamp),
            expirationDate: try element.optionalEpochSeconds(Field.expirationTimestamp),
            // `…_revoke_…`, not `…_revocation_…`: the key the server and both SDKs use.
            revokeDate: try element.optionalEpochSeconds(Field.transactionRevokeTimestamp),
            environment: try element.optionalEnumerationString(Field.environment),
            ownershipType: try element.optionalEnumerationString(Field.ownershipType),
            type: try element.optionalEnumerationString(Field.type)
        )
    }

    /// `: <message>` when a failed envelope carries a readable message, for the error's reason.
    private static func serverMessage(_ root: JSONNode) -> String {
        for container in [Field.data, Field.error] {
            if case .string(let message)? = root.value[container]?[Field.message], !message.isEmpty {
                return ": " + message
            }
        }
        return ""
    }
}

import Foundation

// Snapshot → JSON: the canonical form of unified-snapshot.md. Every key is written, `null` when unset, except
// the optional `aliases`, written only when set.

extension EntitlementSnapshot {
    /// The snapshot as a JSON value in the unified form (schema version 3).
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "schemaVersion": .integer(Int64(Self.schemaVersion)),
            "provider": .string(provider.rawValue),
            "appUserId": appUserId.json,
            "originalAppUserId": originalAppUserId.json,
            "requestDate": requestDate.json,
            "evaluatedAt": .string(RFC3339.string(from: evaluatedAt)),
            "verification": .string(verification.rawValue),
            "firstSeen": firstSeen.json,
            "managementUrl": managementURL.map { .string($0.absoluteString) } ?? .null,
            "originalApplicationVersion": originalApplicationVersion.json,
            "originalPurchaseDate": originalPurchaseDate.json,
            "entitlements": .object(entitlements.mapValues(\.jsonValue)),
            "activeEntitlementIds": .array(activeEntitlementIds.map(JSONValue.string)),
            "nonSubscriptionTransactions": .array(nonSubscriptionTransactions.map(\.jsonValue)),
        ]
        // The one optional member: only a ledger's export and replay state the customer's other ids.
        if let aliases { members["aliases"] = .array(aliases.map(JSONValue.string)) }
        return .object(members)
    }

    /// The canonical JSON text: sorted keys, every key present, UTC dates with `Z`.
    ///
    /// - Parameter compact: one line without spaces (JSON Lines) instead of the pretty form.
    public func canonicalJSON(compact: Bool = false) -> String {
        String(decoding: CanonicalJSONEncoder.encode(self, pretty: !compact), as: UTF8.self)
    }

    /// The compact canonical text followed by `\n`: one JSON Lines record.
    package func canonicalJSONLine() -> Data {
        CanonicalJSONEncoder.encodeLine(self)
    }

    /// ``canonicalJSON(compact:)`` as UTF-8 bytes.
    public func canonicalJSONData(compact: Bool = false) -> Data {
        CanonicalJSONEncoder.encodeData(self, pretty: !compact)
    }
}

extension Entitlement {
    /// The entitlement as a JSON value in the unified form.
    public var jsonValue: JSONValue {
        .object([
            "id": .string(id),
            "isActive": .bool(isActive),
            "productId": productId.json,
            "productPlanId": productPlanId.json,
            "renewState": .string(renewState.canonicalRawValue),
            "willRenew": .bool(willRenew),
            "periodType": .string(periodType.canonicalRawValue),
            "store": .string(store.canonicalRawValue),
            "storeRaw": storeRaw.json,
            "isSandbox": .bool(isSandbox),
            "grantType": .string(grantType.canonicalRawValue),
            "ownershipType": .string(ownershipType.canonicalRawValue),
            "originalPurchaseDate": originalPurchaseDate.json,
            "firstPurchaseDate": firstPurchaseDate.json,
            "latestPurchaseDate": latestPurchaseDate.json,
            "trialStartDate": trialStartDate.json,
            "expirationDate": expirationDate.json,
            "gracePeriodExpirationDate": gracePeriodExpirationDate.json,
            "unsubscribeDetectedAt": unsubscribeDetectedAt.json,
            "billingIssueDetectedAt": billingIssueDetectedAt.json,
            "refundedAt": refundedAt.json,
            "cancellationReason": cancellationReason.map { .string($0.canonicalRawValue) } ?? .null,
            "cancellationReasonRaw": cancellationReasonRaw.json,
            "denial": denial?.jsonValue ?? .null,
            "renewsCount": renewsCount.map { .integer(Int64($0)) } ?? .null,
            "lastActivatedOfferCode": lastActivatedOfferCode.json,
            "transactions": .array(transactions.map(\.jsonValue)),
        ])
    }
}

extension Denial {
    /// `{"code", "raw"}`, as the unified form writes an entitlement's `denial`: `raw` always present.
    public var jsonValue: JSONValue {
        .object(["code": .string(code.canonicalRawValue), "raw": raw.json])
    }
}

extension Transaction {
    /// The transaction as a JSON value in the unified form.
    public var jsonValue: JSONValue {
        .object([
            "transactionId": transactionId.json,
            "originalTransactionId": originalTransactionId.json,
            "productId": productId.json,
            "type": .string(type.canonicalRawValue),
            "transactionDate": transactionDate.json,
            "expirationDate": expirationDate.json,
            "revocationDate": revocationDate.json,
            "environment": .string(environment.canonicalRawValue),
            "ownershipType": .string(ownershipType.canonicalRawValue),
            "offerCode": offerCode.json,
            "store": .string(store.canonicalRawValue),
        ])
    }
}

extension Optional where Wrapped == String {
    fileprivate var json: JSONValue { map(JSONValue.string) ?? .null }
}

extension Optional where Wrapped == Date {
    fileprivate var json: JSONValue { map { .string(RFC3339.string(from: $0)) } ?? .null }
}

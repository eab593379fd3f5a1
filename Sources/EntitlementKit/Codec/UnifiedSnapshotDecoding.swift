import Foundation

// JSON → snapshot, strictly: our own format has no excuse for missing keys or contradictions, and a
// snapshot read back from a cache decides access just as a fresh one does.

extension EntitlementSnapshot {
    /// Reads a snapshot in the unified JSON form.
    ///
    /// Every key of the schema must be present (`null` where optional). Refused with a located
    /// ``DocumentError``: another `schemaVersion`, wrong JSON types, malformed dates, an entitlement
    /// whose key differs from its `id`, `willRenew` that contradicts `renewState`, an entitlement active
    /// after its own expiry, and `activeEntitlementIds` that contradict the entitlements' `isActive`. An
    /// enumeration string the schema does not list reads as `.unknown`, as it does from a vendor.
    ///
    /// In schema 3 every entitlement states its `denial` (`{"code", "raw"}` or `null`), and `isActive` must
    /// be what the denial and the dates give. Schema 1 and 2 documents have no `denial`: it reads as `null`,
    /// except where `isActive` is `false` although the date rule alone would grant access at `evaluatedAt`
    /// (no expiration date, or `evaluatedAt` at or before it) — only the backend's flag can have said so,
    /// and the document does not say why: `{"code": "unknown", "raw": null}`.
    public init(json root: JSONNode) throws(DocumentError) {
        let versionNode = try root.required(.schemaVersion)
        let version = try versionNode.integer()
        guard Self.readableSchemaVersions.contains(version) else {
            throw versionNode.invalid(
                "is not a supported schemaVersion (this version reads \(Self.readableSchemaVersionsText))"
            )
        }
        // Schema 1 predates `verification` and the cancellation reason, 2 the denial: a key of a later
        // version there is a mix-up of versions, refused like any contradiction; in 3 every key is
        // required, as always.
        let schema = SchemaKeys(version: version)
        let providerNode = try root.required(.provider)
        guard let provider = try providerNode.identifier() else {
            throw providerNode.invalid("must name the adapter that made the snapshot")
        }
        let evaluatedAt = try root.required(.evaluatedAt).date()
        let verification = try schema.verification(in: root)
        var entitlements: [Entitlement] = []
        for (key, node) in try root.required(.entitlements).members() {
            let entitlement = try Entitlement(json: node, evaluatedAt: evaluatedAt, schema: schema)
            guard entitlement.id == key else {
                throw DocumentError(
                    kind: .inconsistent, path: node.path.appending(UnifiedSchemaKey.id.text),
                    value: JSONWriter.quoted(entitlement.id),
                    reason: "differs from the entitlement's key \(JSONPath.quotedKey(key))")
            }
            entitlements.append(entitlement)
        }
        self.init(
            provider: ProviderID(rawValue: provider),
            appUserId: try root.nullable(.appUserId)?.string(),
            originalAppUserId: try root.nullable(.originalAppUserId)?.string(),
            requestDate: try root.nullable(.requestDate)?.date(),
            evaluatedAt: evaluatedAt,
            verification: verification,
            firstSeen: try root.nullable(.firstSeen)?.date(),
            managementURL: try root.nullable(.managementUrl)?.absoluteURL(),
            originalApplicationVersion: try root.nullable(.originalApplicationVersion)?.string(),
            originalPurchaseDate: try root.nullable(.originalPurchaseDate)?.date(),
            entitlements: entitlements,
            nonSubscriptionTransactions: try root.required(.nonSubscriptionTransactions).elements().map {
                (node) throws(DocumentError) in try Transaction(json: node)
            }
        )
        aliases = try schema.aliases(in: root, appUserId: appUserId)
        let listed = try root.required(.activeEntitlementIds)
        let listedIds = try listed.elements().map { (node) throws(DocumentError) in try node.string() }
        guard listedIds.sorted() == activeEntitlementIds.sorted() else {
            throw DocumentError(
                kind: .inconsistent, path: listed.path, offending: listed.value,
                reason: "contradicts the entitlements' isActive (\(activeEntitlementIds))")
        }
    }

    /// `1, 2 and 3`.
    private static var readableSchemaVersionsText: String {
        let versions = readableSchemaVersions.map(String.init)
        guard let last = versions.last, versions.count > 1 else { return versions.joined() }
        return versions.dropLast().joined(separator: ", ") + " and " + last
    }

    /// Reads a snapshot from unified JSON bytes.
    public init(json data: Data) throws(DocumentError) {
        try self.init(json: JSONNode(parsing: data))
    }
}

extension Entitlement {
    /// Reads one entitlement in the unified JSON form, judged at `evaluatedAt` (the snapshot's); see
    /// ``EntitlementSnapshot/init(json:)-(JSONNode)`` for how `isActive` is read.
    public init(json node: JSONNode, evaluatedAt: Date) throws(DocumentError) {
        try self.init(
            json: node, evaluatedAt: evaluatedAt, schema: SchemaKeys(version: Int64(EntitlementSnapshot.schemaVersion)))
    }

    fileprivate init(json node: JSONNode, evaluatedAt: Date, schema: SchemaKeys) throws(DocumentError) {
        let (cancellationReason, cancellationReasonRaw) = try schema.cancellationReason(in: node)
        self.init(
            id: try node.required(.id).string(),
            productId: try node.nullable(.productId)?.string(),
            productPlanId: try node.nullable(.productPlanId)?.string(),
            renewState: RenewState(canonicalRawValue: try node.required(.renewState).string()),
            periodType: PeriodType(canonicalRawValue: try node.required(.periodType).string()),
            store: Store(canonicalRawValue: try node.required(.store).string()),
            storeRaw: try node.nullable(.storeRaw)?.string(),
            isSandbox: try node.required(.isSandbox).bool(),
            grantType: GrantType(canonicalRawValue: try node.required(.grantType).string()),
            ownershipType: OwnershipType(canonicalRawValue: try node.required(.ownershipType).string()),
            originalPurchaseDate: try node.nullable(.originalPurchaseDate)?.date(),
            firstPurchaseDate: try node.nullable(.firstPurchaseDate)?.date(),
            latestPurchaseDate: try node.nullable(.latestPurchaseDate)?.date(),
            trialStartDate: try node.nullable(.trialStartDate)?.date(),
            expirationDate: try node.nullable(.expirationDate)?.date(),
            gracePeriodExpirationDate: try node.nullable(.gracePeriodExpirationDate)?.date(),
            unsubscribeDetectedAt: try node.nullable(.unsubscribeDetectedAt)?.date(),
            billingIssueDetectedAt: try node.nullable(.billingIssueDetectedAt)?.date(),
            refundedAt: try node.nullable(.refundedAt)?.date(),
            cancellationReason: cancellationReason,
            cancellationReasonRaw: cancellationReasonRaw,
            renewsCount: try node.nullable(.renewsCount).map { (count) throws(DocumentError) -> Int in
                let value = try count.integer()
                guard value >= 0, value <= Int64(Int32.max) else { throw count.invalid("is not a count") }
                return Int(value)
            },
            lastActivatedOfferCode: try node.nullable(.lastActivatedOfferCode)?.string(),
            transactions: try node.required(.transactions).elements().map { (node) throws(DocumentError) in
                try Transaction(json: node)
            },
            denial: try schema.denial(in: node),
            at: evaluatedAt
        )
        let active = try node.required(.isActive)
        let datesGrantAccess = Self.isActive(expirationDate: expirationDate, denial: nil, at: evaluatedAt)
        if try active.bool() {
            if let denial {
                throw DocumentError(
                    kind: .inconsistent, path: active.path, value: "true",
                    reason: "contradicts denial \(denial.jsonValue.compactText), which grants nothing")
            }
            if !datesGrantAccess, let expirationDate {
                throw DocumentError(
                    kind: .inconsistent, path: active.path, value: "true",
                    reason:
                        "contradicts expirationDate \(RFC3339.string(from: expirationDate)), which is before evaluatedAt"
                )
            }
        } else if datesGrantAccess, denial == nil {
            guard schema.version < 3 else {
                throw DocumentError(
                    kind: .inconsistent, path: active.path, value: "false",
                    reason: "contradicts denial null and an expiry not yet passed, which grant access")
            }
            // Inactive although the dates grant access: only the backend's flag can have said so, and a
            // document written before schema 3 does not say why.
            denial = Denial(.unknown)
        }
        let willRenewNode = try node.required(.willRenew)
        guard try willRenewNode.bool() == willRenew else {
            throw DocumentError(
                kind: .inconsistent, path: willRenewNode.path, offending: willRenewNode.value,
                reason: "contradicts renewState \(JSONWriter.quoted(renewState.rawValue))")
        }
    }
}

extension Transaction {
    /// Reads one transaction in the unified JSON form.
    public init(json node: JSONNode) throws(DocumentError) {
        self.init(
            transactionId: try node.nullable(.transactionId)?.string(),
            originalTransactionId: try node.nullable(.originalTransactionId)?.string(),
            productId: try node.nullable(.productId)?.string(),
            type: TransactionType(canonicalRawValue: try node.required(.type).string()),
            transactionDate: try node.nullable(.transactionDate)?.date(),
            expirationDate: try node.nullable(.expirationDate)?.date(),
            revocationDate: try node.nullable(.revocationDate)?.date(),
            environment: Environment(canonicalRawValue: try node.required(.environment).string()),
            ownershipType: OwnershipType(canonicalRawValue: try node.required(.ownershipType).string()),
            offerCode: try node.nullable(.offerCode)?.string(),
            store: Store(canonicalRawValue: try node.required(.store).string())
        )
    }
}

/// The keys that differ between the readable schema versions.
private struct SchemaKeys {
    var version: Int64

    /// `denial`: required (nullable) in 3; absent in 1 and 2, where it reads as `nil` (the entitlement's
    /// reader then infers a denial from `isActive`).
    func denial(in entitlement: JSONNode) throws(DocumentError) -> Denial? {
        guard version >= 3 else {
            try refuse(.denial, in: entitlement, since: 3)
            return nil
        }
        guard let node = try entitlement.nullable(.denial) else { return nil }
        // A code this version does not list keeps its spelling (written back as `unknown`); it denies all
        // the same.
        return Denial(
            Denial.Code(rawValue: try node.required(.code).string()), raw: try node.nullable(.raw)?.string())
    }

    /// `aliases`: optional from 3 (absent or `null` reads as `nil`), a schema 3 key in 1 and 2. Strings sorted by
    /// their bytes, each once and none the snapshot's own `appUserId`, so the canonical form writes back the
    /// same bytes and a join on aliases never finds one id twice.
    func aliases(in root: JSONNode, appUserId: String?) throws(DocumentError) -> [String]? {
        guard version >= 3 else {
            try refuse(.aliases, in: root, since: 3)
            return nil
        }
        guard let node = try root.optional(.aliases) else { return nil }
        var aliases: [String] = []
        for element in try node.elements() {
            let alias = try element.string()
            if alias.isEmpty { throw element.invalid("is not an app user id") }
            if alias.utf8.elementsEqual((appUserId ?? "").utf8) {
                throw DocumentError(
                    kind: .inconsistent, path: element.path, offending: element.value,
                    reason: "is the snapshot's own appUserId")
            }
            if let previous = aliases.last, !previous.utf8.lexicographicallyPrecedes(alias.utf8) {
                throw DocumentError(
                    kind: .inconsistent, path: element.path, offending: element.value,
                    reason: "is not after \(JSONWriter.quoted(previous)): aliases are sorted by bytes, each once")
            }
            aliases.append(alias)
        }
        return aliases
    }

    /// `verification`: required from 2; absent in 1, where it reads as `notRequested`.
    func verification(in root: JSONNode) throws(DocumentError) -> SnapshotVerification {
        guard version >= 2 else {
            try refuse(.verification, in: root, since: 2)
            return .notRequested
        }
        let node = try root.required(.verification)
        let text = try node.string()
        guard let verification = SnapshotVerification(rawValue: text) else {
            // Not an open enumeration: a snapshot claiming a verification this version cannot name must not
            // pass as verified or as unverified.
            throw node.invalid(
                "is not a verification (\(SnapshotVerification.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return verification
    }

    /// `cancellationReason` and `cancellationReasonRaw`: required (nullable) from 2; absent in 1 (`null`).
    func cancellationReason(in entitlement: JSONNode) throws(DocumentError) -> (CancellationReason?, String?) {
        guard version >= 2 else {
            try refuse(.cancellationReason, in: entitlement, since: 2)
            try refuse(.cancellationReasonRaw, in: entitlement, since: 2)
            return (nil, nil)
        }
        let reason = try entitlement.nullable(.cancellationReason)?.string()
        let raw = try entitlement.nullable(.cancellationReasonRaw)?.string()
        return (reason.map(CancellationReason.init(canonicalRawValue:)), raw)
    }

    private func refuse(_ key: UnifiedSchemaKey, in node: JSONNode, since schema: Int) throws(DocumentError) {
        if let member = node.member(key) {
            throw DocumentError(
                kind: .inconsistent, path: member.path, offending: member.value,
                reason: "is a schema \(schema) key in a schemaVersion \(version) document")
        }
    }
}

// The unified form's members are named by `UnifiedSchemaKey`, the names its writer writes.
extension JSONNode {
    fileprivate func required(_ key: UnifiedSchemaKey) throws(DocumentError) -> JSONNode {
        try required(key.text)
    }

    fileprivate func optional(_ key: UnifiedSchemaKey) throws(DocumentError) -> JSONNode? {
        try optional(key.text)
    }

    fileprivate func member(_ key: UnifiedSchemaKey) -> JSONNode? {
        member(key.text)
    }

    /// The member `key`, which must be present but may be `null` (then `nil`).
    fileprivate func nullable(_ key: UnifiedSchemaKey) throws(DocumentError) -> JSONNode? {
        let value = try optional(key)
        if value == nil, member(key) == nil {
            throw DocumentError(
                kind: .missingField, path: path.appending(key.text),
                reason: "is required (null when unknown) but missing")
        }
        return value
    }
}

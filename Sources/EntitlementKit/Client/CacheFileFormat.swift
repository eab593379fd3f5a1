import EntitlementKitCrypto
import Foundation

/// The bytes of the directory cache's files, and reading them back strictly.
///
/// A file is three parts: a header line naming the kind and schema
/// (`EntitlementKit cache entry, schema 3`), a line with the SHA-256 of the payload
/// (`sha256 <64 lowercase hex digits>`), and the payload, a JSON object on one line. The digest makes every
/// truncation and every changed byte detectable — a flipped digit in an expiration date is still valid
/// JSON — so a damaged file is treated as absent instead of granting access it never held.
enum CacheFileFormat {
    /// The schema this version writes: the unified snapshot's. Schema 2 held unified schema 2 snapshots
    /// (`verification`, the cancellation reason), schema 3 holds schema 3 ones (`denial`); nothing else
    /// changed, so a schema 1 or 2 file written before is still read (its snapshot as a unified document of
    /// that schema) rather than refetched. A file with any other schema is ignored.
    static let schemaVersion = 3

    /// The schemas this version reads.
    static let readableSchemaVersions = 1...3

    enum Kind: String {
        case entry
        case device
        /// `ShadowTallyStore`'s file.
        case shadowTally = "shadow tally"
    }

    /// The state of the device file: the stored app user id and the trusted-instant floor, and what a cut-over
    /// pair of parts needs to change the device's customer as one (see ``CutOverCache``).
    ///
    /// `sequence`, `counterpart` and `stage` are absent from files written before them and read as 0 and none;
    /// a version that does not know them ignores them, so the schema stays the same.
    struct DeviceState: Equatable {
        var appUserId: String?
        var trustedFloor: Date?
        /// Bumped by every change of the stored id: of a cut-over pair's two parts the one with the higher
        /// sequence holds the device's customer (the other may be behind after a writer was killed between them).
        var sequence: Int64 = 0
        /// The other part's id, written in the same step as this part's (by a cut-over pair write), with that
        /// part's namespace; `nil` after a write of this part alone.
        var counterpart: Counterpart?
        /// The provider configuration this part last launched under, and whether purchases were synced since.
        var stage: Stage?
    }

    /// The id the other part of a cut-over pair got in the same write.
    struct Counterpart: Equatable {
        /// The other part's ``EntitlementProvider/storageNamespace``.
        var namespace: String
        var appUserId: String
    }

    /// The configuration a part last launched under (see ``EntitlementClient/needsPurchaseSync``).
    struct Stage: Equatable {
        var configuration: LaunchConfiguration
        /// Whether a sync or restore succeeded under it.
        var purchasesSynced: Bool
    }

    static func header(_ kind: Kind, schema: Int = schemaVersion) -> String {
        "EntitlementKit cache \(kind.rawValue), schema \(schema)\n"
    }

    /// A sealed file: header, digest line, payload.
    static func seal(_ payload: JSONValue, as kind: Kind) -> Data {
        let body = Array(payload.compactText.utf8)
        var bytes = Array(header(kind).utf8)
        bytes += Array("sha256 \(SHA256.hexDigest(of: body))\n".utf8)
        bytes += body
        return Data(bytes)
    }

    /// The payload of a sealed file of `kind`, or `nil` when the header, the digest or the JSON is wrong.
    static func unseal(_ data: Data, as kind: Kind) -> JSONNode? {
        let bytes = [UInt8](data)
        guard
            let schema = readableSchemaVersions.first(where: {
                bytes.starts(with: Array(header(kind, schema: $0).utf8))
            })
        else { return nil }
        let headerBytes = Array(Self.header(kind, schema: schema).utf8)
        let digestPrefix = Array("sha256 ".utf8)
        let digestStart = headerBytes.count
        let bodyStart = digestStart + digestPrefix.count + 64 + 1
        guard bytes.count >= bodyStart,
            bytes[digestStart..<(digestStart + digestPrefix.count)].elementsEqual(digestPrefix),
            bytes[bodyStart - 1] == 0x0A
        else { return nil }
        let digest = bytes[(digestStart + digestPrefix.count)..<(bodyStart - 1)]
        let body = bytes[bodyStart...]
        guard digest.elementsEqual(SHA256.hexDigest(of: body).utf8) else { return nil }
        guard let root = try? JSONNode(parsing: Data(body)),
            (try? root.required("schemaVersion").integer()) == Int64(schema)
        else { return nil }
        return root
    }

    /// The member `key` of `node`, which must be present but may be `null` (then `nil`).
    private static func nullable(_ key: String, in node: JSONNode) throws(DocumentError) -> JSONNode? {
        guard node.member(key) != nil else {
            throw DocumentError(kind: .missingField, path: node.path.appending(key), reason: "is required but missing")
        }
        return try node.optional(key)
    }

    // MARK: Entries

    static func entryFile(_ entry: EntitlementCacheEntry, for appUserId: String) -> Data {
        seal(
            .object([
                "schemaVersion": .integer(Int64(schemaVersion)),
                "appUserId": .string(appUserId),
                "writtenAt": .string(RFC3339.string(from: entry.writtenAt)),
                "newestRequestDate": entry.newestRequestDate.map { .string(RFC3339.string(from: $0)) } ?? .null,
                "isInvalidated": .bool(entry.isInvalidated),
                "validator": entry.validator.map(JSONValue.string) ?? .null,
                "snapshot": entry.snapshot.jsonValue,
            ]), as: .entry)
    }

    /// The entry in `data` when it is intact, of this schema, and `appUserId`'s (not another customer's).
    static func entry(from data: Data, for appUserId: String) -> EntitlementCacheEntry? {
        guard let root = unseal(data, as: .entry) else { return nil }
        do throws(DocumentError) {
            guard try root.required("appUserId").string().isSameAppUserId(as: appUserId) else { return nil }
            return EntitlementCacheEntry(
                snapshot: try EntitlementSnapshot(json: try root.required("snapshot")),
                writtenAt: try root.required("writtenAt").date(),
                newestRequestDate: try nullable("newestRequestDate", in: root)?.date(),
                isInvalidated: try root.required("isInvalidated").bool(),
                // Absent from files written before validators were kept.
                validator: try root.optional("validator")?.string())
        } catch {
            return nil
        }
    }

    // MARK: Device state

    static func deviceFile(_ state: DeviceState) -> Data {
        seal(
            .object([
                "schemaVersion": .integer(Int64(schemaVersion)),
                "appUserId": state.appUserId.map(JSONValue.string) ?? .null,
                "trustedFloor": state.trustedFloor.map { .string(RFC3339.string(from: $0)) } ?? .null,
                "sequence": .integer(state.sequence),
                "counterpart": state.counterpart.map {
                    .object(["namespace": .string($0.namespace), "appUserId": .string($0.appUserId)])
                } ?? .null,
                "stage": state.stage.map {
                    .object([
                        "serving": .string($0.configuration.serving),
                        "shadow": $0.configuration.shadow.map(JSONValue.string) ?? .null,
                        "purchasesSynced": .bool($0.purchasesSynced),
                    ])
                } ?? .null,
            ]), as: .device)
    }

    static func deviceState(from data: Data) -> DeviceState? {
        guard let root = unseal(data, as: .device) else { return nil }
        do throws(DocumentError) {
            let counterpart = try root.optional("counterpart")
            let stage = try root.optional("stage")
            return DeviceState(
                appUserId: try nullable("appUserId", in: root)?.string(),
                trustedFloor: try nullable("trustedFloor", in: root)?.date(),
                sequence: try root.optional("sequence")?.integer() ?? 0,
                counterpart: try counterpart.map { (node) throws(DocumentError) in
                    Counterpart(
                        namespace: try node.required("namespace").string(),
                        appUserId: try node.required("appUserId").string())
                },
                stage: try stage.map { (node) throws(DocumentError) in
                    Stage(
                        configuration: LaunchConfiguration(
                            serving: try node.required("serving").string(),
                            shadow: try node.optional("shadow")?.string()),
                        purchasesSynced: try node.required("purchasesSynced").bool())
                })
        } catch {
            return nil
        }
    }
}

import EntitlementKit
import Foundation
import TestSupport
import Testing

@Suite("Reading unified snapshots strictly", .timeLimit(.minutes(5)))
struct UnifiedDecodingTests {
    /// The golden snapshot's JSON with one change applied at `path`.
    func goldenJSON(setting path: [String], to value: JSONValue?) -> Data {
        func replace(_ json: JSONValue, _ path: ArraySlice<String>) -> JSONValue {
            guard let key = path.first, case .object(var members) = json else { return value ?? .null }
            if path.count == 1 {
                members[key] = value
            } else if let child = members[key] {
                members[key] = replace(child, path.dropFirst())
            }
            return .object(members)
        }
        return Data(replace(goldenSnapshot().jsonValue, path[...]).compactText.utf8)
    }

    func failure(_ data: Data) -> DocumentError? {
        do {
            _ = try EntitlementSnapshot(json: data)
            return nil
        } catch {
            return error
        }
    }

    @Test("an enumeration value the schema does not list reads as unknown and never fails the document")
    func unlistedEnumValuesReadAsUnknown() throws {
        var data = goldenJSON(setting: ["entitlements", "pro", "periodType"], to: .string("winBack"))
        var snapshot = try EntitlementSnapshot(json: data)
        #expect(snapshot["pro"]?.periodType == .unknown)
        #expect(snapshot.jsonValue["entitlements"]?["pro"]?["periodType"] == .string("unknown"))

        data = goldenJSON(setting: ["entitlements", "pro", "store"], to: .string("huaweiAppGallery"))
        snapshot = try EntitlementSnapshot(json: data)
        #expect(snapshot["pro"]?.store == .unknown)
        #expect(snapshot["pro"]?.storeRaw == "play_store", "the vendor's own spelling is kept")
        #expect(try EntitlementSnapshot(json: snapshot.canonicalJSONData()) == snapshot)
    }

    @Test("a value outside the schema is written as unknown, so output always follows the schema")
    func unlistedValuesAreWrittenAsUnknown() {
        let now = instant("2025-01-01T00:00:00Z")
        let entitlement = Entitlement(
            id: "e", renewState: RenewState(rawValue: "paused"), periodType: PeriodType(rawValue: "winBack"),
            store: Store(rawValue: "roku"), at: now)
        let json = entitlement.jsonValue
        #expect(json["renewState"] == .string("unknown"))
        #expect(json["periodType"] == .string("unknown"))
        #expect(json["store"] == .string("unknown"))
        #expect(json["willRenew"] == .bool(false))
        #expect(entitlement.periodType.rawValue == "winBack", "the in-memory value keeps its raw value")
    }

    @Test(
        "each failure names its path",
        arguments: [
            (["firstSeen"], JSONValue.string("next tuesday"), DocumentError.Kind.invalidValue, "firstSeen"),
            (["firstSeen"], nil, .missingField, "firstSeen"),
            (["schemaVersion"], .integer(4), .invalidValue, "schemaVersion"),
            (["schemaVersion"], .integer(0), .invalidValue, "schemaVersion"),
            (["verification"], nil, .missingField, "verification"),
            (["verification"], .string("maybe"), .invalidValue, "verification"),
            (["verification"], .null, .missingField, "verification"),
            (["entitlements", "pro", "cancellationReason"], nil, .missingField, "entitlements.pro.cancellationReason"),
            (
                ["entitlements", "pro", "cancellationReason"], .integer(1), .wrongType,
                "entitlements.pro.cancellationReason"
            ),
            (
                ["entitlements", "pro", "cancellationReasonRaw"], nil, .missingField,
                "entitlements.pro.cancellationReasonRaw"
            ),
            (["provider"], .null, .missingField, "provider"),
            (["provider"], .string(""), .invalidValue, "provider"),
            (["managementUrl"], .string("not a url"), .invalidValue, "managementUrl"),
            (["entitlements", "pro", "isActive"], .string("yes"), .wrongType, "entitlements.pro.isActive"),
            (
                ["entitlements", "pro", "expirationDate"], .integer(1_750_000_000), .wrongType,
                "entitlements.pro.expirationDate"
            ),
            (["entitlements", "pro", "willRenew"], .bool(false), .inconsistent, "entitlements.pro.willRenew"),
            (["entitlements", "pro", "id"], .string("premium"), .inconsistent, "entitlements.pro.id"),
            (["entitlements", "pro", "renewsCount"], .integer(-1), .invalidValue, "entitlements.pro.renewsCount"),
            (["activeEntitlementIds"], .array([.string("pro")]), .inconsistent, "activeEntitlementIds"),
            (["entitlements", "trial", "isActive"], .bool(true), .inconsistent, "entitlements.trial.isActive"),
            (["entitlements"], .array([]), .wrongType, "entitlements"),
        ] as [([String], JSONValue?, DocumentError.Kind, String)])
    func locatedFailures(path: [String], value: JSONValue?, kind: DocumentError.Kind, errorPath: String) throws {
        let error = try #require(failure(goldenJSON(setting: path, to: value)))
        #expect(error.kind == kind, "\(error)")
        #expect(error.path.description == errorPath, "\(error)")
    }

    @Test("the error description quotes the value and says what is wrong")
    func errorDescription() throws {
        let error = try #require(
            failure(goldenJSON(setting: ["entitlements", "pro", "expirationDate"], to: .string("next tuesday"))))
        #expect(error.description == #"entitlements.pro.expirationDate: "next tuesday" is not an ISO 8601 date"#)
    }

    @Test("an active entitlement past its expiry is refused: the document contradicts itself")
    func activePastExpiryRefused() throws {
        let data = goldenJSON(setting: ["evaluatedAt"], to: .string("2025-08-01T00:00:00Z"))
        let error = try #require(failure(data))
        #expect(error.kind == .inconsistent)
        #expect(error.path.description == "entitlements.pro.isActive")
    }

    @Test("the unified adapter recognises snapshots and re-evaluates them at the requested instant")
    func unifiedAdapter() throws {
        let adapter = UnifiedSnapshotAdapter()
        let data = goldenSnapshot().canonicalJSONData()
        #expect(adapter.recognizes(try JSONValue.parse(data)))
        #expect(!adapter.recognizes(try JSONValue.parse(#"{"subscriber": {}}"#)))
        let later = try adapter.snapshot(from: data, at: instant("2025-07-01T00:00:01Z"))
        #expect(later.activeEntitlementIds == ["lifetime"])
        #expect(later.provider == ProviderID(rawValue: "example"))
    }
}

import EntitlementKit
import EntitlementKitFixtures
import Foundation
import TestSupport
import Testing

@Suite("Canonical snapshot JSON", .timeLimit(.minutes(5)))
struct CanonicalEncodingTests {
    @Test("encoding matches the hand-written golden file byte for byte")
    func matchesGoldenFile() throws {
        let golden = try String(contentsOf: goldenFileURL("canonical-snapshot.json"), encoding: .utf8)
        let encoded = goldenSnapshot().canonicalJSON()
        let differences = try JSONValue.parse(golden).differences(to: JSONValue.parse(encoded))
        #expect(differences.isEmpty, "\(differences)")
        #expect(encoded == golden)
    }

    @Test("compact form is one line with the same content")
    func compactForm() throws {
        let compact = goldenSnapshot().canonicalJSON(compact: true)
        #expect(!compact.contains("\n"))
        #expect(!compact.contains(": "))
        #expect(try JSONValue.parse(compact) == goldenSnapshot().jsonValue)
        #expect(
            compact.hasPrefix(
                #"{"activeEntitlementIds":["lifetime","pro"],"appUserId":"user-42","entitlements":{"lifetime":{"#))
    }

    @Test("every key is present even when nothing is known")
    func everyKeyPresent() throws {
        let bare = EntitlementSnapshot(
            provider: ProviderID(rawValue: "p"), evaluatedAt: instant("2025-01-01T00:00:00Z"),
            entitlements: [Entitlement(id: "e", at: instant("2025-01-01T00:00:00Z"))],
            nonSubscriptionTransactions: [Transaction()])
        guard case .object(let root) = bare.jsonValue else {
            Issue.record("not an object")
            return
        }
        #expect(
            root.keys.sorted() == [
                "activeEntitlementIds", "appUserId", "entitlements", "evaluatedAt", "firstSeen", "managementUrl",
                "nonSubscriptionTransactions", "originalAppUserId", "originalApplicationVersion",
                "originalPurchaseDate",
                "provider", "requestDate", "schemaVersion", "verification",
            ])
        guard case .object(let entitlement) = bare.jsonValue["entitlements"]?["e"] else {
            Issue.record("no entitlement")
            return
        }
        #expect(entitlement.count == 27)
        #expect(entitlement["denial"] == .null, "no denial: the dates decide")
        #expect(entitlement["cancellationReason"] == .null, "a backend that does not say gives null")
        #expect(entitlement["cancellationReasonRaw"] == .null)
        #expect(root["verification"] == .string("notRequested"))
        #expect(entitlement["expirationDate"] == .null)
        guard case .array(let transactions) = root["nonSubscriptionTransactions"],
            case .object(let transaction) = transactions.first
        else {
            Issue.record("no transaction")
            return
        }
        #expect(transaction.count == 11)
    }

    @Test("empty identifiers are written as null")
    func emptyIdentifiersAreNull() {
        let now = instant("2025-01-01T00:00:00Z")
        let snapshot = EntitlementSnapshot(
            provider: ProviderID(rawValue: "p"), appUserId: "", evaluatedAt: now,
            entitlements: [
                Entitlement(
                    id: "e", productId: "", transactions: [Transaction(transactionId: "", productId: "")], at: now)
            ])
        #expect(snapshot.jsonValue["appUserId"] == .null)
        #expect(snapshot.jsonValue["entitlements"]?["e"]?["productId"] == .null)
        #expect(snapshot["e"]?.transactions.first?.transactionId == nil)
    }

    @Test(
        "dates: UTC with Z, milliseconds only when non-zero",
        arguments: [
            ("2025-06-01T12:00:00Z", "2025-06-01T12:00:00Z"),
            ("2025-06-01T12:00:00.000Z", "2025-06-01T12:00:00Z"),
            ("2025-06-01T12:00:00.5Z", "2025-06-01T12:00:00.500Z"),
            ("2025-06-01T12:00:00.123456Z", "2025-06-01T12:00:00.123Z"),
            ("2025-06-01T14:00:00+02:00", "2025-06-01T12:00:00Z"),
            ("2025-06-01T00:30:00-01:00", "2025-06-01T01:30:00Z"),
            ("2024-02-29T23:59:59.999Z", "2024-02-29T23:59:59.999Z"),
            ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ])
    func canonicalDates(input: String, canonical: String) throws {
        let date = try #require(RFC3339.date(from: input))
        #expect(RFC3339.string(from: date) == canonical)
        #expect(RFC3339.date(from: canonical) == date)
    }

    @Test("decode(encode(x)) == x")
    func roundTrip() throws {
        let snapshot = goldenSnapshot()
        let decoded = try EntitlementSnapshot(json: snapshot.canonicalJSONData())
        #expect(decoded == snapshot)
        #expect(try EntitlementSnapshot(json: snapshot.canonicalJSONData(compact: true)) == snapshot)
        #expect(decoded.canonicalJSON() == snapshot.canonicalJSON())
    }

    @Test("Codable goes through the unified form, whatever the encoder's date strategy")
    func codableRoundTrip() throws {
        let snapshot = goldenSnapshot()
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(snapshot)
        #expect(try JSONValue.parse(data) == snapshot.jsonValue)
        #expect(try JSONDecoder().decode(EntitlementSnapshot.self, from: data) == snapshot)
        let entitlement = try #require(snapshot["pro"])
        let entitlementJSON = try JSONValue.parse(encoder.encode(entitlement))
        #expect(entitlementJSON == entitlement.jsonValue)
        #expect(try Entitlement(json: JSONNode(entitlementJSON), evaluatedAt: snapshot.evaluatedAt) == entitlement)
    }

    @Test("Codable decoding failures carry the located DocumentError")
    func codableFailureIsLocated() throws {
        var json = goldenSnapshot().jsonValue
        guard case .object(var root) = json else { return }
        root["firstSeen"] = .string("yesterday")
        json = .object(root)
        do {
            _ = try JSONDecoder().decode(EntitlementSnapshot.self, from: Data(json.compactText.utf8))
            Issue.record("decoded a snapshot with a malformed date")
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = try #require(context.underlyingError as? DocumentError)
            #expect(underlying.path.description == "firstSeen")
            #expect(underlying.kind == .invalidValue)
        }
    }
}

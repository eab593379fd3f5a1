import EntitlementKit
import Foundation
import Testing

/// The optional `aliases` member of schema 3: written only when set, read strictly, ignored when absent.
@Suite("A snapshot's aliases", .timeLimit(.minutes(5)))
struct SnapshotAliasesTests {
    static let anonymous = "$RCAnonymousID:0123456789abcdef0123456789abcdef"

    /// The golden snapshot's compact JSON text with `aliases` set by hand (not by the writer under test).
    func documentText(aliases: JSONValue?, schemaVersion: Int64 = 3) -> String {
        guard case .object(var members) = goldenSnapshot().jsonValue else { preconditionFailure("not an object") }
        members["aliases"] = aliases
        members["schemaVersion"] = .integer(schemaVersion)
        return JSONValue.object(members).compactText
    }

    func failure(_ text: String) -> DocumentError? {
        do {
            _ = try EntitlementSnapshot(json: Data(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("both writers put aliases between activeEntitlementIds and appUserId, and only when set")
    func writtenOnlyWhenSet() throws {
        var snapshot = goldenSnapshot()
        #expect(!snapshot.canonicalJSON(compact: true).contains("\"aliases\""), "absent unless set")
        snapshot.aliases = ["a-user", Self.anonymous]
        let compact = snapshot.canonicalJSON(compact: true)
        #expect(
            compact.contains(#""aliases":["a-user","$RCAnonymousID:0123456789abcdef0123456789abcdef"],"appUserId""#))
        #expect(compact == snapshot.jsonValue.compactText, "the fast writer and the tree agree")
        #expect(snapshot.canonicalJSON() == snapshot.jsonValue.prettyText)
        snapshot.aliases = []
        #expect(snapshot.canonicalJSON(compact: true).contains(#","aliases":[],"appUserId""#))
        #expect(snapshot.canonicalJSON() == snapshot.jsonValue.prettyText)
    }

    @Test("a document's aliases read back as written; absent or null read as nil")
    func readBack() throws {
        let read = try EntitlementSnapshot(
            json: Data(documentText(aliases: .array([.string(Self.anonymous), .string("u-7")])).utf8))
        #expect(read.aliases == [Self.anonymous, "u-7"])
        #expect(try EntitlementSnapshot(json: read.canonicalJSONData()) == read)
        #expect(try EntitlementSnapshot(json: Data(documentText(aliases: nil).utf8)).aliases == nil)
        #expect(try EntitlementSnapshot(json: Data(documentText(aliases: .null).utf8)).aliases == nil)
    }

    @Test(
        "aliases out of byte order, repeated, empty or naming the snapshot's own id are refused where they are",
        arguments: [
            (["zed", "abe"], "aliases[1]", "is not after \"zed\""),
            (["abe", "abe"], "aliases[1]", "is not after \"abe\""),
            (["abe", ""], "aliases[1]", "is not an app user id"),
            (["user-42"], "aliases[0]", "is the snapshot's own appUserId"),
        ])
    func refused(aliases: [String], path: String, reason: String) throws {
        let error = try #require(failure(documentText(aliases: .array(aliases.map(JSONValue.string)))))
        #expect(error.path.description == path)
        #expect(error.reason.hasPrefix(reason), "\(error)")
    }

    @Test("aliases that are not a list of strings are refused")
    func wrongTypes() throws {
        #expect(failure(documentText(aliases: .string("abe")))?.path.description == "aliases")
        #expect(failure(documentText(aliases: .array([.integer(1)])))?.path.description == "aliases[0]")
    }

    @Test("aliases in a schema 2 document are a mix-up of versions")
    func schemaTwoRefusesThem() throws {
        // A schema 2 document has no denial: the golden snapshot's denials are removed by hand.
        guard case .object(var members) = goldenSnapshot().jsonValue,
            case .object(var entitlements) = members["entitlements"]
        else { preconditionFailure("not an object") }
        for (id, entitlement) in entitlements {
            guard case .object(var fields) = entitlement else { continue }
            fields["denial"] = nil
            entitlements[id] = .object(fields)
        }
        members["entitlements"] = .object(entitlements)
        members["schemaVersion"] = .integer(2)
        #expect(failure(JSONValue.object(members).compactText) == nil, "the schema 2 document itself reads")
        members["aliases"] = .array([.string("abe")])
        let error = try #require(failure(JSONValue.object(members).compactText))
        #expect(error.path.description == "aliases")
        #expect(error.reason.contains("schema 3 key"))
    }
}

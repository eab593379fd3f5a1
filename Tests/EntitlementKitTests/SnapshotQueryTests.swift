import EntitlementKit
import Foundation
import TestSupport
import Testing

@Suite("Asking a snapshot what the customer may use", .timeLimit(.minutes(5)))
struct SnapshotQueryTests {
    @Test("lookup, active and all")
    func queries() {
        let snapshot = goldenSnapshot()
        #expect(snapshot["pro"]?.isActive == true)
        #expect(snapshot["trial"]?.isActive == false)
        #expect(snapshot["missing"] == nil)
        #expect(snapshot.isActive("pro"))
        #expect(!snapshot.isActive("missing"))
        #expect(snapshot.all.map(\.id) == ["lifetime", "pro", "trial"])
        #expect(snapshot.active.map(\.id) == ["lifetime", "pro"])
        #expect(snapshot.activeEntitlementIds == ["lifetime", "pro"])
        #expect(snapshot.hasActiveEntitlement)
        #expect(snapshot.entitlements(forProduct: "pro_monthly").map(\.id) == ["pro"])
        #expect(snapshot.entitlements(forProduct: "nothing").isEmpty)
    }

    @Test("after every expiry only lifetime access remains; an empty snapshot grants nothing")
    func nothingActive() {
        let snapshot = goldenSnapshot().evaluated(at: instant("2025-07-01T00:00:00.001Z"))
        #expect(snapshot.activeEntitlementIds == ["lifetime"])
        let empty = EntitlementSnapshot(
            provider: ProviderID(rawValue: "p"), evaluatedAt: instant("2025-01-01T00:00:00Z"))
        #expect(!empty.hasActiveEntitlement)
        #expect(empty.all.isEmpty)
    }

    @Test("open enumerations know their values and keep others")
    func openEnumerations() {
        #expect(Store.knownValues.count == 12)
        #expect(Store.appStore.isKnown)
        #expect(!Store(rawValue: "roku").isKnown)
        #expect(Store(rawValue: "appStore") == .appStore)
        #expect(PeriodType(rawValue: "trial") == .trial)
        #expect(
            RenewState.knownValues.map(\.rawValue) == [
                "willRenew", "nonRenewable", "billingIssue", "cancelled", "unknown",
            ])
    }

    @Test("a value equal to a listed one is known, also when its UTF-8 is not the listed value's length")
    func openEnumerationEquivalentValue() {
        // KELVIN SIGN (3 bytes) is canonically equivalent to, so equal to, the letter K (1 byte).
        let sign = Temperature(rawValue: "\u{212A}")
        #expect(sign == .kelvin)
        #expect(sign.isKnown)
        #expect(sign.canonicalRawValue == "\u{212A}")
        #expect(!Temperature(rawValue: "C").isKnown)
    }

    @Test("Codable enumerations follow the unified JSON form: only listed values, anything else is unknown")
    func openEnumerationCodable() throws {
        let encoded = try JSONEncoder().encode([Store.playStore, Store(rawValue: "roku")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["playStore","unknown"]"#)
        let decoded = try JSONDecoder().decode([PeriodType].self, from: Data(#"["trial","winBack"]"#.utf8))
        #expect(decoded == [.trial, .unknown])
    }
}

/// An open enumeration whose listed value has a canonically equivalent spelling of another UTF-8 length.
private struct Temperature: OpenEnumeration {
    let rawValue: String
    static let kelvin = Temperature(rawValue: "K")
    static let unknown = Temperature(rawValue: "unknown")
    static let knownValues: [Temperature] = [.kelvin, .unknown]
}

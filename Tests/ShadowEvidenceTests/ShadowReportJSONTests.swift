import EntitlementKit
import Foundation
import Testing

/// swap.md "Evidence across devices": a report's JSON form, written by hand from the spec's keys.
@Suite("A shadow report's JSON form", .timeLimit(.minutes(5)))
struct ShadowReportJSONTests {
    static let instant = Date(timeIntervalSince1970: 1_748_779_200)  // 2025-06-01T12:00:00Z

    static func report(_ outcome: ShadowReport.Outcome) -> ShadowReport {
        ShadowReport(
            appUserId: "alice", instant: instant, servingProvider: ProviderID(rawValue: "revenuecat"),
            shadowProvider: ProviderID(rawValue: "adapty"), outcome: outcome)
    }

    @Test func anAgreementIsFourKeysAndNoAppUserId() {
        #expect(
            ShadowReportRecord(Self.report(.agreed)).jsonLine
                == #"{"instant":"2025-06-01T12:00:00Z","outcome":"agreed","serving":"revenuecat","shadow":"adapty"}"#)
    }

    @Test func theAppUserIdOnlyWhenAsked() {
        #expect(
            ShadowReportRecord(Self.report(.shadowTimedOut), includingAppUserId: true).jsonLine
                == #"{"appUserId":"alice","instant":"2025-06-01T12:00:00Z","outcome":"shadowTimedOut","serving":"revenuecat","shadow":"adapty"}"#
        )
    }

    @Test func aDisagreementListsDifferencesWithoutFieldValues() {
        let diff = SnapshotDiff(
            accessDifferences: [AccessDifference(entitlementId: "premium", activeInA: true, activeInB: false)],
            fieldDifferences: [
                FieldDifference(
                    entitlementId: "pro", field: .expirationDate, a: .string("2025-07-01T00:00:00Z"),
                    b: .string("2025-08-01T00:00:00Z"))
            ])
        let line = ShadowReportRecord(Self.report(.disagreed(diff))).jsonLine
        #expect(
            line
                == #"{"accessDifferences":[{"activeOnServing":true,"activeOnShadow":false,"entitlementId":"premium"}],"#
                + #""fieldDifferences":[{"entitlementId":"pro","field":"expirationDate"}],"#
                + #""instant":"2025-06-01T12:00:00Z","outcome":"disagreed","serving":"revenuecat","shadow":"adapty"}"#)
        #expect(!line.contains("2025-07-01"), "a field's values may be personal: never sent")
    }

    /// swap.md: an access difference carries both sides' reasons, as `diff --json` gives them.
    @Test func anAccessDifferenceCarriesBothReasons() {
        let difference = AccessDifference(
            entitlementId: "premium", activeInA: true, activeInB: false,
            reasonInA: .activeUntil(Date(timeIntervalSince1970: 1_751_328_000)),
            reasonInB: .denied(.refunded, raw: "REFUND_FULL"))
        let line = ShadowReportRecord(Self.report(.disagreed(SnapshotDiff(accessDifferences: [difference])))).jsonLine
        #expect(
            line.contains(
                #"{"activeOnServing":true,"activeOnShadow":false,"entitlementId":"premium","#
                    + #""reasonOnServing":{"code":"activeUntil","date":"2025-07-01T00:00:00Z"},"#
                    + #""reasonOnShadow":{"code":"refunded","raw":"REFUND_FULL"}}"#), "\(line)")
    }

    @Test func aFieldOnlyDisagreementHasNoAccessDifferencesKey() {
        let diff = SnapshotDiff(fieldDifferences: [
            FieldDifference(entitlementId: "pro", field: .renewState, a: .string("willRenew"), b: .string("cancelled"))
        ])
        let line = ShadowReportRecord(Self.report(.disagreed(diff))).jsonLine
        #expect(!line.contains("accessDifferences"))
        #expect(line.contains(#""fieldDifferences":[{"entitlementId":"pro","field":"renewState"}]"#))
    }

    @Test func failuresCarryTheErrorCodeAndWritesTheirAction() {
        let offline = EntitlementClientError(.offline, "no route to host")
        #expect(
            ShadowReportRecord(Self.report(.shadowFailed(offline))).jsonLine
                == #"{"error":"offline","instant":"2025-06-01T12:00:00Z","outcome":"shadowFailed","serving":"revenuecat","shadow":"adapty"}"#
        )
        let cases: [(ShadowReport.WriteAction, String)] = [
            (.logIn, "logIn"), (.syncPurchases, "sync"), (.reportPurchase, "purchase"),
        ]
        for (action, name) in cases {
            #expect(
                ShadowReportRecord(Self.report(.writeFailed(action, offline))).jsonLine
                    == #"{"action":""# + name
                    + #"","error":"offline","instant":"2025-06-01T12:00:00Z","outcome":"writeFailed","serving":"revenuecat","shadow":"adapty"}"#
            )
        }
    }

    @Test func aSkipSaysWhy() {
        #expect(
            ShadowReportRecord(Self.report(.skipped(.anonymous))).jsonLine
                == #"{"instant":"2025-06-01T12:00:00Z","outcome":"skipped","serving":"revenuecat","shadow":"adapty","skipped":"anonymous"}"#
        )
    }

    @Test func theInstantIsRFC3339WhateverTheEncodersDateStrategy() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let text = String(decoding: try encoder.encode(Self.report(.agreed)), as: UTF8.self)
        #expect(text.contains(#""instant":"2025-06-01T12:00:00Z""#))
        #expect(!text.contains("alice"), "Encodable leaves the app user id out")
    }

    @Test func readBackIgnoresUnknownKeysAndKeepsEverything() throws {
        let line = #"""
            {"instant":"2025-06-01T12:00:00Z","serving":"revenuecat","shadow":"adapty","outcome":"disagreed","appVersion":"4.2","appUserId":"bob","accessDifferences":[{"entitlementId":"premium","activeOnServing":false,"activeOnShadow":true,"reasonOnServing":{"code":"refunded","raw":"REFUND_FULL"},"reasonOnShadow":{"code":"activeUntil","date":"2025-07-01T00:00:00Z"},"extra":1}],"fieldDifferences":[{"entitlementId":"premium","field":"store"}]}
            """#
        let record = try ShadowReportRecord(jsonData: Data(line.utf8))
        #expect(record.appUserId == "bob")
        #expect(record.instant == Self.instant)
        guard case .disagreed(let access, let fields) = record.outcome else {
            Issue.record("not a disagreement: \(record)")
            return
        }
        #expect(access.map(\.entitlementId) == ["premium"])
        #expect(access.first?.activeOnShadow == true)
        #expect(access.first?.reasonOnServing == .object(["code": .string("refunded"), "raw": .string("REFUND_FULL")]))
        #expect(fields == [ShadowReportRecord.FieldDifference(entitlementId: "premium", field: "store")])
        // Written again, the record is what was read, minus the keys it does not know.
        #expect(try ShadowReportRecord(jsonData: Data(record.jsonLine.utf8)) == record)
        #expect(!record.jsonLine.contains("appVersion"))
    }

    @Test func everyOutcomeSurvivesARoundTripThroughCodable() throws {
        let offline = EntitlementClientError(.offline, "x")
        let outcomes: [ShadowReport.Outcome] = [
            .agreed, .shadowTimedOut, .skipped(.anonymous), .shadowFailed(offline),
            .writeFailed(.reportPurchase, offline),
            .disagreed(
                SnapshotDiff(accessDifferences: [
                    AccessDifference(entitlementId: "premium", activeInA: false, activeInB: true)
                ])),
        ]
        for outcome in outcomes {
            let record = ShadowReportRecord(Self.report(outcome), includingAppUserId: true)
            let decoded = try JSONDecoder().decode(ShadowReportRecord.self, from: JSONEncoder().encode(record))
            #expect(decoded == record)
        }
    }

    @Test(arguments: [
        (#"{"serving":"a","shadow":"b","outcome":"agreed"}"#, "instant: is required but missing"),
        (#"{"instant":"yesterday","serving":"a","shadow":"b","outcome":"agreed"}"#, #"instant: "yesterday" is not"#),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"maybe"}"#,
            #"outcome: "maybe" is not an outcome"#
        ),
        (#"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"disagreed"}"#, "has neither"),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"shadowFailed","error":"gone"}"#,
            #"error: "gone""#
        ),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"writeFailed","action":"refund","error":"offline"}"#,
            #"action: "refund""#
        ),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"skipped","skipped":"bored"}"#,
            #"skipped: "bored""#
        ),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"","shadow":"b","outcome":"agreed"}"#,
            "serving: \"\" must not be empty"
        ),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"disagreed","accessDifferences":[{"entitlementId":"p","activeOnServing":1,"activeOnShadow":false}]}"#,
            "accessDifferences[0].activeOnServing: 1 must be a boolean"
        ),
        (
            #"{"instant":"2025-06-01T12:00:00Z","serving":"a","shadow":"b","outcome":"agreed","outcome":"agreed"}"#,
            "duplicate"
        ),
    ])
    func aMalformedRecordIsALocatedError(line: String, expected: String) {
        #expect {
            _ = try ShadowReportRecord(jsonData: Data(line.utf8))
        } throws: { error in
            "\(error)".contains(expected)
        }
    }
}

import EntitlementKit
import EntitlementKitTesting
import Foundation
import Testing

@Suite("Malformed scenario files are refused with a located error naming the step and key", .timeLimit(.minutes(5)))
struct MalformedScenarioTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let rule: String
        let steps: String
        let top: String
        /// The whole expected `DocumentError` description: JSON path, value, reason.
        let message: String
        var testDescription: String { rule }

        init(_ rule: String, steps: String, top: String = "", _ message: String) {
            self.rule = rule
            self.steps = steps
            self.top = top
            self.message = message
        }

        var document: String {
            """
            {"start": "2025-01-01T00:00:00Z"\(top),
             "products": {"monthly": {"kind": "autoRenewable", "period": "P1M", "entitlements": ["premium"]}},
             "steps": [\(steps)]}
            """
        }
    }

    static let configure = #"{"configure": {"device": "phone", "storeAccount": "s", "label": "anon"}}"#

    static let cases: [Case] = [
        Case(
            "unknown top-level key", steps: "", top: #", "colour": "blue""#,
            "colour: is not a scenario key (scenario, start, restoreBehavior, freshFor, products, steps)"),
        Case(
            "unknown action", steps: #"{"dance": {"device": "phone"}}"#,
            "steps[0].dance: is not an action (advance, check, configure, deviceClock, logIn, logOut, lookup, network, purchase, reinstall, restore, store, syncPurchases) (step 1)"
        ),
        Case(
            "a step without an action", steps: #"{"expect": {"active": []}}"#,
            "steps[0]: has no action; a step has exactly one (step 1)"),
        Case(
            "a step with two actions", steps: configure + #", {"advance": "P1D", "check": {"device": "phone"}}"#,
            "steps[1].check: is a second action next to `advance`; a step has exactly one (step 2)"),
        Case(
            "an undefined product", steps: configure + #", {"purchase": {"device": "phone", "product": "yearly"}}"#,
            #"steps[1].purchase.product: "yearly" is not a product defined in `products` (step 2)"#),
        Case(
            "an undefined device", steps: #"{"check": {"device": "phone"}}"#,
            #"steps[0].check.device: "phone" is not a configured device (configure it first; reinstall un-configures) (step 1)"#
        ),
        Case(
            "a device used after reinstall",
            steps: configure + #", {"reinstall": {"device": "phone"}}, {"restore": {"device": "phone"}}"#,
            #"steps[2].restore.device: "phone" is not a configured device (configure it first; reinstall un-configures) (step 3)"#
        ),
        Case(
            "an undefined label", steps: configure + #", {"lookup": {"appUserId": "@nobody"}}"#,
            #"steps[1].lookup.appUserId: "@nobody" names no label defined so far (labels are defined by configure or logOut; literal ids cannot start with @) (step 2)"#
        ),
        Case(
            "a label used before it is defined",
            steps: #"{"lookup": {"appUserId": "@anon"}}, "# + configure,
            #"steps[0].lookup.appUserId: "@anon" names no label defined so far (labels are defined by configure or logOut; literal ids cannot start with @) (step 1)"#
        ),
        Case(
            "a label defined twice", steps: configure + #", {"logOut": {"device": "phone", "label": "anon"}}"#,
            #"steps[1].logOut.label: "anon" is already defined at step 1; a label is defined once (step 2)"#),
        Case(
            "a label defined with @",
            steps: #"{"configure": {"device": "phone", "storeAccount": "s", "label": "@anon"}}"#,
            #"steps[0].configure.label: "@anon" defines a label: write it without @ here, and as "@name" where it is used (step 1)"#
        ),
        Case("a bad start date", steps: "", top: "", "unused"),
        Case(
            "a bad duration", steps: #"{"advance": "1 month"}"#,
            #"steps[0].advance: "1 month" is not an ISO 8601 duration (such as P1M, P7D, PT5M, -P10D) (step 1)"#),
        Case(
            "advance cannot go back", steps: #"{"advance": "-P1D"}"#,
            #"steps[0].advance: "-P1D" must not move time back (step 1)"#),
        Case(
            "a bad date in an expectation",
            steps: #"{"lookup": {"appUserId": "a"}, "expect": {"expirationDate": {"premium": "next tuesday"}}}"#,
            #"steps[0].expect.expirationDate.premium: "next tuesday" is not an ISO 8601 date (step 1)"#),
        Case(
            "an unknown field of an action",
            steps: #"{"configure": {"device": "phone", "storeAccount": "s", "colour": "blue"}}"#,
            "steps[0].configure.colour: is not a field of configure (device, storeAccount, appUserId, store, label) (step 1)"
        ),
        Case(
            "a missing field of an action", steps: #"{"configure": {"device": "phone"}}"#,
            "steps[0].configure.storeAccount: is required but missing (step 1)"),
        Case(
            "an unknown expectation key", steps: configure.dropLast() + #", "expect": {"premium": true}}"#,
            "steps[0].expect.premium: is not an expectation key (active, renewState, expirationDate, error, source, appUserId, isAnonymous, updates, created, aliases) (step 1)"
        ),
        Case(
            "created outside logIn", steps: configure.dropLast() + #", "expect": {"created": true}}"#,
            "steps[0].expect.created: is not an expectation of configure (step 1)"),
        Case(
            "an unknown error code", steps: configure.dropLast() + #", "expect": {"error": "timeout"}}"#,
            #"steps[0].expect.error: "timeout" is not an error code (invalidAppUserId, alreadyAnonymous, offline, backendUnavailable, credentialsRefused, badResponse, noCachedSnapshot, receiptInUseByOtherUser) or null (step 1)"#
        ),
        Case(
            "an unknown renew state",
            steps: configure.dropLast() + #", "expect": {"renewState": {"premium": "canceled"}}}"#,
            #"steps[0].expect.renewState.premium: "canceled" is not a renew state (willRenew, nonRenewable, billingIssue, cancelled, unknown) (step 1)"#
        ),
        Case(
            "an unknown fetch policy", steps: configure + #", {"check": {"device": "phone", "policy": "always"}}"#,
            #"steps[1].check.policy: "always" is not a fetch policy (cachedOrFetched, fetchCurrent, notStaleCachedOrFetched, fromCacheOnly) (step 2)"#
        ),
        Case(
            "an unknown restore behaviour", steps: "", top: #", "restoreBehavior": "merge""#,
            #"restoreBehavior: "merge" is not a restore behaviour (transferToNewAppUserId, transferIfNoActiveSubscriptions, keepWithOriginalAppUserId, shareBetweenAppUserIds)"#
        ),
        Case(
            "a negative freshFor", steps: "", top: #", "freshFor": "-PT5M""#,
            #"freshFor: "-PT5M" must not be negative, such as PT5M or P1M"#),
        Case(
            "a fraction of a second in advance", steps: #"{"advance": "PT0.5S"}"#,
            #"steps[0].advance: "PT0.5S" \#(wholeSeconds) (step 1)"#),
        Case(
            "a fraction of a second in freshFor", steps: "", top: #", "freshFor": "PT299.999S""#,
            #"freshFor: "PT299.999S" \#(wholeSeconds)"#),
        Case(
            "a fraction of a second in a device clock offset",
            steps: configure + #", {"deviceClock": {"device": "phone", "offset": "-PT1.001S"}}"#,
            #"steps[1].deviceClock.offset: "-PT1.001S" \#(wholeSeconds) (step 2)"#),
        Case(
            "a fraction of a second in an expected expirationDate",
            steps: configure
                + #", {"check": {"device": "phone"}, "expect": {"expirationDate": {"premium": "2025-02-01T00:00:00.500Z"}}}"#,
            #"steps[1].expect.expirationDate.premium: "2025-02-01T00:00:00.500Z" \#(wholeSeconds) (step 2)"#),
    ]

    static let wholeSeconds =
        "has a fraction of a second; scenario times are whole seconds, because Qonversion's wire carries "
        + "whole seconds and a story must have one answer for every provider"

    @Test(arguments: cases.filter { $0.rule != "a bad start date" })
    func isRefusedWithItsLocation(_ example: Case) throws {
        #expect(throws: DocumentError.self) { try Scenario(json: Data(example.document.utf8)) }
        do {
            _ = try Scenario(json: Data(example.document.utf8))
        } catch {
            #expect(error.description == example.message)
        }
    }

    @Test func aBadStartDateNamesTheKey() {
        do {
            _ = try Scenario(json: Data(#"{"start": "2025-02-30T00:00:00Z", "steps": []}"#.utf8))
            Issue.record("an impossible date was accepted")
        } catch {
            #expect(error.description == #"start: "2025-02-30T00:00:00Z" is not an ISO 8601 date"#)
        }
    }

    @Test func aStartWithAFractionOfASecondIsRefusedButZeroFractionsAreWholeSeconds() throws {
        do {
            _ = try Scenario(json: Data(#"{"start": "2025-01-01T00:00:00.500Z", "steps": []}"#.utf8))
            Issue.record("a sub-second start was accepted")
        } catch {
            #expect(error.description == #"start: "2025-01-01T00:00:00.500Z" \#(Self.wholeSeconds)"#)
        }
        let whole = try Scenario(
            json: Data(#"{"start": "2025-01-01T00:00:00.000+01:00", "freshFor": "PT5.000S", "steps": []}"#.utf8))
        #expect(whole.start == RFC3339.date(from: "2024-12-31T23:00:00Z"))
        #expect(whole.freshFor == .seconds(5))
    }

    @Test func freshForInCalendarMonthsTakesItsLengthFromStart() throws {
        func freshFor(_ duration: String, from start: String) throws -> Duration {
            try Scenario(json: Data(#"{"start": "\#(start)", "freshFor": "\#(duration)", "steps": []}"#.utf8)).freshFor
        }
        #expect(try freshFor("P1M", from: "2025-01-01T00:00:00Z") == .seconds(31 * 86_400))
        #expect(try freshFor("P1M", from: "2025-02-01T00:00:00Z") == .seconds(28 * 86_400))
        #expect(try freshFor("P1M", from: "2024-01-31T00:00:00Z") == .seconds(29 * 86_400))
        #expect(try freshFor("P1Y", from: "2024-01-01T00:00:00Z") == .seconds(366 * 86_400))
        #expect(try freshFor("PT0S", from: "2024-01-01T00:00:00Z") == .zero)
    }

    @Test func productRulesAreChecked() {
        let documents: [(String, String)] = [
            (#"{"kind": "autoRenewable"}"#, "products.p.period: is required but missing"),
            (#"{"kind": "autoRenewable", "period": "P0D"}"#, #"products.p.period: "P0D" must be a positive duration"#),
            (
                #"{"kind": "nonConsumable", "period": "P1M"}"#,
                "products.p.period: is not a field of a nonConsumable product (kind, entitlements)"
            ),
            (
                #"{"kind": "subscription"}"#,
                #"products.p.kind: "subscription" is not a product kind (autoRenewable, nonRenewing, nonConsumable, consumable)"#
            ),
            (
                #"{"kind": "autoRenewable", "period": "P1M", "trial": "a week"}"#,
                #"products.p.trial: "a week" is not an ISO 8601 duration (such as P1M, P7D, PT5M, -P10D)"#
            ),
        ]
        for (product, message) in documents {
            let text = #"{"start": "2025-01-01T00:00:00Z", "products": {"p": "# + product + "}, \"steps\": []}"
            do {
                _ = try Scenario(json: Data(text.utf8))
                Issue.record("accepted: \(product)")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func aLabelMayBeUsedInItsOwnStepsExpectation() throws {
        let scenario = try Scenario(
            json: Data(
                #"{"start": "2025-01-01T00:00:00Z", "steps": [{"configure": {"device": "d", "storeAccount": "s", "label": "me"}, "expect": {"appUserId": "@me"}}]}"#
                    .utf8))
        #expect(scenario.steps.first?.expectations.appUserId == .label("me"))
    }

    @Test func duplicateKeysAreRefusedByTheJSONReader() {
        #expect(throws: DocumentError.self) {
            try Scenario(
                json: Data(#"{"start": "2025-01-01T00:00:00Z", "start": "2025-01-02T00:00:00Z", "steps": []}"#.utf8))
        }
    }

    @Test func anUnreadableFileIsNotAMalformedOne() {
        let url = URL(fileURLWithPath: "/nonexistent/story.json")
        #expect(throws: ScenarioFileError.unreadable(file: url.path, reason: "No such file or directory")) {
            try Scenario(contentsOf: url)
        }
    }
}

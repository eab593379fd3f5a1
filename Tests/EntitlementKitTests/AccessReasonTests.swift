import EntitlementKit
import Foundation
import TestSupport
import Testing

/// `accessReason` is computed from the entitlement's facts, case by case as unified-snapshot.md's "Why"
/// section defines it, and always agrees with `isActive`.
@Suite("Access reasons", .timeLimit(.minutes(5)))
struct AccessReasonTests {
    let expiry = instant("2025-10-03T12:00:05Z")

    @Test func aDenialIsTheReasonWhateverTheDatesSay() {
        let denial = Denial(.refunded, raw: "REFUND_FULL")
        let ahead = Entitlement(id: "pro", expirationDate: expiry, denial: denial, at: expiry.addingTimeInterval(-60))
        #expect(ahead.accessReason == .denied(.refunded, raw: "REFUND_FULL"))
        #expect(
            Entitlement(id: "pro", denial: denial, at: expiry).accessReason == .denied(.refunded, raw: "REFUND_FULL"))
        #expect(!ahead.accessReason.grantsAccess)
    }

    @Test func noExpiryIsLifetime() {
        #expect(Entitlement(id: "pro", at: expiry).accessReason == .lifetime)
    }

    @Test func atTheExpiryInstantItIsStillActiveUntilIt() {
        #expect(Entitlement(id: "pro", expirationDate: expiry, at: expiry).accessReason == .activeUntil(expiry))
        let after = Entitlement(id: "pro", expirationDate: expiry, at: expiry.addingTimeInterval(0.001))
        #expect(after.accessReason == .expired(at: expiry))
    }

    @Test func graceNeedsTheGraceEndToBeTheExpiryAndABillingIssue() {
        let grace = Entitlement(
            id: "pro", renewState: .billingIssue, expirationDate: expiry, gracePeriodExpirationDate: expiry,
            at: expiry)
        #expect(grace.accessReason == .inGracePeriod(until: expiry))
        var otherEnd = grace
        otherEnd.gracePeriodExpirationDate = expiry.addingTimeInterval(-86_400)
        #expect(otherEnd.accessReason == .activeUntil(expiry))
        var noBillingIssue = grace
        noBillingIssue.renewState = .willRenew
        #expect(noBillingIssue.accessReason == .activeUntil(expiry))
        // Past the grace period's end it has expired like any other.
        #expect(grace.evaluated(at: expiry.addingTimeInterval(1)).accessReason == .expired(at: expiry))
    }

    @Test func theReasonAgreesWithIsActiveEverywhere() {
        let denials: [Denial?] = [nil, Denial(.storeState, raw: "SUBSCRIPTION_STATE_ON_HOLD")]
        let expiries: [Date?] = [nil, expiry]
        let instants = [expiry.addingTimeInterval(-1), expiry, expiry.addingTimeInterval(1)]
        for denial in denials {
            for expiration in expiries {
                for at in instants {
                    let entitlement = Entitlement(
                        id: "pro", renewState: .billingIssue, expirationDate: expiration,
                        gracePeriodExpirationDate: expiration, denial: denial, at: at)
                    #expect(entitlement.accessReason.grantsAccess == entitlement.isActive)
                }
            }
        }
    }

    @Test func theCLIWordsForEveryReason() {
        #expect(AccessReason.activeUntil(expiry).description == "until 2025-10-03T12:00:05Z")
        #expect(AccessReason.lifetime.description == "lifetime")
        #expect(AccessReason.inGracePeriod(until: expiry).description == "grace until 2025-10-03T12:00:05Z")
        #expect(AccessReason.expired(at: expiry).description == "expired 2025-10-03T12:00:05Z")
        #expect(AccessReason.denied(.refunded, raw: "REFUND_FULL").description == "refunded (REFUND_FULL)")
        #expect(
            AccessReason.denied(.storeState, raw: "SUBSCRIPTION_STATE_ON_HOLD").description
                == "store state SUBSCRIPTION_STATE_ON_HOLD")
        #expect(AccessReason.denied(.revoked, raw: "FAMILY_REVOKE").description == "revoked (FAMILY_REVOKE)")
        #expect(AccessReason.denied(.upgraded, raw: nil).description == "upgraded")
        #expect(AccessReason.denied(.notPaid, raw: "2").description == "not paid (2)")
        #expect(AccessReason.denied(.vendorInactive, raw: "0").description == "vendor says inactive (0)")
        #expect(AccessReason.denied(.unknown, raw: nil).description == "denied")
    }

    @Test func theJSONFormHasACodeAndOnlyTheKeysThatApply() {
        #expect(
            AccessReason.activeUntil(expiry).jsonValue
                == .object(["code": .string("activeUntil"), "date": .string("2025-10-03T12:00:05Z")]))
        #expect(
            AccessReason.inGracePeriod(until: expiry).jsonValue
                == .object(["code": .string("inGracePeriod"), "date": .string("2025-10-03T12:00:05Z")]))
        #expect(
            AccessReason.expired(at: expiry).jsonValue
                == .object(["code": .string("expired"), "date": .string("2025-10-03T12:00:05Z")]))
        #expect(AccessReason.lifetime.jsonValue == .object(["code": .string("lifetime")]))
        #expect(
            AccessReason.denied(.refunded, raw: "REFUND_FULL").jsonValue
                == .object(["code": .string("refunded"), "raw": .string("REFUND_FULL")]))
        #expect(AccessReason.denied(.upgraded, raw: nil).jsonValue == .object(["code": .string("upgraded")]))
        #expect(
            AccessReason.denied(Denial.Code(rawValue: "frozen"), raw: nil).jsonValue
                == .object(["code": .string("unknown")]))
    }
}

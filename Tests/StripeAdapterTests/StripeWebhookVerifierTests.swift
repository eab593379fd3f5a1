import EntitlementKit
import EntitlementKitStripe
import Foundation
import Testing

/// `Stripe-Signature` verification (stripe-mapping.md, Webhooks) against signatures computed outside the
/// package, with Python's `hmac` module (`hmac.new(secret.encode(), f"{t}.{payload}".encode(), sha256)`),
/// and written here by hand.
@Suite("Stripe webhook signatures", .timeLimit(.minutes(1)))
struct StripeWebhookVerifierTests {
    static let alpha = "whsec_alpha_0123456789abcdefABCDEF"
    static let beta = "whsec_beta_fedcba9876543210FEDCBA"
    /// 2025-09-15T10:00:00Z, the `t` of every header below.
    static let signedAt: Int64 = 1_757_930_400
    static let receivedAt = Date(timeIntervalSince1970: 1_757_930_400)

    static let payload = Array(
        #"{"id":"evt_1","object":"event","type":"customer.subscription.updated","created":1757930000,"livemode":true,"api_version":"2025-03-31.basil","data":{"object":{"id":"sub_1","object":"subscription","status":"active","livemode":true,"created":1748736000,"start_date":1748736000,"customer":"cus_1","metadata":{"app_user_id":"alice"},"items":{"object":"list","has_more":false,"url":"/v1/subscription_items","data":[{"id":"si_1","object":"subscription_item","current_period_start":1756684800,"current_period_end":1759276800,"price":{"id":"price_pro","object":"price","product":"prod_Pro","lookup_key":null}}]}}}}"#
            .utf8)
    /// HMAC-SHA256 of "1757930400." + payload under `alpha` / `beta` (Python).
    static let byAlpha = "7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028"
    static let byBeta = "6f819522946775eb1a7b17a4d0815e1250163effccd8abfe547416f2ef865f10"
    /// HMAC-SHA256 of "0." + payload under `alpha`.
    static let byAlphaAtZero = "2ac2fbba36f1379c702e8539461d256e7f915e05f7c71808e1d5d03e1496adf2"

    func verify(
        _ header: String?, secrets: [String] = [alpha], tolerance: Int = 300, payload: [UInt8] = payload,
        at instant: Date = receivedAt
    ) throws(StripeWebhookError) -> StripeVerifiedEvent {
        try StripeWebhookVerifier(secrets: secrets, tolerance: tolerance).verify(
            payload: payload, signatureHeader: header, at: instant)
    }

    func refusal(
        _ header: String?, secrets: [String] = [alpha], tolerance: Int = 300, payload: [UInt8] = payload,
        at instant: Date = receivedAt
    ) -> StripeWebhookError? {
        do {
            _ = try verify(header, secrets: secrets, tolerance: tolerance, payload: payload, at: instant)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSignatureByTheSecretVerifiesAndReadsTheEvent() throws {
        let event = try verify("t=1757930400,v1=\(Self.byAlpha)")
        #expect(event.id == "evt_1")
        #expect(event.type == "customer.subscription.updated")
        #expect(event.created == Date(timeIntervalSince1970: 1_757_930_000))
        #expect(event.signedAt == Self.receivedAt)
        #expect(event.livemode)
    }

    @Test func theCurrentSecretAmongSeveralV1IsAccepted() throws {
        // Stripe rolling its secret signs with both: one v1 for the old secret, one for the new.
        #expect(throws: Never.self) { try verify("t=1757930400,v1=\(Self.byBeta),v1=\(Self.byAlpha)") }
        #expect(throws: Never.self) { try verify("t=1757930400,v1=\(Self.byAlpha),v1=\(Self.byBeta)") }
        // The app rolling its own: either configured secret verifies.
        #expect(throws: Never.self) { try verify("t=1757930400,v1=\(Self.byBeta)", secrets: [Self.alpha, Self.beta]) }
    }

    @Test func aRotatedOutSecretIsRefused() {
        #expect(refusal("t=1757930400,v1=\(Self.byBeta)") == .noMatchingSignature)
    }

    @Test func aWrongSignatureIsRefused() {
        let flipped = "8" + Self.byAlpha.dropFirst()
        #expect(refusal("t=1757930400,v1=\(flipped)") == .noMatchingSignature)
        // The expected value is lower-case hex: another spelling is another value.
        #expect(refusal("t=1757930400,v1=\(Self.byAlpha.uppercased())") == .noMatchingSignature)
        #expect(refusal("t=1757930400,v1=\(Self.byAlpha.dropLast())") == .noMatchingSignature)
        #expect(refusal("t=1757930400,v1=\(Self.byAlpha)00") == .noMatchingSignature)
        #expect(refusal("t=1757930400,v1= \(Self.byAlpha)") == .noMatchingSignature)
        // The key is the whole secret, `whsec_` included.
        #expect(
            refusal("t=1757930400,v1=\(Self.byAlpha)", secrets: [String(Self.alpha.dropFirst("whsec_".count))])
                == .noMatchingSignature)
        #expect(refusal("t=1757930400,v1=\(Self.byAlpha)", secrets: []) == .noMatchingSignature)
    }

    @Test func aBodyChangedOnTheWayIsRefused() {
        #expect(refusal("t=1757930400,v1=\(Self.byAlpha)", payload: Self.payload + [0x0A]) == .noMatchingSignature)
        // The timestamp is signed too: the same signature under another `t` fails.
        #expect(refusal("t=1757930401,v1=\(Self.byAlpha)", at: Self.receivedAt) == .noMatchingSignature)
    }

    @Test func aMissingHeaderIsRefused() {
        #expect(refusal(nil) == .missingHeader)
        #expect(refusal("") == .missingHeader)
    }

    @Test(arguments: [
        "v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        "t=1757930400,t=1757930400,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        "t=,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        "t=1757930400.0,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        "t=-1757930400,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        "t=0001757930400,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        " t=1757930400,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
        "t=١٧٥٧٩٣٠٤٠٠,v1=7e63c71a03941749b80d9b405cb9f64b809729532f21fbe5fc9e1ffea31e4028",
    ])
    func aHeaderWithoutExactlyOneTimestampOfDigitsIsMalformed(header: String) {
        guard case .malformedHeader? = refusal(header) else {
            Issue.record("\(header): \(String(describing: refusal(header)))")
            return
        }
    }

    @Test func withoutAV1SignatureNothingIsCompared() {
        // v0 (or any other scheme) is never used, even when it would match: no downgrade.
        #expect(refusal("t=1757930400,v0=\(Self.byAlpha)") == .noV1Signature)
        #expect(refusal("t=1757930400,V1=\(Self.byAlpha)") == .noV1Signature)
        #expect(refusal("t=1757930400,v2=\(Self.byAlpha)") == .noV1Signature)
        #expect(refusal("t=1757930400,v0=\(Self.byAlpha),v1=00") == .noMatchingSignature)
    }

    @Test func elementsWithoutEqualsAreIgnoredAndValuesSplitAtTheFirstEquals() {
        #expect(throws: Never.self) { try verify("t=1757930400,garbage,,v1=\(Self.byAlpha)") }
        #expect(refusal("t=1757930400,v1=\(Self.byAlpha)=") == .noMatchingSignature)
    }

    @Test func theSignedTimestampIsTheDecimalWithoutLeadingZeros() {
        #expect(throws: Never.self) { try verify("t=01757930400,v1=\(Self.byAlpha)") }
        let epoch = Date(timeIntervalSince1970: 0)
        #expect(throws: Never.self) { try verify("t=000,v1=\(Self.byAlphaAtZero)", at: epoch) }
    }

    @Test func theToleranceHoldsInBothDirectionsInclusively() {
        let header = "t=1757930400,v1=\(Self.byAlpha)"
        #expect(throws: Never.self) { try verify(header, at: Self.receivedAt.addingTimeInterval(300)) }
        #expect(throws: Never.self) { try verify(header, at: Self.receivedAt.addingTimeInterval(-300)) }
        guard case .staleTimestamp? = refusal(header, at: Self.receivedAt.addingTimeInterval(300.001)) else {
            Issue.record("a timestamp 300.001 s old was not refused as stale")
            return
        }
        guard case .futureTimestamp? = refusal(header, at: Self.receivedAt.addingTimeInterval(-301)) else {
            Issue.record("a timestamp 301 s ahead was not refused as in the future")
            return
        }
        guard case .staleTimestamp? = refusal(header, tolerance: 10, at: Self.receivedAt.addingTimeInterval(11)) else {
            Issue.record("a tolerance of 10 s was not applied")
            return
        }
        #expect(throws: Never.self) { try verify(header, tolerance: 10, at: Self.receivedAt.addingTimeInterval(10)) }
        #expect(StripeWebhookVerifier(secrets: []).tolerance == 300)
    }

    @Test func theSignatureIsCheckedBeforeTheTimestamp() {
        // A forged header learns nothing about the clock: a bad signature is refused as such even when stale.
        #expect(refusal("t=1757930400,v1=00", at: Self.receivedAt.addingTimeInterval(1_000)) == .noMatchingSignature)
    }

    @Test func aVerifiedPayloadThatIsNotAnEventIsRefused() {
        let subscription = Array(#"{"id":"sub_1","object":"subscription"}"#.utf8)
        let header = "t=1757930400,v1=f7913c6dcf9076566b2edcadf5e73f65a1e478ff226a3e1aee18fafa55d55f2a"
        guard case .notAnEvent? = refusal(header, payload: subscription) else {
            Issue.record("a signed subscription was taken as an event")
            return
        }
    }

    @Test func aVerifiedEventMapsAsVerified() throws {
        let event = try verify("t=1757930400,v1=\(Self.byAlpha)")
        let snapshot = try StripeAdapter().snapshot(from: event, at: Self.receivedAt)
        #expect(snapshot.verification == .verified)
        #expect(snapshot["prod_Pro"]?.isActive == true)
        #expect(snapshot.appUserId == "alice")
    }
}

import EntitlementKit
import EntitlementKitGooglePlay
import EntitlementKitLedger
import EntitlementKitTesting
import Foundation
import TestSupport
import Testing

/// Google's pushes authenticated (ledger.md, Inputs): the Pub/Sub push's OIDC token (RS256 under the key its
/// `kid` names, `iss`, `aud`, `email`, `email_verified`, `exp`, `iat`) against a JWKS, on tokens the test
/// kit's signer makes; every failure refused `unauthenticated`, its messageId named, nothing stored; and
/// without authentication configured, a void asks for a refresh.
@Suite("Google Play push authentication", .timeLimit(.minutes(5)))
struct GooglePlayPushAuthenticationTests {
    typealias Play = GooglePlayLedgerTests
    static let audience = "https://api.acme.example/play/push"
    static let email = "rtdn-push@acme-project.iam.gserviceaccount.com"
    static let signer = Result { try GooglePlayTestPushSigner() }

    static func authentication() throws -> GooglePlayPushAuthentication {
        GooglePlayPushAuthentication(
            audience: audience, serviceAccountEmail: email, keys: try GoogleSigningKeys(jwks: signer.get().jwks))
    }

    static func ledger(authenticated: Bool = true) throws -> EntitlementLedger {
        EntitlementLedger(sources: [
            GooglePlayLedgerSource(
                catalog: Play.catalog, packageName: Play.package,
                pushAuthentication: authenticated ? try authentication() : nil)
        ])
    }

    static func voided(_ messageId: String = "v1") -> LedgerNotification {
        Play.push(
            messageId: messageId,
            [
                "voidedPurchaseNotification": .object([
                    "purchaseToken": .string("tok"), "orderId": .string("GPA.1"), "productType": .integer(1),
                    "refundType": .integer(1),
                ])
            ])
    }

    /// `notification` carrying `Authorization: <header>`.
    static func with(_ header: String?, _ notification: LedgerNotification) -> LedgerNotification {
        var changed = notification
        changed.headers = header.map { ["Authorization": $0] } ?? [:]
        return changed
    }

    /// `notification` with a genuine token issued at its receipt, its claims changed by `changes`.
    static func signed(
        _ notification: LedgerNotification, changes: (inout [String: JSONValue]) -> Void = { _ in }
    ) throws -> LedgerNotification {
        with(
            try signer.get().authorizationHeader(
                audience: audience, email: email, issuedAt: notification.receivedAt, changes: changes),
            notification)
    }

    /// A ledger holding an active purchase of acct-7 on `tok`.
    static func ledgerWithPurchase(authenticated: Bool = true) async throws -> EntitlementLedger {
        let ledger = try ledger(authenticated: authenticated)
        let document = Play.document(Play.subscription(expiry: "2025-04-01T00:00:00Z"), token: "tok", at: "2025-02-01")
        #expect(try await ledger.apply(document) == .applied(customers: ["acct-7"]))
        return ledger
    }

    @Test func anAuthenticatedVoidIsAppliedAndAVoidWithoutAuthenticationAsksForARefresh() async throws {
        let authenticated = try await Self.ledgerWithPurchase()
        #expect(try await authenticated.apply(try Self.signed(Self.voided())) == .applied(customers: ["acct-7"]))
        #expect(
            try await authenticated.snapshot(for: "acct-7", at: midnight("2025-03-01")).isActive("pro") == false)

        let unconfigured = try await Self.ledgerWithPurchase(authenticated: false)
        #expect(try await unconfigured.apply(Self.voided()) == .refreshNeeded(purchaseToken: "tok", productId: nil))
        #expect(
            try await unconfigured.apply(try Self.signed(Self.voided("v2")))
                == .refreshNeeded(purchaseToken: "tok", productId: nil))
        #expect(try await unconfigured.snapshot(for: "acct-7", at: midnight("2025-03-01")).isActive("pro"))
    }

    @Test func everyFailedClaimIsRefusedUnauthenticatedStoringNothing() async throws {
        let receivedAt = Play.push(messageId: "x", [:]).receivedAt.timeIntervalSince1970
        let signer = try Self.signer.get()
        let cases: [(String, LedgerNotification)] = [
            ("no Authorization header", Self.voided()),
            ("not a Bearer token", Self.with("Basic abc", Self.voided())),
            ("not a JWT", Self.with("Bearer abc.def", Self.voided())),
            ("iss", try Self.signed(Self.voided()) { $0["iss"] = .string("https://evil.example") }),
            ("aud", try Self.signed(Self.voided()) { $0["aud"] = .string("https://other.example") }),
            ("email", try Self.signed(Self.voided()) { $0["email"] = .string("someone@else.example") }),
            ("email_verified", try Self.signed(Self.voided()) { $0["email_verified"] = .bool(false) }),
            ("email_verified missing", try Self.signed(Self.voided()) { $0["email_verified"] = nil }),
            ("exp", try Self.signed(Self.voided()) { $0["exp"] = .integer(Int64(receivedAt)) }),
            ("iat", try Self.signed(Self.voided()) { $0["iat"] = .integer(Int64(receivedAt) + 301) }),
            // About 34,800 years on: past what a date can hold (EpochTime), so no expiry at all.
            ("exp past the years", try Self.signed(Self.voided()) { $0["exp"] = .integer(1 << 40) }),
            (
                "signature",
                Self.with(
                    try Self.signed(Self.voided()).headers["Authorization"].map { String($0.dropLast(4)) + "AAAA" },
                    Self.voided())
            ),
            (
                "kid",
                Self.with(
                    "Bearer "
                        + GooglePlayTestPushSigner.forged(
                            signer, kid: "another-key", audience: Self.audience, email: Self.email,
                            issuedAt: Int64(receivedAt)), Self.voided())
            ),
        ]
        for (name, push) in cases {
            let ledger = try await Self.ledgerWithPurchase()
            do {
                _ = try await ledger.apply(push)
                Issue.record("\(name): a push was taken")
            } catch {
                #expect(error.kind == .unauthenticated, "\(name): \(error)")
                #expect(error.message.hasPrefix(#"push "v1" is not authenticated: "#), "\(name): \(error.message)")
            }
            #expect(
                try await ledger.snapshot(for: "acct-7", at: midnight("2025-03-01")).isActive("pro"),
                "\(name): the refused void changed the purchase")
            // Nothing of it stored, its messageId included: the genuine push with the same id is applied.
            #expect(
                try await ledger.apply(try Self.signed(Self.voided())) == .applied(customers: ["acct-7"]), "\(name)")
        }
        // The edges taken: iat exactly 5 minutes after receipt, exp one second after it, the bare issuer.
        for change in [
            { (claims: inout [String: JSONValue]) in claims["iat"] = .integer(Int64(receivedAt) + 300) },
            { $0["exp"] = .integer(Int64(receivedAt) + 1) }, { $0["iss"] = .string("accounts.google.com") },
        ] {
            let ledger = try await Self.ledgerWithPurchase()
            #expect(
                try await ledger.apply(try Self.signed(Self.voided(), changes: change))
                    == .applied(customers: ["acct-7"]))
        }
    }

    @Test func theJWKSIsReadStrictlyWithLocatedErrors() throws {
        let signer = try Self.signer.get()
        #expect(try GoogleSigningKeys(jwks: signer.jwks).keyIds == [signer.keyId])
        let n =
            "u1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0_IzW7yWR7QkrmBL7jTKEn5u-qKhbwKfBstIs-bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW_VDL5AaWTg0nLVkjRo9z-40RQzuVaE8AkAFmxZzow3x-VJYKdjykkJ0iT9wCS0DRTXu269V264Vf_3jvredZiKRkgwlL9xNAwxXFg0x_XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC-9aGVd-Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmw"
        // A Google-shaped key: taken; an EC key beside it: skipped.
        let shaped =
            #"{"keys":[{"kty":"RSA","alg":"RS256","use":"sig","kid":"k1","n":"\#(n)","e":"AQAB"},{"kty":"EC","kid":"e1","crv":"P-256","x":"AA","y":"AA"}]}"#
        #expect(try GoogleSigningKeys(jwks: Data(shaped.utf8)).keyIds == ["k1"])
        let refusals: [(String, String)] = [
            (#"{"keys":{}}"#, "keys"),
            (#"{"keys":[{"kty":"RSA","n":"\#(n)","e":"AQAB"}]}"#, "keys[0].kid"),
            (
                #"{"keys":[{"kty":"RSA","kid":"a","n":"\#(n)","e":"AQAB"},{"kty":"RSA","kid":"a","n":"\#(n)","e":"AQAB"}]}"#,
                "keys[1].kid"
            ),
            (#"{"keys":[{"kty":"RSA","kid":"a","n":"not+base64url","e":"AQAB"}]}"#, "keys[0].n"),
            (#"{"keys":[{"kty":"RSA","kid":"a","n":"\#(n)","e":"AQA="}]}"#, "keys[0].e"),
            (#"{"keys":[{"kty":"RSA","kid":"a","n":"AQAB","e":"AQAB"}]}"#, "keys[0]"),
        ]
        for (text, path) in refusals {
            do {
                _ = try GoogleSigningKeys(jwks: Data(text.utf8))
                Issue.record("\(text) was read")
            } catch {
                #expect(error.path.description == path, "\(text): \(error)")
            }
        }
    }
}

extension GooglePlayTestPushSigner {
    /// A token signed by the test key but naming a key id the JWKS does not hold.
    static func forged(
        _ signer: GooglePlayTestPushSigner, kid: String, audience: String, email: String, issuedAt: Int64
    ) -> String {
        let genuine = signer.token(
            claims: .object([
                "iss": .string("https://accounts.google.com"), "aud": .string(audience), "email": .string(email),
                "email_verified": .bool(true), "iat": .integer(issuedAt), "exp": .integer(issuedAt + 3600),
            ]))
        let parts = genuine.split(separator: ".").map(String.init)
        let header = JSONValue.object(["alg": .string("RS256"), "kid": .string(kid), "typ": .string("JWT")])
        var text = Data(header.compactText.utf8).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return ([text] + parts.dropFirst()).joined(separator: ".")
    }
}

import EntitlementKit
import Foundation
import Testing

@testable import EntitlementKitAppStore

/// The JWS cut at the byte level (`CompactJWS`) and opened in one pass by the adapter's item reader: the
/// same verdicts as the `Character`-level split and the two-pass opening they replaced.
@Suite(.timeLimit(.minutes(1))) struct CompactJWSTests {
    static func valid() throws -> String { try ChainCacheAndStrictnessTests.jws("narrowValid2024") }

    @Test func aJWSIsCutAtItsTwoDots() throws {
        let parts = try #require(CompactJWS("ab.c-d.e_f"))
        #expect(Array(parts.header) == Array("ab".utf8))
        #expect(Array(parts.payload) == Array("c-d".utf8))
        #expect(Array(parts.signature) == Array("e_f".utf8))
        #expect(CompactJWS("..").map { [$0.header.count, $0.payload.count, $0.signature.count] } == [0, 0, 0])
        for text in ["", "abc", "a.b", "a.b.c.d", "a..b..c", "...."] {
            #expect(CompactJWS(text) == nil, "\(text)")
        }
    }

    /// One part too many or too few, a non-ASCII character (a dot with a combining mark is one `Character`
    /// but cuts at its byte), a stray bit after the payload's last byte: each is "not a JWS", never a
    /// verified payload.
    @Test func cutsThatAreNotAJWSAreRefusedAsSuch() throws {
        let verifier = try ChainCacheAndStrictnessTests.verifier()
        let jws = try Self.valid()
        #expect(throws: Never.self) { try verifier.verify(jws, path: .root) }
        let dots = jws.utf8.enumerated().filter { $0.element == UInt8(ascii: ".") }.map(\.offset)
        let payload = String(jws.dropFirst(dots[0] + 1).prefix(dots[1] - dots[0] - 1))
        var strayBit = payload
        if payload.utf8.count % 4 == 2 || payload.utf8.count % 4 == 3 {
            // The last character carries bits past the last byte; setting its lowest makes one stray.
            let last = try #require(payload.utf8.last)
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            let index = try #require(alphabet.firstIndex(of: last))
            strayBit = String(payload.dropLast()) + String(UnicodeScalar(alphabet[index | 1]))
        }
        var cases = [
            jws + ".AAAA", String(jws[..<jws.index(jws.startIndex, offsetBy: dots[1])]),
            jws.replacingOccurrences(of: ".", with: ".\u{301}"),
            jws.replacingOccurrences(of: payload, with: "é" + payload),
        ]
        if strayBit != payload { cases.append(jws.replacingOccurrences(of: payload, with: strayBit)) }
        for text in cases {
            let refusal = JWSChainVerificationTests.refusal(text, verifier)
            #expect(
                refusal?.contains("is not a JWS (three base64url parts separated by dots)") == true,
                "\(refusal ?? "verified")")
        }
    }

    /// The adapter's one-pass opening gives the payload `verify` returns, as verified, and refuses what
    /// `verify` refuses with the same error.
    @Test func theOnePassOpeningAgreesWithVerify() throws {
        let verifier = try ChainCacheAndStrictnessTests.verifier()
        let chains = try ChainCacheAndStrictnessTests.chains()
        for (name, jws) in chains.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath.root.appending("signedTransactions").appending(index: 0)
            let verified = Result { () throws(DocumentError) in try verifier.verify(jws, path: path) }
            let opened = Result { () throws(DocumentError) in
                try verifier.openedPayload(of: jws, path: path) { _ throws(DocumentError) in false }
            }
            switch (verified, opened) {
            case (.success(let verified), .success(let opened)):
                #expect(opened.isVerified, "\(name)")
                #expect(opened.payload.value == (try JSONValue.parse(verified.payload)), "\(name)")
            case (.failure(let verifyError), .failure(let openError)):
                #expect("\(verifyError)" == "\(openError)", "\(name)")
            default:
                Issue.record("\(name): verify \(verified), opened \(opened)")
            }
        }
    }
}

import EntitlementKit
import EntitlementKitAppStore
import Foundation
import Testing

/// Real Apple-signed JWS, verified against the bundled Apple Root CA - G3 (and Apple's library test
/// root for its mock data) at their `signedDate`; one changed byte fails each. Apple's and third
/// parties' material is not committed here: the test runs when `APPSTORE_REAL_JWS_DIR` names a folder of
/// `*.jws` files (optionally with `apple-lib_testCA.der`, the root of the `*testCA*` ones).
@Suite(.timeLimit(.minutes(5))) struct RealAppleJWSTests {
    static let folder = ProcessInfo.processInfo.environment["APPSTORE_REAL_JWS_DIR"].map {
        URL(fileURLWithPath: $0)
    }

    @Test(.enabled(if: folder != nil, "set APPSTORE_REAL_JWS_DIR to a folder of real App Store JWS"))
    func everyRealJWSVerifiesAtItsSignedDateAndFailsWhenOneByteChanges() throws {
        let folder = try #require(Self.folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jws") }
            .sorted()
        let testRoot = folder.appendingPathComponent("apple-lib_testCA.der")
        var verified = 0
        for name in names where !name.contains("xcode") {
            let jws = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let roots =
                name.contains("testCA") ? [try Data(contentsOf: testRoot)] : AppStoreJWSVerifier.appleRootCertificates
            let verifier = AppStoreJWSVerifier(rootCertificates: roots)
            #expect(throws: Never.self, "\(name)") { _ = try verifier.verify(jws, path: .root) }
            var changed = Array(jws)
            let index = changed.count - 20
            changed[index] = changed[index] == "A" ? "B" : "A"
            #expect(throws: DocumentError.self, "\(name) with one character changed") {
                _ = try verifier.verify(String(changed), path: .root)
            }
            verified += 1
        }
        #expect(verified > 0)
    }
}

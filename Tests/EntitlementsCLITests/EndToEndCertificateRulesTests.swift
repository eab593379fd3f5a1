import Foundation
import Testing

/// Issue 31's certificate rules through the built tool: a certificate whose validity ends before it starts
/// (it killed the process with SIGILL through convert, migrate and ledger replay), critical extensions the
/// verifier does not process, a root that is no certificate authority — each a located refusal, never a
/// crash. The chains are `Tests/AppStoreVerificationTests/PKI/rules-*` (see its README).
@Suite(.timeLimit(.minutes(5)))
struct EndToEndCertificateRulesTests {
    static let pki = "Tests/AppStoreVerificationTests/PKI/"

    static func chain(_ name: String) throws -> String {
        let data = try Data(contentsOf: EntitlementsTool.packageRoot.appendingPathComponent(pki + "rules-chains.json"))
        let chains = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        return try #require(chains[name])
    }

    /// An App Store transaction history holding the case's one JWS.
    static func history(_ name: String) throws -> String {
        #"{"revision":"r1","hasMore":false,"bundleId":"com.acme.trails","appAppleId":6447001234,"#
            + #""environment":"Production","signedTransactions":[""# + (try chain(name)) + #""]}"#
    }

    static func convert(_ name: String, root: String = "rules-root.der") async throws -> EntitlementsTool.Result {
        let (file, directory) = try EntitlementsTool.temporaryFile(named: "history.json", contents: try history(name))
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await EntitlementsTool.run([
            "convert", "--from", "appstore", "--bundle-id", "com.acme.trails", "--root-certificate", pki + root,
            "--at", "2025-06-15T12:00:00Z", file.path,
        ])
    }

    @Test func theRulesChainConverts() async throws {
        let result = try await Self.convert("valid")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""verification": "verified""#))
    }

    @Test(arguments: [
        ("leafNotBeforeAfterNotAfter", "x5c[0] is not a certificate this verifier reads: the validity's notBefore "),
        ("intermediateNotBeforeAfterNotAfter", "x5c[1] is not a certificate this verifier reads: the validity's "),
        ("leafWithCriticalExtendedKeyUsage", "critical extension 2.5.29.37 is not understood"),
        ("intermediateWithCriticalCertificatePolicies", "critical extension 2.5.29.32 is not understood"),
        ("leafWithCriticalSubjectKeyIdentifier", "critical extension 2.5.29.14 is not understood"),
        ("leafWithCriticalAuthorityKeyIdentifier", "critical extension 2.5.29.35 is not understood"),
    ])
    func aCertificateBrokenByTheRulesIsALocatedRefusal(name: String, reason: String) async throws {
        let result = try await Self.convert(name)
        #expect(result.status == 65, "\(name): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let line = result.stderrLines.first ?? ""
        #expect(line.contains("history.json: signedTransactions[0]: is a JWS that does not verify: "), "\(line)")
        #expect(line.contains(reason), "\(line)")
    }

    @Test func aRootThatIsNoCertificateAuthorityOrEndsBeforeItStartsIsRefused() async throws {
        for (name, root) in [
            ("underRootWithoutBasicConstraints", "noBasicConstraints-root.der"), ("underRootNotCA", "notCA-root.der"),
        ] {
            let result = try await Self.convert(name, root: root)
            #expect(result.status == 65, "\(name): \(result.stderr)")
            #expect(
                result.stderrLines.first?.hasSuffix(
                    "the root certificate is not a certificate authority (no basicConstraints cA)") == true,
                "\(result.stderr)")
        }
        let backwards = try await Self.convert("underBackwardsRoot", root: "backwards-root.der")
        #expect(backwards.status == 64, "\(backwards.stderr)")
        #expect(
            backwards.stderrLines.first?.contains(
                "backwards-root.der: is not a certificate (DER, or PEM CERTIFICATE blocks): is not a DER certificate: "
                    + "the validity's notBefore 2034-01-01T00:00:00Z is after its notAfter 2024-01-01T00:00:00Z at byte"
            )
                == true,
            "\(backwards.stderr)")
    }

    /// Ten megabytes of dots where a JWS goes cost a few times their size: the tool, run under an address
    /// space limit, must refuse them within the limit the smallest document needs plus five times the
    /// input's size (measured on 2026-11-29: 2.4 to 3.2 times in address space, 2.8 times in resident
    /// memory — the file, the parsed string, the reader's copies). The smallest limit is found first, in 4 MB
    /// steps, so the test holds on any machine.
    @Test func tenMegabytesOfDotsTakeAFewTimesTheirSize() async throws {
        func document(_ text: String) -> String {
            #"{"revision":"r1","hasMore":false,"bundleId":"com.acme.trails","appAppleId":6447001234,"#
                + #""environment":"Production","signedTransactions":[""# + text + #""]}"#
        }
        let size = 10_000_000
        let small = try EntitlementsTool.temporaryFile(named: "small.json", contents: document("..."))
        let large = try EntitlementsTool.temporaryFile(
            named: "large.json", contents: document(String(repeating: ".", count: size)))
        defer {
            try? FileManager.default.removeItem(at: small.directory)
            try? FileManager.default.removeItem(at: large.directory)
        }
        let tool = try EntitlementsTool.executable().path
        /// Whether the tool, limited to `kilobytes` of address space, refuses `file` as no JWS (status 65).
        func refusedWithin(kilobytes: Int, _ file: URL) async throws -> Bool {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", #"ulimit -v "$0" && exec "$@" >/dev/null 2>&1"#, String(kilobytes), tool, "convert", "--from",
                "appstore", "--bundle-id", "com.acme.trails", file.path,
            ]
            try process.run()
            await EntitlementsTool.exit(of: process)
            return process.terminationReason == .exit && process.terminationStatus == 65
        }
        var baseline = 32_000
        while try await !refusedWithin(kilobytes: baseline, small.file) {
            baseline += 4_000
            try #require(baseline < 4_000_000, "the small document is never refused")
        }
        #expect(try await refusedWithin(kilobytes: baseline + 5 * size / 1000, large.file))
    }
}

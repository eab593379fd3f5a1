import EntitlementKit
import Foundation
import Testing

/// The App Store through the built tool: `--from appstore` and detection, the store options on every
/// command that reads documents, and `parity` between a RevenueCat export and App Store statuses.
@Suite("entitlements with App Store documents", .timeLimit(.minutes(5)))
struct EndToEndStoreTests {
    typealias Tool = EntitlementsTool

    static let at = ["--at", "2025-06-15T12:00:00Z"]
    static let bundle = ["--bundle-id", "com.acme.trails"]
    static func fixture(_ name: String) -> String { "Fixtures/appstore/" + name }

    /// The canonical JSON `convert` prints equals the fixture's hand-written expectation.
    @Test(arguments: ["statuses-active-monthly", "history-upgrade", "non-renewing-season"])
    func convertMapsLikeTheFixture(_ name: String) async throws {
        let result = try await Tool.run(
            ["convert", "--from", "appstore", "--catalog", Self.fixture(name + ".catalog.json")] + Self.bundle + Self.at
                + [Self.fixture(name + ".json")])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try JSONValue.parse(Data(result.stdout.utf8))
        let expected = try JSONValue.parse(Data(try Tool.repositoryFile(Self.fixture(name + ".expected.json")).utf8))
        #expect(printed == expected)
    }

    @Test func theFormatIsDetectedFromTheShape() async throws {
        let result = try await Tool.run(
            ["convert", "--compact"] + Self.at + [Self.fixture("history-trial-then-renewals.json")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""provider":"appstore""#))
        #expect(result.stdout.contains(#""activeEntitlementIds":["com.acme.trails.pro.monthly"]"#))
    }

    @Test func everyCommandThatReadsDocumentsTakesTheStoreOptions() async throws {
        for command in ["convert", "check", "diff", "parity", "migrate"] {
            let help = try await Tool.run([command, "--help"])
            for option in [
                "--catalog FILE", "--root-certificate FILE", "--allow-unverified-test-data", "--bundle-id ID",
            ] {
                #expect(help.stdout.contains(option), "\(command) \(option)")
            }
        }
        #expect(try await Tool.run(["convert", "--help"]).stdout.contains("appstore"))
    }

    @Test func checkUsesTheCatalogsEntitlementIds() async throws {
        let document = Self.fixture("catalog-two-products-one-entitlement.json")
        let catalog = Self.fixture("catalog-two-products-one-entitlement.catalog.json")
        let withCatalog = try await Tool.run(["check", "--catalog", catalog] + Self.at + [document, "pro", "maps"])
        #expect(withCatalog.status == 0, "\(withCatalog.stderr)")
        // Without the catalog every product is its own entitlement: there is no `pro`.
        let without = try await Tool.run(["check"] + Self.at + [document, "pro"])
        #expect(without.status == 1)
    }

    @Test func aCatalogThatCannotBeReadOrIsNotOneIsRefused() async throws {
        let missing = try await Tool.run([
            "convert", "--catalog", "no/such/catalog.json", Self.fixture("consumables-only.json"),
        ])
        #expect(missing.status == 66)
        #expect(missing.stderrLines.first?.hasPrefix("error: --catalog: no/such/catalog.json: cannot open") == true)
        #expect(missing.stdout.isEmpty)

        let (file, directory) = try Tool.temporaryFile(
            named: "catalog.json", contents: #"{"products": {"a": {"entitlements": "pro"}}}"#)
        defer { try? FileManager.default.removeItem(at: directory) }
        let invalid = try await Tool.run(["convert", "--catalog", file.path, Self.fixture("consumables-only.json")])
        #expect(invalid.status == 64)
        #expect(invalid.stderrLines.first?.hasPrefix("error: --catalog: \(file.path): products.a.entitlements") == true)
        #expect(invalid.stdout.isEmpty)
    }

    @Test func aSignedDocumentIsVerifiedAgainstTheRootGivenAndRefusedWithoutIt() async throws {
        let signed = ["--from", "appstore", "--bundle-id", "com.acme.trails"] + Self.at
        let verified = try await Tool.run(
            ["convert", "--root-certificate", Self.fixture("signed/test-root.pem")] + signed
                + [Self.fixture("signed/statuses.json")])
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout.contains(#""verification": "verified""#))
        let refused = try await Tool.run(["convert"] + signed + [Self.fixture("signed/statuses.json")])
        #expect(refused.status == 65)
        #expect(refused.stdout.isEmpty)
        #expect(
            refused.stderrLines == [
                "error: \(Self.fixture("signed/statuses.json")): data[0].lastTransactions[0].signedTransactionInfo: is a JWS that does not verify: x5c[1] is not signed by a configured root certificate"
            ])
    }

    @Test func rootCertificatesAreReadAsDEROrPEMAndAnythingElseIsRefused() async throws {
        let document = Self.fixture("consumables-only.json")
        for root in ["test-root.der", "test-root.pem"] {
            let result = try await Tool.run(
                [
                    "convert", "--root-certificate", Self.fixture("signed/" + root), "--root-certificate",
                    Self.fixture("signed/other-root.der"),
                ] + Self.at + [document])
            #expect(result.status == 0, "\(root): \(result.stderr)")
        }
        let missing = try await Tool.run(["convert", "--root-certificate", "no/such/root.der", document])
        #expect(missing.status == 66)
        #expect(
            missing.stderrLines.first?.hasPrefix("error: --root-certificate: no/such/root.der: cannot open") == true)

        for (name, contents) in [
            ("notes.txt", "not a certificate"),
            ("key.pem", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\n-----END EC PRIVATE KEY-----\n"),
            ("broken.pem", "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n"),
        ] {
            let (file, directory) = try Tool.temporaryFile(named: name, contents: contents)
            defer { try? FileManager.default.removeItem(at: directory) }
            let refused = try await Tool.run(["convert", "--root-certificate", file.path, document])
            #expect(refused.status == 64, "\(name)")
            #expect(
                refused.stderrLines.first?.hasPrefix(
                    "error: --root-certificate: \(file.path): is not a certificate (DER, or PEM CERTIFICATE blocks): ")
                    == true, "\(refused.stderrLines)")
            #expect(refused.stdout.isEmpty)
        }
    }

    @Test func aTransactionForAnotherAppIsRefusedWhenABundleIdIsGiven() async throws {
        let document = Self.fixture("statuses-active-monthly.json")
        let wrong = try await Tool.run(["convert", "--bundle-id", "com.acme.other"] + Self.at + [document])
        #expect(wrong.status == 65)
        #expect(
            wrong.stderrLines == [
                "error: \(document): bundleId: \"com.acme.trails\" is not the configured bundle id \"com.acme.other\""
            ])
        #expect(wrong.stdout.isEmpty)
        #expect(try await Tool.run(["convert"] + Self.bundle + Self.at + [document]).status == 0)
    }

    @Test func storeKitTestDataNeedsTheOptIn() async throws {
        let document = Self.fixture("xcode-test-data-refused.json")
        let refused = try await Tool.run(["convert"] + Self.at + [document])
        #expect(refused.status == 65)
        #expect(
            refused.stderrLines.first?.hasPrefix("error: \(document): [0].environment: \"Xcode\" is StoreKit test data")
                == true)
        let allowed = try await Tool.run(
            ["convert", "--compact", "--allow-unverified-test-data"] + Self.at + [document])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains(#""verification":"notRequested""#))
    }

    @Test func migrateReadsAppStoreEnvelopesWithTheCatalog() async throws {
        let result = try await Tool.run(
            [
                "migrate", "--catalog", Tool.crossProvider("stores.catalog.json"), "--at", "2025-06-15T00:00:00Z",
                Tool.crossProvider("stores.appstore.jsonl"),
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 7)
        let quinn = try JSONValue.parse(Data(lines[0].utf8))
        #expect(quinn["appUserId"] == .string("quinn"))
        #expect(quinn["activeEntitlementIds"] == .array([.string("premium")]))
    }

    @Test func parityBetweenARevenueCatExportAndTheAppStoreFindsEveryPlantedDifference() async throws {
        let result = try await Tool.run(
            [
                "parity", "--json", "--at", "2025-06-15T00:00:00Z", "--catalog",
                Tool.crossProvider("stores.catalog.json"),
                Tool.crossProvider("stores.revenuecat.jsonl"), Tool.crossProvider("stores.appstore.jsonl"),
            ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout == (try Tool.repositoryFile(Tool.crossProvider("stores.parity.expected.json"))))

        // Without the catalog the store's entitlements are its product ids: nothing matches `premium`.
        let uncatalogued = try await Tool.run(
            [
                "parity", "--json", "--at", "2025-06-15T00:00:00Z", Tool.crossProvider("stores.revenuecat.jsonl"),
                Tool.crossProvider("stores.appstore.jsonl"),
            ])
        #expect(uncatalogued.status == 1)
        #expect(uncatalogued.stdout != result.stdout)
    }
}

import EntitlementKit
import EntitlementKitAppStore
import EntitlementKitMigration
import EntitlementKitStripe
import Foundation

/// The options that configure the stores' adapters (`store-direct.md`), read once for every command that
/// reads documents: the commands list ``definitions``, and ``Tool`` rebuilds the context's decoder from
/// them before the command runs.
struct StoreOptions {
    /// Products → entitlements for both stores' adapters; `.identity` without `--catalog`.
    var catalog = EntitlementCatalog.identity
    /// `--allow-unverified-test-data`.
    var allowsUnverifiedTestData = false
    /// `--bundle-id`.
    var bundleId: String?
    /// `--root-certificate`: the DER trust anchors replacing the bundled Apple Root CA - G3; `nil` keeps it.
    /// Read and checked now; handed to the App Store adapter's JWS verifier.
    var rootCertificates: [Data]?
    /// `--app-user-id-key`: the Stripe metadata key naming the app user id.
    var appUserIdMetadataKey = StripeAdapter.Configuration().appUserIdMetadataKey

    static let catalogOption = CommandDefinition.Option(
        name: "--catalog", valueName: "FILE",
        help:
            "App Store / Google Play / Stripe: which products (Stripe: price ids, lookup keys or product ids) unlock which entitlements, as JSON "
            + #"({"products": {"ID": {"entitlements": ["pro"], "duration": "P3M"}}}). Default: every product is its own entitlement."#
    )
    static let allowUnverifiedTestDataOption = CommandDefinition.Option(
        name: "--allow-unverified-test-data", valueName: nil,
        help: "App Store: read StoreKit test data (environment Xcode or LocalTesting), unverified.")
    static let rootCertificateOption = CommandDefinition.Option(
        name: "--root-certificate", valueName: "FILE",
        help:
            "App Store: trust this root certificate (DER or PEM; repeatable) instead of the bundled Apple Root CA - G3.",
        repeatable: true)
    static let bundleIdOption = CommandDefinition.Option(
        name: "--bundle-id", valueName: "ID", help: "App Store: every transaction must be for this bundle id.")

    static let appUserIdKeyOption = CommandDefinition.Option(
        name: "--app-user-id-key", valueName: "KEY",
        help: "Stripe: the metadata key that names the app user id. Default: app_user_id.")

    /// The options, in the order `--help` lists them.
    static var definitions: [CommandDefinition.Option] {
        [catalogOption, rootCertificateOption, allowUnverifiedTestDataOption, bundleIdOption, appUserIdKeyOption]
    }

    /// Whether `arguments` set any of them.
    static func areGiven(in arguments: ParsedArguments) -> Bool {
        definitions.contains { arguments.has($0.name) || !arguments.allValues($0.name).isEmpty }
    }

    /// Reads the options from `arguments`: an unreadable file is `66`, a catalog or certificate that is not
    /// one `64`.
    init(_ arguments: ParsedArguments, command: String) throws(CommandFailure) {
        if let path = arguments.value("--catalog") {
            let input = InputFile(argument: path)
            let data: Data
            do {
                data = try input.readAll()
            } catch {
                throw CommandFailure(status: error.status, message: "--catalog: " + error.message)
            }
            do {
                catalog = try EntitlementCatalog(json: data)
            } catch {
                throw .usage("--catalog: \(input.displayName): \(error)", command: command)
            }
        }
        for path in arguments.allValues("--root-certificate") {
            let input = InputFile(argument: path)
            let data: Data
            do {
                data = try input.readAll()
            } catch {
                throw CommandFailure(status: error.status, message: "--root-certificate: " + error.message)
            }
            let certificates: [Data]
            do {
                certificates = try AppStoreJWSVerifier.certificates(fromPEMOrDER: data)
            } catch {
                throw .usage(
                    "--root-certificate: \(input.displayName): is not a certificate (DER, or PEM CERTIFICATE blocks): "
                        + error.reason,
                    command: command)
            }
            rootCertificates = (rootCertificates ?? []) + certificates
        }
        allowsUnverifiedTestData = arguments.has("--allow-unverified-test-data")
        if let bundleId = arguments.value("--bundle-id") {
            guard !bundleId.isEmpty else { throw .usage("--bundle-id: an empty bundle id", command: command) }
            self.bundleId = bundleId
        }
        if let key = arguments.value("--app-user-id-key") {
            guard !key.isEmpty else { throw .usage("--app-user-id-key: an empty key", command: command) }
            appUserIdMetadataKey = key
        }
    }

    /// `context` with a decoder whose store adapters are configured by these options.
    func configure(_ context: CommandContext) -> CommandContext {
        var configured = context
        configured.decoder = SnapshotDecoder(adapters: builtInAdapters(configuredBy: self))
        return configured
    }
}

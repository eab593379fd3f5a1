import EntitlementKit
import Foundation

/// The bundled fixture scenarios, by provider.
///
/// ```swift
/// for scenario in try FixtureCatalog.scenarios(provider: .revenueCat) {
///     let result = try FixtureVerifier.verify(scenario, with: RevenueCatAdapter())
///     #expect(result.passed, "\(result)")
/// }
/// ```
public enum FixtureCatalog {
    /// The providers that have a fixture folder: every backend this version ships an adapter for.
    public static var providers: [ProviderID] { ProviderID.backends }

    /// The folder holding `provider`'s fixtures inside the resource bundle, named by its raw value.
    public static func directory(provider: ProviderID) -> URL? {
        directory(named: provider.rawValue)
    }

    /// A top-level folder of the resource bundle: a provider's fixtures, `scenarios`, `cross-provider`.
    public static func directory(named folder: String) -> URL? {
        Bundle.module.url(forResource: folder, withExtension: nil)
    }

    /// Every scenario of `provider`, sorted by name. A response without an expectation file, or an
    /// expectation without a response, is an error: a fixture that is never checked proves nothing.
    public static func scenarios(provider: ProviderID) throws -> [FixtureScenario] {
        guard let directory = directory(provider: provider) else { throw FixtureCatalogError.missingFolder(provider) }
        return try scenarios(in: directory, provider: provider)
    }

    /// Every scenario in `directory` (`<name>.json` with `<name>.expected.json` or
    /// `<name>.expected-error.json`, and for the stores' adapters an optional `<name>.catalog.json`),
    /// sorted by name; `provider` labels them. Unpaired files are an error, as for the bundled folders.
    public static func scenarios(in directory: URL, provider: ProviderID) throws -> [FixtureScenario] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".json") && $0 != catalogFileName
        }
        let files = Set(names)
        let folderCatalog = directory.appendingPathComponent(catalogFileName)
        let hasFolderCatalog = FileManager.default.fileExists(atPath: folderCatalog.path)
        var scenarios: [FixtureScenario] = []
        let partnerSuffixes = [".expected.json", ".expected-error.json", ".catalog.json"]
        for file in names.sorted() where !partnerSuffixes.contains(where: file.hasSuffix) {
            let name = String(file.dropLast(".json".count))
            let snapshotFile = name + ".expected.json"
            let errorFile = name + ".expected-error.json"
            let expectation: FixtureScenario.Expectation
            switch (files.contains(snapshotFile), files.contains(errorFile)) {
            case (true, false): expectation = .snapshot(directory.appendingPathComponent(snapshotFile))
            case (false, true): expectation = .failure(directory.appendingPathComponent(errorFile))
            default: throw FixtureCatalogError.unpaired("\(provider)/\(file)")
            }
            let catalogFile = name + ".catalog.json"
            scenarios.append(
                FixtureScenario(
                    provider: provider, name: name, documentURL: directory.appendingPathComponent(file),
                    expectation: expectation,
                    catalogURL: files.contains(catalogFile)
                        ? directory.appendingPathComponent(catalogFile) : hasFolderCatalog ? folderCatalog : nil))
        }
        for file in names {
            guard let suffix = partnerSuffixes.first(where: file.hasSuffix) else { continue }
            let base = String(file.dropLast(suffix.count))
            if !files.contains(base + ".json") { throw FixtureCatalogError.unpaired("\(provider)/\(file)") }
        }
        return scenarios
    }

    /// The file in a provider folder that names which products unlock which entitlements, for the backends
    /// that answer with products only (the stores): every scenario of the folder without a
    /// `<name>.catalog.json` of its own is mapped with it. It is not a scenario itself.
    public static let catalogFileName = "catalog.json"

    /// The entitlement catalog of `provider`'s fixtures (its folder's ``catalogFileName``), or `nil` when
    /// the folder has none (the vendors, which name entitlements themselves).
    public static func entitlementCatalog(provider: ProviderID) throws -> EntitlementCatalog? {
        guard let directory = directory(provider: provider) else { throw FixtureCatalogError.missingFolder(provider) }
        let url = directory.appendingPathComponent(catalogFileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try EntitlementCatalog(json: Data(contentsOf: url))
    }

    /// The scenario `name` of `provider`.
    public static func scenario(provider: ProviderID, name: String) throws -> FixtureScenario {
        guard let scenario = try scenarios(provider: provider).first(where: { $0.name == name }) else {
            throw FixtureCatalogError.unknownScenario("\(provider)/\(name)")
        }
        return scenario
    }
}

/// A fixture folder that cannot be used as it is.
public enum FixtureCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The provider has no fixture folder in the bundle.
    case missingFolder(ProviderID)
    /// A response without an expectation, or the other way round (or both expectation kinds).
    case unpaired(String)
    /// No scenario has that name.
    case unknownScenario(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .missingFolder(let provider): "no fixture folder for provider \(provider)"
        case .unpaired(let file):
            "\(file) needs exactly one partner: <name>.json with <name>.expected.json or <name>.expected-error.json"
        case .unknownScenario(let name): "no fixture scenario \(name)"
        }
    }
}

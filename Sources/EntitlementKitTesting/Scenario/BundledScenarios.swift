import EntitlementKit
import EntitlementKitFixtures
import Foundation

/// The stories shipped with EntitlementKit (`Fixtures/scenarios`): every row of RevenueCat's logIn
/// alias table, every restore behaviour, Play's transfer at configure, the fresh window, offline expiry,
/// clock rollback, the fetch policies and the subscription lifecycles. Apps can run them against their
/// own configuration, or read them as examples of the format.
public enum BundledScenarios {
    /// The folder holding them inside the fixtures module's resources.
    public static var directory: URL? {
        FixtureCatalog.directory(named: "scenarios")
    }

    /// Every bundled scenario file, sorted by name.
    public static func files() throws -> [URL] {
        guard let directory else { throw CocoaError(.fileNoSuchFile) }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

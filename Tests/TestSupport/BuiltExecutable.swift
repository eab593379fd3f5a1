import Foundation

/// An executable of the package (`entitlements`, the crash tests' writers) as `swift build --build-tests`
/// left it, for tests that run it as a real process, as a user would.
public enum BuiltExecutable {
    /// The repository root, found from this file's place in it.
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable `name`'s location: the path in `<NAME>_EXECUTABLE` when set (`ENTITLEMENTS_EXECUTABLE`
    /// for `entitlements`, `-` read as `_`), else beside the test bundle (the directory `swift test` built
    /// into), else `.build/debug`. `NotFound` names every place looked at.
    public static func url(named name: String) throws -> URL {
        var candidates: [URL] = []
        let variable = name.uppercased().replacingOccurrences(of: "-", with: "_") + "_EXECUTABLE"
        if let path = ProcessInfo.processInfo.environment[variable] {
            candidates.append(URL(fileURLWithPath: path))
        }
        for bundle in [Bundle.main] + Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug").appendingPathComponent(name))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(name: name, searched: candidates.map(\.path))
        }
        return found
    }

    /// No executable of that name in any of the places looked at.
    public struct NotFound: Error, CustomStringConvertible {
        /// The executable looked for.
        public var name: String
        /// Every path looked at, in order.
        public var searched: [String]
        /// Names the executable and every place looked at.
        public var description: String {
            "\(name) was not found (swift build builds it); looked at " + searched.joined(separator: ", ")
        }
    }
}

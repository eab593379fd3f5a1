import EntitlementKit
import Foundation

/// What reading one document gave: the snapshot, as compact canonical JSON so that two answers compare
/// byte for byte, or the located error. Tests hold two ways of reading (a fast reader and the tree
/// reader, detection and a named format) to the same answer with it.
public enum DecodingAnswer: Equatable, Sendable {
    /// The snapshot's compact canonical JSON.
    case snapshot(String)
    /// The error reading failed with.
    case failure(DocumentError)

    /// The answer `read` gives.
    public init(_ read: () throws(DocumentError) -> EntitlementSnapshot) {
        do {
            self = .snapshot(try read().canonicalJSON(compact: true))
        } catch {
            self = .failure(error)
        }
    }
}

extension FixtureCatalog {
    /// The documents of the repository's `Fixtures/malformed` (every file but its `expected.json` and
    /// `README.md`), by name. The folder is not a resource: it is found from this file's place in the
    /// repository, so only tests and tools run from a checkout can read it.
    public static func malformedDocuments() throws -> [(name: String, data: Data)] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("malformed")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0 != "expected.json" && $0 != "README.md" }.sorted()
            .map { (name: $0, data: try Data(contentsOf: directory.appendingPathComponent($0))) }
    }
}

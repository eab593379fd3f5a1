import Foundation

/// `Fixtures/malformed/expected.json`: every malformed document with the error it must fail with.
struct MalformedCorpus: Decodable {
    struct Case: Decodable, Sendable, CustomStringConvertible {
        /// The document's file name (for generated documents, the name it is written under).
        var file: String
        /// The format it is read as: `revenuecat`, `qonversion`, `adapty` or `unified`.
        var from: String
        /// The `DocumentError.Kind` raw value.
        var kind: String
        /// The exact `DocumentError.description`.
        var error: String
        /// What `entitlements convert` prints instead, where it says more than the library (a document that
        /// is not JSON at all: `not JSON: it looks like HTML`); `nil` when it prints ``error``.
        var cliError: String?
        /// For documents too large to commit: `[text, count]` pairs, each text repeated count times.
        var generate: [Part]?

        struct Part: Decodable, Sendable {
            var text: String
            var count: Int

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                text = try container.decode(String.self)
                count = try container.decode(Int.self)
            }
        }

        var description: String { file }

        /// The document's bytes: the committed file, or the recipe's output.
        func bytes() throws -> Data {
            guard let generate else {
                return try Data(contentsOf: MalformedCorpus.directory.appendingPathComponent(file))
            }
            var data = Data()
            for part in generate {
                let piece = Data(part.text.utf8)
                data.reserveCapacity(data.count + piece.count * part.count)
                for _ in 0..<part.count { data.append(piece) }
            }
            return data
        }
    }

    var cases: [Case]

    /// The repository's `Fixtures/malformed`, found from this file's place in it.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/malformed")

    /// The corpus, or an empty list when the manifest cannot be read (a separate test then fails).
    static let all: [Case] = (try? load().cases) ?? []

    static func load() throws -> MalformedCorpus {
        try JSONDecoder().decode(
            MalformedCorpus.self, from: Data(contentsOf: directory.appendingPathComponent("expected.json")))
    }
}

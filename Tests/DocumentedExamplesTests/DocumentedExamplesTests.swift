import Foundation
import Testing

/// Every fenced Swift example in the README, `docs/` and the DocC catalogs has a compiled copy.
///
/// A user copies the documentation's examples first, so each one is kept, verbatim, in a Swift file of a
/// test target (which CI builds with warnings as errors), between the lines `// doc-example: <doc path>`
/// and `// end doc-example`. This suite fails when a fenced block has no such copy, when a copy no
/// longer matches any block of its document, or when the copy's file lacks an `import` the block shows.
///
/// Two markers in a document, on the line before a fence, say where else a block is kept:
/// - `<!-- doc-example: compiled as Tests/…/File.swift -->`: the block is that whole file (another suite
///   compares the two exactly); here its code lines must appear in the file in order.
/// - `<!-- doc-example: not compiled (reason) -->`: a fragment of another file, such as `Package.swift`
///   lines (the README's are resolved in a real package by `ReadmeTests`).
@Suite("Documented examples compile", .timeLimit(.minutes(5)))
struct DocumentedExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// One fenced Swift block of a document.
    struct Block: CustomStringConvertible {
        var document: String
        var line: Int
        var marker: String?
        var lines: [String]

        var description: String { "\(document):\(line)" }
    }

    /// One compiled copy of a block.
    struct Copy: CustomStringConvertible {
        var file: String
        var line: Int
        var document: String
        var lines: [String]
        var imports: Set<String>

        var description: String { "\(file):\(line)" }
    }

    /// The documents whose Swift blocks must compile: the README, `docs/`, every DocC catalog.
    static func documents() throws -> [String] {
        var paths = ["README.md"]
        for folder in ["docs", "Sources", "Adapters"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            while let relative = walker.nextObject() as? String {
                guard relative.hasSuffix(".md") else { continue }
                if folder == "docs" || relative.contains(".docc/") { paths.append("\(folder)/\(relative)") }
            }
        }
        return paths.sorted()
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    static func blocks(in document: String) throws -> [Block] {
        let lines = try text(document).components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].trimmingCharacters(in: .whitespaces) == "```swift" else { continue }
            let indent = lines[index].prefix { $0 == " " }.count
            let previous = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            let marker = previous.flatMap { line -> String? in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("<!-- doc-example:"), trimmed.hasSuffix("-->") else { return nil }
                return String(trimmed.dropFirst("<!-- doc-example:".count).dropLast(3))
                    .trimmingCharacters(in: .whitespaces)
            }
            var body: [String] = []
            var end = index + 1
            while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "```" {
                body.append(String(lines[end].dropFirst(min(indent, lines[end].prefix { $0 == " " }.count))))
                end += 1
            }
            blocks.append(Block(document: document, line: index + 1, marker: marker, lines: body))
            index = end
        }
        return blocks
    }

    /// Every `// doc-example:` copy in the test targets.
    static func copies() throws -> [Copy] {
        var copies: [Copy] = []
        let tests = root.appendingPathComponent("Tests")
        guard let walker = FileManager.default.enumerator(atPath: tests.path) else { return [] }
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let file = "Tests/\(relative)"
            let lines = try text(file).components(separatedBy: "\n")
            let imports = Set(
                lines.filter { $0.hasPrefix("import ") }.map { $0.trimmingCharacters(in: .whitespaces) })
            var index = 0
            while index < lines.count {
                defer { index += 1 }
                let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("// doc-example: ") else { continue }
                let document = String(trimmed.dropFirst("// doc-example: ".count))
                var body: [String] = []
                var end = index + 1
                while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces) != "// end doc-example" {
                    body.append(lines[end])
                    end += 1
                }
                copies.append(
                    Copy(file: file, line: index + 1, document: document, lines: dedented(body), imports: imports))
                index = end
            }
        }
        return copies
    }

    static func dedented(_ lines: [String]) -> [String] {
        let indent =
            lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
    }

    /// A block's or copy's code for comparison: `import` lines apart (a copy's file imports them once,
    /// at its top), trailing spaces and blank lines at either end ignored.
    static func code(_ lines: [String]) -> [String] {
        let code = lines.filter { !$0.hasPrefix("import ") }.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        return Array(code.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed())
    }

    @Test("every fenced Swift block has a compiled copy, or says where it is kept")
    func everyBlockIsCompiled() throws {
        let copies = try Self.copies()
        var checked = 0
        for document in try Self.documents() {
            for block in try Self.blocks(in: document) {
                checked += 1
                if let marker = block.marker {
                    if marker.hasPrefix("not compiled (") { continue }
                    if marker.hasPrefix("compiled as ") {
                        let path = String(marker.dropFirst("compiled as ".count))
                        let file = try Self.text(path).components(separatedBy: "\n")
                            .map { $0.trimmingCharacters(in: .whitespaces) }
                        var position = file.startIndex
                        for line in block.lines.map({ $0.trimmingCharacters(in: .whitespaces) })
                        where !line.isEmpty && !line.hasPrefix("//") {
                            guard let found = file[position...].firstIndex(of: line) else {
                                Issue.record("\(block): `\(line)` is not in \(path) (in order)")
                                break
                            }
                            position = found + 1
                        }
                        continue
                    }
                    Issue.record("\(block): unknown marker `\(marker)`")
                    continue
                }
                let matches = copies.filter { $0.document == document && Self.code($0.lines) == Self.code(block.lines) }
                guard let copy = matches.first else {
                    let candidates = copies.filter { $0.document == document }.map(\.description)
                    Issue.record(
                        """
                        \(block): no compiled copy of this block (copies of \(document): \(candidates)); \
                        keep it verbatim between `// doc-example: \(document)` and `// end doc-example` in a test
                        """)
                    continue
                }
                for line in block.lines where line.hasPrefix("import ") {
                    #expect(
                        copy.imports.contains(line.trimmingCharacters(in: .whitespaces)),
                        "\(copy) does not `\(line)` as \(block) does")
                }
            }
        }
        #expect(checked > 15, "the documents hold fewer Swift blocks than they did when this test was written")
    }

    @Test("every compiled copy still matches a block of its document")
    func everyCopyIsShown() throws {
        var shown: [String: [[String]]] = [:]
        for copy in try Self.copies() {
            if shown[copy.document] == nil {
                shown[copy.document] = try Self.blocks(in: copy.document).map { Self.code($0.lines) }
            }
            #expect(
                shown[copy.document, default: []].contains(Self.code(copy.lines)),
                "\(copy): no Swift block of \(copy.document) reads like this copy any more")
        }
    }

    @Test("the block reader sees fences, markers and indentation as a document has them")
    func readerFindsBlocksAndMarkers() throws {
        let document = "Tests/DocumentedExamplesTests/ReaderSample.md"
        let blocks = try Self.blocks(in: document)
        #expect(blocks.count == 3)
        #expect(blocks.first?.marker == nil)
        #expect(blocks.first?.lines == ["import EntitlementKit", "let x = 1", "    indented()"])
        #expect(blocks.dropFirst().first?.marker == "not compiled (a fragment)")
        #expect(blocks.last?.lines == ["inList()"], "a block inside a list item is read without its indent")
        #expect(Self.code(["import A", "", "b  ", ""]) == ["b"])
    }
}

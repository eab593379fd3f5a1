import Foundation
import Testing

/// The README's set-up and installation instructions, followed as a new user would.
@Suite("README: set up and installation", .timeLimit(.minutes(5)))
struct ReadmeTests {
    typealias Tool = EntitlementsTool

    /// The text of README section `title` (a `## ` heading), up to the next one.
    static func section(_ title: String) async throws -> String {
        let readme = try Tool.repositoryFile("README.md")
        let start = try #require(readme.range(of: "\n## \(title)\n"), "README has no section \(title)")
        let rest = readme[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The fenced code blocks of `text`, without their fences.
    static func codeBlocks(_ text: String) -> [String] {
        let parts = text.components(separatedBy: "```")
        return stride(from: 1, to: parts.count, by: 2).map { part in
            // Drop the language tag line (```swift, ```sh).
            String(parts[part].drop(while: { $0 != "\n" }).dropFirst())
        }
    }

    @Test func setUpShowsWhatTheFirstCommandPrints() async throws {
        let section = try await Self.section("Set up")
        let command = "swift run entitlements check --at 2025-09-15T10:00:00Z Fixtures/revenuecat/active-monthly.json"
        #expect(section.contains(command))
        let shown = try #require(Self.codeBlocks(section).first { $0.hasPrefix("evaluated at ") })
        let result = try await Tool.run([
            "check", "--at", "2025-09-15T10:00:00Z", "Fixtures/revenuecat/active-monthly.json",
        ])
        #expect(result.stdout == shown)
    }

    @Test func testsRunWithoutTheEmptyXCTestPassInTheReadmeAndInCI() async throws {
        // Swift Testing only: without --disable-xctest, `swift test` ends with XCTest's "Executed 0 tests".
        let section = try await Self.section("Set up")
        #expect(section.contains("\nswift test --disable-xctest\n"))
        let ci = try Tool.repositoryFile(".ci/run")
        #expect(ci.contains("\nswift test --disable-xctest 2>&1 | tee .build/ci-test.log\n"))
        #expect(ci.contains(#"echo "tests: ${passed:-0} passed, 0 failed""#))
    }

    @Test func installationNamesNoVersionBecauseNoneIsTagged() async throws {
        let code = try await #require(Self.codeBlocks(try Self.section("Installation")).first)
        for requirement in ["from:", "exact:", ".upToNextMajor", ".upToNextMinor", "\"0."] {
            #expect(!code.contains(requirement), "a version requirement cannot resolve without tags: \(requirement)")
        }
        #expect(code.contains(#"branch: "main")"#))
    }

    @Test func noDocumentationNamesAVersionRequirement() async throws {
        // Every place that shows a `.package(…)` line: the README and the DocC articles.
        var files = ["README.md", "docs/CLI.md"]
        for directory in ["Sources", "Adapters", "Fixtures"] {
            let root = Tool.packageRoot.appendingPathComponent(directory)
            let found = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
            files += found.filter { $0.hasSuffix(".md") }.map { "\(directory)/\($0)" }
        }
        #expect(files.contains("Sources/EntitlementKit/Documentation.docc/GettingStarted.md"))
        for file in files {
            for line in try Tool.repositoryFile(file).split(separator: "\n") where line.contains(".package(") {
                #expect(!line.contains("from:") && !line.contains("exact:"), "\(file): \(line)")
            }
        }
    }

    /// A new package that depends on this one exactly as the README's local-checkout line says (with the
    /// path pointing here, whatever this folder is called) must resolve the README's product lines.
    @Test func installationAsALocalCheckoutResolves() async throws {
        let code = try await #require(Self.codeBlocks(try Self.section("Installation")).first)
        let lines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let pathLine = try #require(lines.first { $0.hasPrefix(".package(") && $0.contains("path:") })
        let products = lines.filter { $0.hasPrefix(".product(") }.map { $0.components(separatedBy: "//")[0] }
        #expect(products.count == 2)
        let pathStart = try #require(pathLine.range(of: #"path: ""#))
        let pathEnd = try #require(pathLine[pathStart.upperBound...].firstIndex(of: "\""))
        let dependency =
            pathLine[..<pathStart.upperBound] + Tool.packageRoot.path + pathLine[pathEnd...]

        let consumer = FileManager.default.temporaryDirectory.appendingPathComponent(
            "readme-consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: consumer) }
        try FileManager.default.createDirectory(
            at: consumer.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [
                    \(dependency.trimmingCharacters(in: CharacterSet(charactersIn: ",")))
                ],
                targets: [
                    .target(name: "App", dependencies: [
                        \(products.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n            "))
                    ])
                ]
            )

            """
        try Data(manifest.utf8).write(to: consumer.appendingPathComponent("Package.swift"))
        try Data("import EntitlementKit\n".utf8).write(to: consumer.appendingPathComponent("Sources/App/App.swift"))

        let result = try await Self.swift(["package", "describe", "--type", "json"], in: consumer)
        #expect(result.status == 0, "\(manifest)\n\(result.output)")
        #expect(result.output.contains("\"EntitlementKitRevenueCat\""))
    }

    /// Runs the toolchain's `swift` (from `PATH`, else `/opt/swift/usr/bin`) in `directory`.
    static func swift(_ arguments: [String], in directory: URL) async throws -> (status: Int32, output: String) {
        let path = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":").map(String.init)
        let candidates = (path + ["/opt/swift/usr/bin"]).map {
            URL(fileURLWithPath: $0).appendingPathComponent("swift")
        }
        let swift = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) })
        let log = directory.appendingPathComponent("swift.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = swift
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        // A file rather than a pipe: nothing can deadlock on a full pipe buffer.
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        await EntitlementsTool.exit(of: process)
        try handle.close()
        return (process.terminationStatus, String(decoding: try Data(contentsOf: log), as: UTF8.self))
    }
}

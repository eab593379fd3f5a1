import EntitlementKit
import EntitlementKitTesting
import Foundation

/// `entitlements scenario`: runs scenario files through the runtime client and the simulated backend.
enum ScenarioCommand: Command {
    static let definition = CommandDefinition(
        name: "scenario",
        synopsis: "[--provider revenuecat|qonversion|adapty|appstore|all] [--json] FILE...",
        summary:
            "Run scenario files (customer stories as JSON) through the runtime client against a simulated backend.",
        discussion: """
            Each file runs once per provider (default all: revenuecat, qonversion, then adapty), with the real \
            client and adapter, and every step's expectations are checked. appstore (not part of all) runs \
            the file on the device with no server: AppStoreOnDeviceProvider over a simulated App Store whose \
            JWS are signed with a test chain and verified; stories about aliases, transfers, restore \
            behaviours, Play or RevenueCat's refund rule do not apply there. A passing run prints \
            'FILE: PROVIDER: ok (N steps)'; each failing expectation prints one line: 'FILE: PROVIDER: \
            step N: ACTION: KEY: expected X, actual Y' (values as JSON, steps counted from 1). Every file \
            is read and checked before any runs: a malformed file is reported with the JSON path and the \
            step. With --json, one object: {"passed": BOOL, "runs": [{"file", "provider", "steps", \
            "passed", "failures": [{"file", "provider", "step", "action", "key", "expected", "actual"}]}]}.
            """,
        positionals: [
            .init(
                name: "FILE...",
                help: "Scenario files, or folders of them (every *.json inside); - reads one from standard input.")
        ],
        options: [
            .init(
                name: "--provider", valueName: "PROVIDER",
                help: "revenuecat, qonversion, adapty, appstore or all (default: all, the three backends)."),
            CommonOptions.json,
        ],
        positionalCount: (1, nil),
        exitStatuses: "  0 every expectation holds; 1 some fail; 64 usage; 65 malformed scenario; 66 unreadable file"
    )

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure) -> ExitStatus {
        let providers: [ProviderID]
        switch arguments.value("--provider").map(ProviderID.init(named:)) {
        case nil, ProviderID(rawValue: "all"): providers = ProviderID.backends
        case let name? where ProviderID.backends.contains(name) || name == .appStore: providers = [name]
        case let name?:
            // The message names the backends `all` runs (its wording is the contract's); appstore, which needs
            // no backend, is offered by the spelling hint and the help.
            let known = ProviderID.backends.map(\.rawValue) + ["all"]
            throw .usage(
                "--provider: \(ArgumentQuoting.json(name.rawValue)) is not \(known.dropLast().joined(separator: ", ")) or all"
                    + Spelling.hint(for: name.rawValue, among: known + [ProviderID.appStore.rawValue]),
                command: definition.name)
        }
        // Read every file first: a story that cannot run must not be mistaken for one that failed.
        var scenarios: [(file: String, scenario: Scenario)] = []
        var worst: ExitStatus?
        for path in Self.expandingFolders(arguments.positionals) {
            if path == "-" {
                do {
                    scenarios.append(("<stdin>", try Scenario(json: try InputFile(argument: path).readAll())))
                } catch let failure as CommandFailure {
                    StandardError.print("error: " + failure.message)
                    worst = failure.status
                } catch {
                    StandardError.print("error: <stdin>: \(error)")
                    if worst == nil { worst = .dataError }
                }
                continue
            }
            do {
                scenarios.append((path, try Scenario(contentsOf: URL(fileURLWithPath: path))))
            } catch {
                switch error {
                case .unreadable(_, let reason):
                    StandardError.print("error: \(path): cannot open: \(reason)")
                    worst = .noInput
                case .malformed(_, let documentError):
                    StandardError.print("error: \(path): \(documentError)")
                    if worst == nil { worst = .dataError }
                }
            }
        }
        if let worst { return worst }
        let reports = ScenarioBatch.run(scenarios, providers: providers)
        let passed = reports.allSatisfy(\.passed)
        if arguments.has("--json") {
            let document = JSONValue.object(["passed": .bool(passed), "runs": .array(reports.map(\.jsonValue))])
            try context.emit(document.prettyText)
        } else {
            try context.emit(reports.map { $0.description + "\n" }.joined())
        }
        return passed ? .success : .negative
    }

    /// The paths with every folder replaced by the scenario files in it (`*.json`, sorted by name, not
    /// recursive), so `entitlements scenario Fixtures/scenarios` runs the bundled stories. A folder with
    /// no scenario file stays as it is and is reported as unreadable.
    static func expandingFolders(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
                let names = try? FileManager.default.contentsOfDirectory(atPath: path)
            else { return [path] }
            let files = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            guard !files.isEmpty else { return [path] }
            return files.map { (path.hasSuffix("/") ? path : path + "/") + $0 }
        }
    }
}

/// Runs the async scenario runner to completion from the synchronous command.
private enum ScenarioBatch {
    static func run(_ scenarios: [(file: String, scenario: Scenario)], providers: [ProviderID]) -> [ScenarioReport] {
        let work = scenarios.map { ($0.file, $0.scenario) }
        return AsyncWait.value {
            var reports: [ScenarioReport] = []
            for (file, scenario) in work {
                for provider in providers {
                    reports.append(await ScenarioRunner.run(scenario, provider: provider, file: file))
                }
            }
            return reports
        }
    }
}

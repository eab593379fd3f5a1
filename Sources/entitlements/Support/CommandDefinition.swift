/// What a command accepts, from which both its parser and its `--help` text are made.
struct CommandDefinition: Sendable {
    struct Option: Sendable {
        /// `--from`.
        var name: String
        /// `PROVIDER` for an option that takes a value; `nil` for a flag.
        var valueName: String?
        var help: String
        /// Whether it may be given several times (values accumulate).
        var repeatable = false
        /// What a value looks like, when that can be told on its own: lets the parser say `--at needs an
        /// instant` when a forgotten value made it swallow the next argument.
        var expectedValue: ExpectedValue?
    }

    /// The form of an option's value.
    struct ExpectedValue: Sendable {
        /// `an instant, such as 2025-06-01T12:00:00Z`.
        var description: String
        var accepts: @Sendable (String) -> Bool
    }

    struct Positional: Sendable {
        /// `FILE`, `ID...`.
        var name: String
        var help: String
    }

    /// `convert`.
    var name: String
    /// The argument part of the synopsis: `[--from PROVIDER] FILE`.
    var synopsis: String
    /// One sentence for the command list.
    var summary: String
    /// Paragraphs shown in `--help` after the summary.
    var discussion: String
    var positionals: [Positional]
    var options: [Option]
    /// Fewest and most positional arguments; `nil` maximum means unlimited.
    var positionalCount: (minimum: Int, maximum: Int?)
    var exitStatuses: String

    /// The `--help` text, wrapped to ``TextWrapping/width`` columns.
    var help: String {
        var text = TextWrapping.wrap("USAGE: entitlements \(name) \(synopsis)", hangingIndent: 4) + "\n\n"
        text += TextWrapping.wrap(summary) + "\n"
        if !discussion.isEmpty { text += "\n" + TextWrapping.wrap(discussion) + "\n" }
        if !positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in positionals { text += Self.row(positional.name, positional.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            text += Self.row(option.name + (option.valueName.map { " " + $0 } ?? ""), option.help)
        }
        text += Self.row("-h, --help", "Show this help.")
        text += "\nEXIT STATUS:\n" + TextWrapping.wrap(exitStatuses, indent: 2) + "\n"
        return text
    }

    private static func row(_ label: String, _ help: String) -> String {
        let column = 26
        let body = TextWrapping.wrap(help, indent: column)
        let start = body.index(body.startIndex, offsetBy: column)
        if label.count <= column - 4 {
            return "  " + label + String(repeating: " ", count: column - 2 - label.count) + body[start...] + "\n"
        }
        return "  " + label + "\n" + body + "\n"
    }
}

/// Word wrapping for help text.
enum TextWrapping {
    static let width = 100

    /// `text` as lines of at most ``width`` columns (longer words stay whole), each indented by `indent`
    /// spaces; lines after the first get `hangingIndent` more.
    static func wrap(_ text: String, indent: Int = 0, hangingIndent: Int = 0) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            let prefix = String(repeating: " ", count: indent + (lines.isEmpty ? 0 : hangingIndent))
            if line.isEmpty {
                line = prefix + word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(repeating: " ", count: indent + hangingIndent) + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}

/// Arguments parsed against a ``CommandDefinition``.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    /// `--help` or `-h` was given.
    private(set) var wantsHelp = false

    func value(_ name: String) -> String? { values[name]?.last }
    func allValues(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Parses `arguments` (after the command name).
    ///
    /// Accepts `--name value` and `--name=value`; `--` ends the options; a lone `-` is a positional
    /// (standard input). Anything else starting with `-` must be a defined option.
    init(_ arguments: [String], for command: CommandDefinition) throws(CommandFailure) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                wantsHelp = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = command.options.first(where: { $0.name == name }) else {
                let known = command.options.map(\.name) + ["--help"]
                throw .usage(
                    "unknown option \(ArgumentQuoting.plain(name)) for '\(command.name)'"
                        + Spelling.hint(for: name, among: known),
                    command: command.name)
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil {
                    throw .usage("option '\(name)' takes no value", command: command.name)
                }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .usage("option '\(name)' needs a value (\(valueName))", command: command.name)
                }
                value = arguments[index]
                index += 1
            }
            if values[name] != nil, !option.repeatable {
                throw .usage("option '\(name)' given more than once", command: command.name)
            }
            values[name, default: []].append(value)
        }
        if wantsHelp { return }
        if positionals.count < command.positionalCount.minimum {
            let missing = command.positionals.dropFirst(positionals.count).first?.name ?? "argument"
            // `check --at FILE`: the option took the argument meant as FILE; name the real mistake.
            for option in command.options {
                guard let expected = option.expectedValue, let value = values[option.name]?.last,
                    !expected.accepts(value)
                else { continue }
                throw .usage(
                    "\(option.name) needs \(expected.description); \(ArgumentQuoting.json(value)) is not one, and "
                        + "\(missing) is missing",
                    command: command.name)
            }
            throw .usage("missing \(missing)", command: command.name)
        }
        if let maximum = command.positionalCount.maximum, positionals.count > maximum {
            throw .usage(
                "unexpected argument \(ArgumentQuoting.plain(positionals[maximum]))", command: command.name)
        }
    }
}

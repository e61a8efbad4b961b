import MovieCatalog
import MovieDomain
/// One option of a command: its long name, value placeholder (nil for a flag) and help text.
public struct OptionSpec: Sendable {
    /// The long name, with its dashes (`--limit`).
    public let name: String
    /// The value placeholder shown in help (`n`), or nil for a flag.
    public let valueName: String?
    /// The one-line help text.
    public let help: String
    /// Whether the option may be given more than once.
    public let repeatable: Bool

    /// Creates an option; `value` is the placeholder, nil for a flag.
    public init(_ name: String, value: String? = nil, help: String, repeatable: Bool = false) {
        self.name = name
        self.valueName = value
        self.help = help
        self.repeatable = repeatable
    }

    /// `--limit <n>` as shown in help and errors.
    public var synopsis: String { valueName.map { "\(name) <\($0)>" } ?? name }
}

/// A command's name, help text and options; drives parsing, help and completions.
public struct CommandSpec: Sendable {
    /// The command name as typed (empty for the top level).
    public let name: String
    /// The one-line summary shown as OVERVIEW.
    public let abstract: String
    /// The usage line, without the `USAGE:` prefix.
    public let usage: String
    /// The positional arguments with their help text.
    public let arguments: [(name: String, help: String)]
    /// The options the command accepts.
    public let options: [OptionSpec]
    /// Example command lines shown under EXAMPLES.
    public let examples: [String]
    /// The subcommands with their help text.
    public let subcommands: [(name: String, help: String)]

    /// Creates a command spec from its help text, arguments, options, examples and subcommands.
    public init(name: String, abstract: String, usage: String, arguments: [(name: String, help: String)] = [],
                options: [OptionSpec] = [], examples: [String] = [], subcommands: [(name: String, help: String)] = []) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.examples = examples
        self.subcommands = subcommands
    }

    /// The option named `name`, if the command has it.
    public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The help text: abstract, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS and EXAMPLES sections.
    public var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: \(usage)\n"
        func section(_ title: String, _ rows: [(String, String)]) {
            guard !rows.isEmpty else { return }
            let width = min(28, rows.map { $0.0.count }.max() ?? 0)
            text += "\n\(title):\n"
            for (left, right) in rows {
                if left.count > width {
                    text += "  \(left)\n  \(String(repeating: " ", count: width))  \(right)\n"
                } else {
                    text += "  \(left)\(String(repeating: " ", count: width - left.count))  \(right)\n"
                }
            }
        }
        section("ARGUMENTS", arguments.isEmpty ? [("(none)", "")] : arguments.map { ($0.name, $0.help) })
        section("OPTIONS", options.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show help information.")])
        section("SUBCOMMANDS", subcommands.map { ($0.name, $0.help) })
        text += "\nEXAMPLES:\n" + examples.map { "  \($0)\n" }.joined()
        return text
    }

    /// The lines after a usage error: the usage and where to get help.
    public var usageHint: String {
        "USAGE: \(usage)\nSee 'moviecat \(name.isEmpty ? "" : name + " ")--help'."
    }
}

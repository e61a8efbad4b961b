/// One option of a command: its long name, value placeholder (nil for a flag) and help text.
public struct OptionSpec: Sendable {
    public let name: String
    public let valueName: String?
    public let help: String
    public let repeatable: Bool

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
    public let name: String
    public let abstract: String
    public let usage: String
    public let arguments: [(name: String, help: String)]
    public let options: [OptionSpec]
    public let examples: [String]
    public let subcommands: [(name: String, help: String)]

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

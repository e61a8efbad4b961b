import MovieCatalog
import MovieDomain

/// A command's name, help text, options and subcommands; drives parsing, help and completions.
public struct CommandSpec: Sendable {
    /// The command as typed after `moviecat` (`filter`, `presets show`; empty for the top level).
    public let name: String
    /// The one-line summary shown as OVERVIEW.
    public let abstract: String
    /// The usage line, without the `USAGE:` prefix.
    public let usage: String
    /// The positional arguments with their help text and completion.
    public let arguments: [ArgumentSpec]
    /// The options the command accepts.
    public let options: [OptionSpec]
    /// Example command lines shown under EXAMPLES.
    public let examples: [String]
    /// Subcommands (`presets show`), each with its own options.
    public internal(set) var subcommands: [CommandSpec]

    /// Creates a command spec; without `usage`, the usage line is made from the arguments and options.
    public init(name: String, abstract: String, usage: String? = nil, arguments: [ArgumentSpec] = [],
                options: [any OptionDeclaration] = [], examples: [String] = [], subcommands: [CommandSpec] = []) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.options = options.map(\.spec)
        self.examples = examples
        self.subcommands = subcommands
        self.usage = usage ?? CommandSpec.usageLine(name: name, arguments: arguments, options: self.options,
                                                    subcommands: subcommands)
    }

    /// `moviecat filter [<facet:value>...] [--genre <g>]... [--desc]`.
    static func usageLine(name: String, arguments: [ArgumentSpec], options: [OptionSpec],
                          subcommands: [CommandSpec]) -> String {
        var parts = ["moviecat" + (name.isEmpty ? "" : " " + name)]
        if !subcommands.isEmpty { parts.append("[" + subcommands.map(\.word).joined(separator: "|") + "]") }
        parts += arguments.map(\.name)
        parts += options.map { "[\($0.synopsis)]" + ($0.repeatable ? "..." : "") }
        return parts.joined(separator: " ")
    }

    /// The last word of the name (`show` of `presets show`).
    public var word: String { name.split(separator: " ").last.map(String.init) ?? name }

    /// The option named `name`, if the command has it.
    public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The subcommand typed as `word`, if any.
    public func subcommand(_ word: String) -> CommandSpec? { subcommands.first { $0.word == word } }

    /// Help's lines fit this many columns: a description or a usage line wider is wrapped at its
    /// spaces under itself, not broken mid-word by the terminal.
    static let helpWidth = 80

    /// `text` wrapped to `helpWidth` after `first` (the line's start), later lines indented by `indent`.
    static func wrapped(_ first: String, _ text: String, indent: Int) -> String {
        let lines = DisplayWidth.wrap(text, to: max(20, helpWidth - indent), cutting: false)
        return first + lines.joined(separator: "\n" + String(repeating: " ", count: indent)) + "\n"
    }

    /// The usage line, wrapped under its first option.
    var usageLines: String {
        let command = "moviecat" + (name.isEmpty ? "" : " " + name) + " "
        guard usage.hasPrefix(command) else { return "USAGE: \(usage)\n" }
        return Self.wrapped("USAGE: " + command, String(usage.dropFirst(command.count)), indent: 7 + command.count)
    }

    /// The help text: abstract, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS and EXAMPLES sections.
    public var help: String {
        var text = Self.wrapped("OVERVIEW: ", abstract, indent: 10) + "\n" + usageLines
        func section(_ title: String, _ rows: [(String, String)]) {
            guard !rows.isEmpty else { return }
            let width = min(28, rows.map { $0.0.count }.max() ?? 0)
            text += "\n\(title):\n"
            for (left, right) in rows {
                if left.count > width {
                    text += "  \(left)\n" + Self.wrapped(String(repeating: " ", count: width + 4), right, indent: width + 4)
                } else {
                    text += Self.wrapped("  \(left)\(String(repeating: " ", count: width - left.count))  ", right, indent: width + 4)
                }
            }
        }
        section("ARGUMENTS", arguments.isEmpty ? [("(none)", "")] : arguments.map { ($0.name, $0.help) })
        section("OPTIONS", options.map { ($0.synopsis, $0.help) } + [("-h, --help", "Show help information.")])
        section("SUBCOMMANDS", subcommands.map { ($0.word, $0.abstract) })
        text += "\nEXAMPLES:\n" + examples.map { "  \($0)\n" }.joined()
        return text
    }

    /// The lines after a usage error: the usage (one line: an error stays three) and where to get help.
    public var usageHint: String {
        "USAGE: \(usage)\nSee 'moviecat \(name.isEmpty ? "" : name + " ")--help'."
    }

    /// A usage error for this command: exit 64, followed by the usage line and a help hint.
    public func usageError(_ message: String) -> CatalogError {
        CatalogError(.usage, message, usageHint: usageHint)
    }
}

import MovieCatalog
import MovieDomain

/// Parsed arguments: typed option values in command-line order, flags and positionals.
public struct ParsedArguments: Sendable {
    /// One option given with a value: its name, the text and the typed value.
    public struct Value: Sendable {
        public let name: String
        public let text: String
        let value: any Sendable
    }

    /// Options given with values, in command-line order.
    public fileprivate(set) var values: [Value] = []
    /// Flags that were given.
    fileprivate var flags: Set<String> = []
    /// Positional arguments.
    public var positionals: [String] = []
    /// True when `--help` or `-h` was given.
    public fileprivate(set) var wantsHelp = false

    /// The last value of an option, nil when not given.
    public subscript<V>(_ option: Option<V>) -> V? {
        values.last { $0.name == option.name }?.value as? V
    }

    /// Every value of a repeatable option, in order.
    public func all<V>(_ option: Option<V>) -> [V] {
        values.filter { $0.name == option.name }.compactMap { $0.value as? V }
    }

    /// Whether a flag was given.
    public subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// Whether an option was given at all.
    public func has(_ option: some OptionDeclaration) -> Bool {
        flags.contains(option.spec.name) || values.contains { $0.name == option.spec.name }
    }
}

extension CommandSpec {
    /// Parses `--opt value`, `--opt=value`, flags, `--` and positionals into typed values: a
    /// value its option does not take is a usage error here, before anything is opened.
    /// Unknown options suggest the nearest. With `stopAtCommand`, the first positional and all
    /// after it are left unparsed (global options stop at the command name); `unknownNote` is
    /// added to the error for an unknown option.
    public func parse(_ arguments: [String], stopAtCommand: Bool = false, unknownNote: String = "",
                      globalOptions: [String] = []) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                if stopAtCommand {
                    parsed.positionals = Array(arguments[(index - 1)...])
                    return parsed
                }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" { onlyPositionals = true; continue }
            if argument == "--help" || argument == "-h" { parsed.wantsHelp = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = option(name) else {
                // `moviecat filter --db x`: the option is moviecat's own, not misspelt.
                if globalOptions.contains(name) {
                    throw usageError("\(name.quotedForMessage) is an option of moviecat itself: put it before the command (moviecat \(name) ... \(self.name) ...)")
                }
                let hint = Suggestion.nearest(to: name, in: options.map(\.name) + ["--help"]).map { ". Did you mean '\($0)'?" } ?? ""
                throw usageError("unknown option \(name.quotedForMessage)\(hint)\(unknownNote)")
            }
            guard let convert = option.convert else {
                if inlineValue != nil { throw usageError("\(name.quotedForMessage) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let text: String
            if let inlineValue {
                text = inlineValue
            } else if index < arguments.count {
                text = arguments[index]
                // `--title --count`: a word written as an option (`--x`, `--`, `-h`) is not taken
                // for a value; written `--title=--count`, it is one.
                if text.hasPrefix("--") || text == "-h" {
                    throw usageError("missing value for '\(option.synopsis)' (\(text.quotedForMessage) is an option; write \(name)=\(text) for that text)")
                }
                index += 1
            } else {
                throw usageError("missing value for '\(option.synopsis)'")
            }
            if !option.repeatable && parsed.values.contains(where: { $0.name == name }) {
                throw usageError("\(name.quotedForMessage) can be given only once")
            }
            do {
                parsed.values.append(ParsedArguments.Value(name: name, text: text, value: try convert(text)))
            } catch let invalid as InvalidValue {
                throw usageError("the value \(text.quotedForMessage) is invalid for '\(option.synopsis)': \(invalid.reason)")
            } catch let error as CatalogError where error.kind == .usage {
                throw usageError(error.message)
            }
        }
        return parsed
    }
}

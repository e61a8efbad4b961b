import MovieCatalog
import MovieDomain
/// The result of parsing a command's arguments: option values in order, flags, positionals.
public struct ParsedArguments: Sendable {
    /// (option name, value) in command-line order, for options that take values.
    public var values: [(name: String, value: String)] = []
    /// Flags that were given.
    public var flags: Set<String> = []
    /// Positional arguments.
    public var positionals: [String] = []
    /// True when `--help` or `-h` was given.
    public var wantsHelp = false

    /// The last value of an option.
    public func value(_ name: String) -> String? { values.last { $0.name == name }?.value }

    /// All values of a repeatable option.
    public func all(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An integer option, checked; nil when absent.
    public func integer(_ name: String, in spec: CommandSpec, minimum: Int = 0) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = Int(text), n >= minimum else {
            throw spec.usageError("the value '\(text)' is invalid for '\(spec.option(name)?.synopsis ?? name)': expected a whole number of at least \(minimum)")
        }
        return n
    }

    /// An option whose value must be one of an enum's cases.
    public func choice<T: RawRepresentable & CaseIterable>(_ name: String, in spec: CommandSpec, as: T.Type) throws -> T?
    where T.RawValue == String {
        guard let text = value(name) else { return nil }
        guard let choice = T(rawValue: text.lowercased()) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw spec.usageError("the value '\(text)' is invalid for '\(spec.option(name)?.synopsis ?? name)': expected one of \(allowed)")
        }
        return choice
    }
}

extension CommandSpec {
    /// A usage error for this command: exit 64, followed by the usage line and a help hint.
    public func usageError(_ message: String) -> CatalogError {
        CatalogError(.usage, message, usageHint: usageHint)
    }

    /// Parses `--opt value`, `--opt=value`, flags, `--` and positionals; unknown options suggest the nearest.
    public func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
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
                let hint = Suggestion.nearest(to: name, in: options.map(\.name)).map { ". Did you mean '\($0)'?" } ?? ""
                throw usageError("unknown option '\(name)'\(hint)")
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw usageError("'\(name)' takes no value") }
                parsed.flags.insert(name)
                continue
            }
            if let inlineValue {
                parsed.values.append((name, inlineValue))
            } else if index < arguments.count {
                parsed.values.append((name, arguments[index]))
                index += 1
            } else {
                throw usageError("missing value for '\(option.synopsis)'")
            }
            if !option.repeatable && parsed.all(name).count > 1 {
                throw usageError("'\(name)' can be given only once")
            }
        }
        return parsed
    }
}

import MovieDomain

/// How a shell completes an option's value.
public enum Completion: Sendable, Equatable {
    /// Nothing to offer.
    case none
    /// A file name.
    case file
    /// The catalog's genre codes.
    case genres
    /// The catalog's preset names.
    case presets
    /// One of fixed words.
    case choices([String])
    /// A filter token (`genre:drama`): facet names, then genre codes after `genre:`.
    case filterTokens
}

/// A positional argument: its name in help, its help text, and how shells complete it.
public struct ArgumentSpec: Sendable {
    /// `<file>`, `<facet:value>...`.
    public let name: String
    /// The one-line help text.
    public let help: String
    /// How shells complete it.
    public let completion: Completion

    /// Creates an argument.
    public init(_ name: String, _ help: String, completion: Completion = .none) {
        self.name = name
        self.help = help
        self.completion = completion
    }
}

/// Why an option's text is not a value of it: `expected a whole number of at least 0`.
public struct InvalidValue: Error, Sendable {
    /// What the value should have been, or why it is refused.
    public let reason: String

    /// Creates the error with its reason.
    public init(_ reason: String) { self.reason = reason }
}

/// What parsing, help and completions know of an option, whatever its value type.
public struct OptionSpec: Sendable {
    /// The long name, with its dashes (`--limit`).
    public let name: String
    /// The value placeholder shown in help (`n`), or nil for a flag.
    public let valueName: String?
    /// The one-line help text.
    public let help: String
    /// Whether the option may be given more than once.
    public let repeatable: Bool
    /// How shells complete its value.
    public let completion: Completion
    /// Turns the text into the typed value (nil for a flag).
    let convert: (@Sendable (String) throws -> any Sendable)?

    /// `--limit <n>` as shown in help and errors.
    public var synopsis: String { valueName.map { "\(name) <\($0)>" } ?? name }
}

/// Something a command declares as an option: a typed `Option` or a `Flag`.
public protocol OptionDeclaration: Sendable {
    /// What parsing, help and completions need.
    var spec: OptionSpec { get }
}

/// An option that takes a value, declared once with its name, type, help and completion, and
/// read back typed: `parsed[FilterCommand.limit]` is an `Int?`.
public struct Option<Value: Sendable>: OptionDeclaration {
    public let spec: OptionSpec

    /// Declares an option whose text becomes a `Value` through `convert` (which throws
    /// `InvalidValue` for text that is not one); `repeatable` options are read with `all`.
    public init(_ name: String, value valueName: String, help: String, repeatable: Bool = false,
                completion: Completion = .none, convert: @escaping @Sendable (String) throws -> Value) {
        spec = OptionSpec(name: name, valueName: valueName, help: help, repeatable: repeatable,
                          completion: completion, convert: { try convert($0) })
    }

    /// The option's name (`--limit`).
    public var name: String { spec.name }
}

extension Option where Value == String {
    /// A text option, taken as given.
    public init(_ name: String, value valueName: String, help: String, repeatable: Bool = false,
                completion: Completion = .none) {
        self.init(name, value: valueName, help: help, repeatable: repeatable, completion: completion) { $0 }
    }
}

extension Option where Value == Int {
    /// A whole number of at least `minimum`.
    public static func count(_ name: String, value valueName: String = "n", help: String, minimum: Int = 0) -> Option<Int> {
        Option(name, value: valueName, help: help) { text in
            guard let n = Int(text), n >= minimum else { throw InvalidValue("expected a whole number of at least \(minimum)") }
            return n
        }
    }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of an enumeration's cases, by raw value in any case; completed from them.
    public static func choice(_ name: String, value valueName: String, help: String) -> Option<Value> {
        let allowed = Value.allCases.map(\.rawValue)
        return Option(name, value: valueName, help: help, completion: .choices(allowed)) { text in
            guard let value = Value(rawValue: text.lowercased()) else {
                throw InvalidValue("expected one of \(allowed.joined(separator: ", "))")
            }
            return value
        }
    }
}

/// An option without a value (`--desc`); `parsed[flag]` says whether it was given.
public struct Flag: OptionDeclaration {
    public let spec: OptionSpec

    /// Declares a flag.
    public init(_ name: String, help: String) {
        spec = OptionSpec(name: name, valueName: nil, help: help, repeatable: false, completion: .none, convert: nil)
    }
}

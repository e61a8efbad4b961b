import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain

/// Options declared once, parsed into typed values, with help and errors from the declarations.
@Suite struct ArgumentParserTests {
    static let genre = Option<String>("--genre", value: "g", help: "A genre.", repeatable: true, completion: .genres)
    static let limit = Option<Int>.count("--limit", help: "At most N.")
    static let sort = Option<SortKey>.choice("--sort", value: "key", help: "The order.")
    static let desc = Flag("--desc", help: "Descending.")
    static let spec = CommandSpec(name: "filter", abstract: "x", arguments: [ArgumentSpec("<token>", "A token.")],
                                  options: [genre, limit, sort, desc], examples: ["moviecat filter"])

    @Test("--opt value, --opt=value, flags, -- and positionals; values read back typed")
    func parsing() throws {
        let parsed = try Self.spec.parse(["--genre", "drama", "--genre=war", "--desc", "tok", "--limit", "7",
                                          "--sort=RATING", "--", "--limit"])
        #expect(parsed.all(Self.genre) == ["drama", "war"])
        #expect(parsed[Self.limit] == 7)
        #expect(parsed[Self.sort] == .rating)
        #expect(parsed[Self.desc])
        #expect(parsed.positionals == ["tok", "--limit"])
        let none = try Self.spec.parse([])
        #expect(none[Self.limit] == nil && !none[Self.desc] && none.all(Self.genre).isEmpty)
    }

    struct Bad: Sendable, CustomStringConvertible {
        let arguments: [String]
        let message: String
        var description: String { arguments.joined(separator: " ") }
    }

    @Test("parse errors are usage errors with the usage and a hint", arguments: [
        Bad(arguments: ["--gnre", "x"], message: "unknown option '--gnre'. Did you mean '--genre'?"),
        Bad(arguments: ["--limit"], message: "missing value for '--limit <n>'"),
        Bad(arguments: ["--limit", "ten"], message: "the value 'ten' is invalid for '--limit <n>': expected a whole number of at least 0"),
        Bad(arguments: ["--limit", "99999999999999999999"], message: "the value '99999999999999999999' is invalid for '--limit <n>': expected a whole number of at least 0"),
        Bad(arguments: ["--sort", "size"], message: "the value 'size' is invalid for '--sort <key>': expected one of title, year, rating, votes, duration"),
        Bad(arguments: ["--limit", "1", "--limit", "2"], message: "'--limit' can be given only once"),
        Bad(arguments: ["--desc=yes"], message: "'--desc' takes no value"),
    ])
    func parseErrors(_ c: Bad) throws {
        let error = #expect(throws: CatalogError.self) { try Self.spec.parse(c.arguments) }
        #expect(error?.kind == .usage)
        #expect(error?.message == c.message)
        #expect(error?.usageHint == "USAGE: moviecat filter <token> [--genre <g>]... [--limit <n>] [--sort <key>] [--desc]\nSee 'moviecat filter --help'.")
    }

    @Test("help comes from the declarations")
    func help() {
        let help = Self.spec.help
        // Wrapped at 80 columns under its first argument.
        #expect(help.contains("USAGE: moviecat filter <token> [--genre <g>]... [--limit <n>] [--sort <key>]\n                       [--desc]\n"))
        #expect(help.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(help)")
        #expect(help.contains("  --limit <n>   At most N.\n"))
        #expect(help.contains("ARGUMENTS:\n  <token>"))
        #expect(help.contains("EXAMPLES:\n  moviecat filter\n"))
    }

    @Test("global options stop at the command")
    func global() throws {
        let parsed = try Self.spec.parse(["--desc", "filter", "--limit", "x"], stopAtCommand: true)
        #expect(parsed[Self.desc])
        #expect(parsed.positionals == ["filter", "--limit", "x"])
    }

    @Test("filter options check their values' syntax when parsed; genres wait for the catalog")
    func filterOptions() throws {
        let spec = CommandSpec(name: "filter", abstract: "x", options: FilterOptions.all)
        #expect(throws: CatalogError.self) { try spec.parse(["--rating", "7..x"]) }
        #expect(throws: CatalogError.self) { try spec.parse(["--votes", "lots"]) }
        let parsed = try spec.parse(["--genre", "dramma", "--year", "1990s"])
        #expect(parsed.values.map(\.text) == ["dramma", "1990s"])
    }

    @Test("each command is found by its name alone, as listed in help; an unknown name suggests the nearest")
    func commandsByName() throws {
        for command in Commands.all {
            #expect(try Commands.named(command.spec.name).spec.name == command.spec.name)
        }
        #expect(try Commands.named("_complete").spec.name == "_complete")
        #expect(throws: CatalogError.self) { try Commands.named("fliter") }
        #expect(Commands.globalHelp.contains("SUBCOMMANDS:") && Commands.globalHelp.contains("save-preset"))
    }
}

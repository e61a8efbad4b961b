import Foundation
import Testing

/// Help, `--version`, and the option syntax every command shares (`--opt=value`, `--`).
@Suite struct HelpTests {
    struct HelpCase: Sendable, CustomStringConvertible {
        let arguments: [String]
        var description: String { "moviecat " + arguments.joined(separator: " ") }
    }

    /// Every command of SPEC section 4, and help.
    static let commands = ["init", "import", "filter", "facets", "save-preset", "presets", "add", "edit", "remove",
                           "completions", "info", "help"]

    static let helpCases: [HelpCase] = [HelpCase(arguments: ["--help"]), HelpCase(arguments: ["-h"]),
                                        HelpCase(arguments: ["help"])]
        + commands.map { HelpCase(arguments: ["help", $0]) }
        + commands.map { HelpCase(arguments: [$0, "--help"]) }
        + [HelpCase(arguments: ["filter", "--genre", "drama", "--help"])]

    @Test("help prints to stdout with USAGE, ARGUMENTS, OPTIONS and EXAMPLES and exits 0", arguments: helpCases)
    func help(_ c: HelpCase) throws {
        let box = try Sandbox()
        let run = try box.moviecat(c.arguments)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.isEmpty, "\(run)")
        for section in ["USAGE:", "ARGUMENTS:", "OPTIONS:", "EXAMPLES:"] {
            #expect(run.lines.contains { $0.hasPrefix(section) }, "no \(section) section: \(run)")
        }
        #expect(!FileManager.default.fileExists(atPath: box.db), "help needs no catalog")
        // Wrapped at 80 columns (words kept whole), but for the examples, which are commands to copy.
        let described = run.lines.prefix { !$0.hasPrefix("EXAMPLES:") }
        #expect(described.allSatisfy { $0.count <= 80 }, "\(described.filter { $0.count > 80 })")
    }

    @Test("the main help lists every command")
    func mainHelpListsCommands() throws {
        let run = try Sandbox().moviecat("--help")
        for command in Self.commands {
            #expect(run.lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(command + " ") }, "\(command): \(run)")
        }
    }

    @Test("help filter, filter --help, filter -h and --help filter print the same text")
    func helpFormsAgree() throws {
        let box = try Sandbox()
        let a = try box.moviecat("help", "filter")
        let b = try box.moviecat("filter", "--help")
        let c = try box.moviecat("filter", "-h")
        let d = try box.moviecat("--help", "filter")
        #expect(a.status == 0 && d.status == 0 && a.stdout == b.stdout && b.stdout == c.stdout && c.stdout == d.stdout)
        for words in [["presets", "show"], ["presets"]] {
            let global = try box.moviecat(["-h"] + words)
            let own = try box.moviecat(words + ["--help"])
            let named = try box.moviecat(["help"] + words)
            #expect(global.status == 0 && global.stdout == own.stdout && own.stdout == named.stdout, "\(words): \(global)")
        }
        for flag in ["--genre", "--exclude-genre", "--rating", "--duration", "--year", "--certification", "--title",
                     "--preset", "--sort", "--desc", "--limit", "--offset", "--format", "--count", "--explain"] {
            #expect(a.stdout.contains(flag), "filter help does not mention \(flag)")
        }
    }

    @Test("a misspelt --help is suggested as any option is", arguments: ["--hepl", "--hlep"])
    func helpMisspelt(_ flag: String) throws {
        let run = try Sandbox().moviecat("filter", flag)
        #expect(run.status == 64 && run.errorLines.last?.contains("Did you mean '--help'?") == true, "\(run)")
    }

    @Test("help for an unknown command is a usage error suggesting the nearest")
    func helpUnknown() throws {
        let run = try Sandbox().moviecat("help", "fliter")
        #expect(run.status == 64, "\(run)")
        #expect(run.errorLines.last?.hasPrefix("moviecat: error: ") == true, "\(run)")
        #expect(run.errorLines.last?.contains("'filter'") == true, "\(run)")
        #expect(run.stdout.isEmpty)
    }

    @Test("moviecat's own option after the command says where it goes, not the nearest command option",
          arguments: [["filter", "--db", "x.sqlite", "--count"], ["presets", "show", "--db", "x.sqlite", "a"]])
    func globalOptionAfterCommand(_ arguments: [String]) throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, arguments, directory: box.dir)
        #expect(run.status == 64, "\(run)")
        let command = arguments.prefix { !$0.hasPrefix("-") }.joined(separator: " ")
        #expect(run.errorLines.last == "moviecat: error: '--db' is an option of moviecat itself: put it before the command (moviecat --db ... \(command) ...)", "\(run)")
        #expect(!FileManager.default.fileExists(atPath: box.path("x.sqlite")))
    }

    @Test("--version prints a version and exits 0")
    func version() throws {
        let box = try Sandbox()
        let run = try box.moviecat("--version")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains(try Regex(#"^moviecat \d+\.\d+(\.\d+)?\n$"#)), "\(run)")
        #expect(run.stderr.isEmpty)
        let bare = try runProcess(moviecatBinary, ["--version"])
        #expect(bare.stdout == run.stdout)
    }

    struct EqualsCase: Sendable, CustomStringConvertible {
        let spaced: [String]
        let joined: [String]
        var description: String { joined.joined(separator: " ") }
    }

    @Test("--opt=value works like --opt value", arguments: [
        EqualsCase(spaced: ["filter", "--genre", "action", "--format", "csv"], joined: ["filter", "--genre=action", "--format=csv"]),
        EqualsCase(spaced: ["filter", "--rating", "4..", "--sort", "rating", "--limit", "2", "--format", "json"],
                   joined: ["filter", "--rating=4..", "--sort=rating", "--limit=2", "--format=json"]),
        EqualsCase(spaced: ["filter", "--title", "a=b", "--count"], joined: ["filter", "--title=a=b", "--count"]),
        EqualsCase(spaced: ["filter", "--duration", "1h30m..2h", "--format", "tsv"],
                   joined: ["filter", "--duration=1h30m..2h", "--format=tsv"]),
    ])
    func equalsSyntax(_ c: EqualsCase) throws {
        let box = try Sandbox()
        try box.seed()
        let spaced = try box.moviecat(c.spaced)
        let joined = try box.moviecat(c.joined)
        #expect(spaced.status == 0, "\(spaced)")
        #expect(joined.status == 0, "\(joined)")
        #expect(joined.stdout == spaced.stdout)
        #expect(!joined.stdout.isEmpty)
    }

    @Test("--db=path works like --db path")
    func globalEquals() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["--db=\(box.db)", "init", "--seed"])
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["13"])
    }

    @Test("a flag given a value with = is a usage error")
    func flagWithValue() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--desc=yes")
        #expect(run.status == 64, "\(run)")
        #expect(run.errorLines.last?.hasPrefix("moviecat: error: ") == true, "\(run)")
    }

    @Test("-- ends options: a preset name that starts with a dash")
    func dashDashPresetName() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("save-preset", "--genre", "action", "--", "-weird-name", "rating:2")
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT name FROM presets") == ["-weird-name"])
        #expect(try box.sql("SELECT facet || ':' || value FROM preset_filters ORDER BY 1") == ["genre:action", "rating:2"])
        let shown = try box.moviecat("presets", "show", "--", "-weird-name")
        #expect(shown.status == 0 && shown.lines.sorted() == ["genre:action", "rating:2"], "\(shown)")
        let filtered = try box.moviecat("filter", "--count", "--preset=-weird-name")
        #expect(filtered.stdout == "1\n", "\(filtered)")
    }

    @Test("-- ends options: filter tokens after it")
    func dashDashTokens() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "csv", "--", "genre:action")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 4, "\(run)")
        let flagAfter = try box.moviecat("filter", "--count", "--", "--genre")
        #expect(flagAfter.status == 64, "after -- a flag is a positional, not an option: \(flagAfter)")
        #expect(flagAfter.errorLines.first?.contains("--genre") == true, "\(flagAfter)")
        #expect(!flagAfter.errorLines.contains { $0.contains("unknown option") }, "\(flagAfter)")
    }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// Small pieces: suggestions, display width, escaping, argument parsing, embedded SQL.
@Suite struct SupportTests {
    @Test("nearest suggestion", arguments: [("dramma", "drama"), ("--gnre", "--genre"), ("scifi", "sci-fi"), ("zzzzzz", nil)])
    func nearest(_ word: String, _ expected: String?) {
        #expect(Suggestion.nearest(to: word, in: ["drama", "--genre", "sci-fi", "--year"]) == expected)
    }

    @Test("display width counts wide characters twice and marks not at all", arguments: [
        ("abc", 3), ("日本語", 6), ("🎬", 2), ("é", 1), ("e\u{301}", 1), ("👩‍👩‍👧", 2), ("❤️", 2),
    ])
    func width(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("truncation fits the width and ends in an ellipsis")
    func truncate() {
        #expect(DisplayWidth.truncate("The Godfather Part II", to: 10) == "The Godfa…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語のタイトル", to: 7)) <= 7)
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
    }

    @Test("CSV and JSON escaping")
    func escaping() {
        #expect(TextEscaping.csv("a,b") == "\"a,b\"")
        #expect(TextEscaping.csv("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(TextEscaping.csv("plain") == "plain")
        #expect(TextEscaping.json("a\"b\\c\n\u{1}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }

    static let spec = CommandSpec(name: "filter", abstract: "x", usage: "moviecat filter", options: [
        OptionSpec("--genre", value: "g", help: "", repeatable: true), OptionSpec("--limit", value: "n", help: ""),
        OptionSpec("--desc", help: ""),
    ])

    @Test("--opt value, --opt=value, flags, -- and positionals")
    func parsing() throws {
        let parsed = try Self.spec.parse(["--genre", "drama", "--genre=war", "--desc", "tok", "--", "--limit"])
        #expect(parsed.all("--genre") == ["drama", "war"])
        #expect(parsed.has("--desc"))
        #expect(parsed.positionals == ["tok", "--limit"])
    }

    @Test("parse errors are usage errors with a hint")
    func parseErrors() throws {
        let unknown = #expect(throws: CatalogError.self) { try Self.spec.parse(["--gnre", "x"]) }
        #expect(unknown?.message == "unknown option '--gnre'. Did you mean '--genre'?")
        #expect(unknown?.usageHint?.contains("See 'moviecat filter --help'.") == true)
        let missing = #expect(throws: CatalogError.self) { try Self.spec.parse(["--limit"]) }
        #expect(missing?.message == "missing value for '--limit <n>'")
        #expect(throws: CatalogError.self) { try Self.spec.parse(["--limit", "1", "--limit", "2"]) }
        #expect(throws: CatalogError.self) { try Self.spec.parse(["--desc=yes"]) }
    }

    @Test("the compiled-in SQL is the Migrations/ and seed.sql files")
    func embeddedSQL() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Migrations").path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(CatalogSchema.migrations.map(\.name) == files)
        for migration in CatalogSchema.migrations {
            let text = try String(contentsOf: root.appendingPathComponent("Migrations/\(migration.name)"), encoding: .utf8)
            #expect(migration.sql == text, "\(migration.name) changed since it was embedded: touch Package.swift and build again")
            #expect(text.contains("PRAGMA user_version = \(migration.version);"))
        }
        #expect(CatalogSchema.seedSQL == (try String(contentsOf: root.appendingPathComponent("seed.sql"), encoding: .utf8)))
    }

    @Test("decimals print without exponents and read back exactly", arguments: [
        (0.00001, "0.00001"), (7.5, "7.5"), (5.0, "5.0"), (1.5e-7, "0.00000015"), (1e16, "10000000000000000.0"),
        (-2.5e-5, "-0.000025"), (0.1, "0.1"), (9.99, "9.99"),
    ])
    func decimals(_ value: Double, _ text: String) {
        #expect(NumberText.decimal(value) == text)
        #expect(Double(NumberText.decimal(value)) == value)
    }

    @Test("file numbers accept JSON exponents; filter numbers do not", arguments: [
        ("7.5e0", 7.5), ("75E-1", 7.5), ("1e1", 10.0), ("7", 7.0),
    ])
    func numbers(_ text: String, _ value: Double) {
        #expect(ValueParsing.number(text) == value)
    }

    @Test("non-numbers stay rejected", arguments: ["1e", "e5", "inf", "nan", "1e999", "0x10", "1.2.3", ""])
    func nonNumbers(_ text: String) {
        #expect(ValueParsing.number(text) == nil)
    }

    @Test("plain decimals read exactly as strtod reads them", arguments: [1, 2, 3] as [UInt64])
    func decimalsMatchStrtod(seed: UInt64) {
        var rng = SQLBuilderTests.SplitMix(state: seed)
        for _ in 0..<20_000 {
            let digits = (0..<Int.random(in: 1...15, using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let dot = Int.random(in: 0...digits.count, using: &rng)
            var text = String(digits.prefix(dot)) + "." + String(digits.dropFirst(dot))
            if Bool.random(using: &rng) && dot == digits.count { text.removeLast() }
            text = ["", "-", "+"][Int.random(in: 0..<3, using: &rng)] + text
            let expected = Double(text)!
            let parsed = ValueParsing.decimal(text)
            #expect(parsed == expected && parsed?.sign == expected.sign, "\(text)")
            if parsed != expected { return }
        }
        #expect(ValueParsing.decimal("1234567890123456") == nil, "16 digits are refused")
        #expect(ValueParsing.decimal(".") == nil && ValueParsing.decimal("1.2.3") == nil && ValueParsing.decimal("1-") == nil)
    }

    @Test("integers: optional sign, one to nine ASCII digits, nothing else", arguments: [
        ("0", 0), ("12", 12), ("+12", 12), ("-12", -12), ("0012", 12), ("123456789", 123_456_789),
        ("", nil), ("-", nil), ("+", nil), ("1234567890", nil), ("1-2", nil), ("--1", nil), (" 1", nil),
        ("1 ", nil), ("1.0", nil), ("\u{0661}\u{0662}", nil), ("1\u{301}", nil),
    ] as [(String, Int?)])
    func integers(_ text: String, _ value: Int?) {
        #expect(ValueParsing.integer(text) == value)
    }

    @Test("control characters print as visible pictures in the table")
    func terminalSafe() {
        #expect(TextEscaping.terminalSafe("a\nb\u{1B}[2Jc\t") == "a␊b␛[2Jc␉")
        #expect(TextEscaping.terminalSafe("Amélie 👩‍👩‍👧") == "Amélie 👩‍👩‍👧")
    }

    @Test("genre slugs")
    func slugs() {
        #expect(Genre.slug("Sci-Fi") == "sci-fi")
        #expect(Genre.slug("  Film Noir ") == "film-noir")
        #expect(Genre.slug("Ciência & Ficção") == "ciência-ficção")
        #expect(Genre.slug("???") == "")
    }
}

import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// Every value parser gives a value or an error for any text: never a trap (issue 9, item 0).
@Suite struct ValueParsingTests {
    /// Text built from the pieces that break number parsers: long digit runs, signs, exponents,
    /// dots, units, colons, range dots, spaces and a few letters.
    static func hostileText(_ rng: inout SQLBuilderTests.SplitMix) -> String {
        let pieces = ["0", "7", "9", "99999999999999999999", "11111111111111111111999", "1234567890",
                      "-", "+", ".", "..", "e", "E", "e308", "e-400", "h", "m", "min", "s", "k", " ", ":",
                      "1h", "30", "30m", "inf", "nan", "0x1p3", "٣", "𝟗", "\u{0}"]
        var text = ""
        for _ in 0..<Int.random(in: 1...8, using: &rng) { text += pieces.randomElement(using: &rng)! }
        return text
    }

    static let parser = FilterParser(genres: GenreCatalogue([Genre(id: 1, code: "drama", name: "Drama")]))

    @Test("value parsers return a value or nil for any text, never trap")
    func noTraps() {
        var rng = SQLBuilderTests.SplitMix(state: 2026)
        for _ in 0..<20_000 {
            let text = Self.hostileText(&rng)
            if let n = ValueParsing.integer(text) { #expect(abs(n) <= 999_999_999, "\(text)") }
            if let d = ValueParsing.decimal(text) { #expect(d.isFinite, "\(text)") }
            if let d = ValueParsing.number(text) { #expect(d.isFinite, "\(text)") }
            if let m = ValueParsing.minutes(text) { #expect(m >= 0, "\(text)") }
            if let h = ValueParsing.wholeHours(text) { #expect(h >= 0, "\(text)") }
            _ = MovieRules.wholeNumber(text)
            for field in MovieField.allCases { _ = MovieRules.value(field, from: text) }
            for facet in Facet.allCases {
                // A usage error or an element; a trap would end the whole test run.
                _ = try? Self.parser.parseOne(facet, text, source: facet.flag)
                _ = try? Self.parser.parse(facet, text)
            }
            _ = try? Self.parser.parseToken("year:" + text)
            let decoded = RowDecoder.decode(file: "f.csv", line: 2) { field in
                field == .title ? .text("T") : .text(text)
            }
            if case .valid(let row) = decoded {
                #expect(row.year.map { (1870...2100).contains($0) } ?? true)
                #expect(row.durationMinutes.map { $0 > 0 } ?? true)
                #expect(MovieRules.violation(in: row.movie) == nil, "a decoded row passes the schema's CHECKs: \(text)")
            }
        }
    }

    @Test("huge whole numbers are rejected, not wrapped or trapped", arguments: [
        "99999999999999999999", "11111111111111111111999", "-99999999999999999999", "1234567890", "99999999999999999999.5",
    ])
    func hugeIntegers(_ text: String) {
        #expect(ValueParsing.integer(text) == nil)
        #expect(ValueParsing.minutes(text) == nil)
        #expect(throws: CatalogError.self) { try Self.parser.parseOne(.year, text, source: "--year") }
        #expect(throws: CatalogError.self) { try Self.parser.parseOne(.rating, text, source: "--rating") }
    }

    @Test("a duration is one number or unit groups: digits are never joined across spaces", arguments: [
        "30 30", "1h 30 30m", "1h 30 30 30 30 30 30 30 30 30 30m", "30m 1h", "1h 1h", "2 2h", "1h30", "m", "h", "",
    ])
    func notDurations(_ text: String) {
        #expect(ValueParsing.minutes(text) == nil)
    }

    @Test("durations with spaces between number and unit", arguments: [
        ("1 h 30 min", 90), ("2 h", 120), (" 95 min ", 95), ("1H 30M", 90), ("0h 45m", 45),
    ])
    func spacedDurations(_ text: String, _ minutes: Int) {
        #expect(ValueParsing.minutes(text) == minutes)
    }
}

import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// Every value parser gives a value or an error for any text: never a trap (issue 9, item 0).
@Suite struct ValueParsingTests {
    /// Text built from the pieces that break number parsers: long digit runs, signs, exponents,
    /// dots, units, colons, range dots, spaces and a few letters.
    static func hostileText(_ rng: inout SeededRandom) -> String {
        let pieces = ["0", "7", "9", "99999999999999999999", "11111111111111111111999", "1234567890",
                      "-", "+", ".", "..", "e", "E", "e308", "e-400", "h", "m", "min", "s", "k", " ", ":",
                      "1h", "30", "30m", "inf", "nan", "0x1p3", "٣", "𝟗", "\u{0}",
                      // Dates, grouped counts and decimal commas.
                      "/", ",", "1994", "12", "Sep", "september", "'", "\u{A0}", "N/A", "000"]
        var text = ""
        for _ in 0..<Int.random(in: 1...8, using: &rng) { text += pieces.randomElement(using: &rng)! }
        return text
    }

    static let parser = FilterParser(genres: GenreCatalogue([Genre(id: 1, code: "drama", name: "Drama")]))

    @Test("value parsers return a value or nil for any text, never trap")
    func noTraps() {
        var rng = SeededRandom(seed: 2026)
        for _ in 0..<20_000 {
            let text = Self.hostileText(&rng)
            if let n = ValueParsing.integer(text) { #expect(abs(n) <= 999_999_999, "\(text)") }
            if let d = ValueParsing.decimal(text) { #expect(d.isFinite, "\(text)") }
            if let d = ValueParsing.number(text) { #expect(d.isFinite, "\(text)") }
            if let m = ValueParsing.minutes(text) { #expect(m >= 0, "\(text)") }
            if let h = ValueParsing.wholeHours(text) { #expect(h >= 0, "\(text)") }
            _ = MovieRules.wholeNumber(text)
            if let year = ValueParsing.yearOfDate(text) { #expect(year >= 0, "\(text)") }
            if let count = ValueParsing.groupedCount(text) { #expect(count >= 0, "\(text)") }
            if let d = ValueParsing.decimalComma(text) { #expect(d.isFinite, "\(text)") }
            if let d = ValueParsing.outOf(text) { #expect(d >= 0 && d <= 10, "\(text)") }
            _ = ValueParsing.withoutNotes(text, dropParenthesised: true)
            _ = ValueParsing.isNullWord(text)
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
        "99999999999999999999", "11111111111111111111999", "-99999999999999999999", "9223372036854775808", "99999999999999999999.5",
    ])
    func hugeIntegers(_ text: String) {
        #expect(ValueParsing.integer(text) == nil)
        #expect(ValueParsing.minutes(text) == nil)
        #expect(throws: CatalogError.self) { try Self.parser.parseOne(.year, text, source: "--year") }
        #expect(throws: CatalogError.self) { try Self.parser.parseOne(.rating, text, source: "--rating") }
    }

    @Test("a duration is one number or unit groups: digits are never joined across spaces", arguments: [
        "30 30", "1h 30 30m", "1h 30 30 30 30 30 30 30 30 30 30m", "30m 1h", "1h 1h", "2 2h", "1h30 30", "30 1h", "1h30h", "5 mx", "m", "h", "",
    ])
    func notDurations(_ text: String) {
        #expect(ValueParsing.minutes(text) == nil)
    }

    @Test("durations with spaces between number and unit", arguments: [
        ("1 h 30 min", 90), ("2 h", 120), (" 95 min ", 95), ("1H 30M", 90), ("0h 45m", 45),
        ("95 mins", 95), ("95 minutes", 95), ("1 minute", 1), ("2 hours", 120), ("1 hour 5 minutes", 65), ("1 hr 30 mins", 90),
        ("2hrs", 120), ("1h30", 90), ("1h 30", 90),
    ])
    func spacedDurations(_ text: String, _ minutes: Int) {
        #expect(ValueParsing.minutes(text) == minutes)
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
        var rng = SeededRandom(seed: seed)
        for _ in 0..<20_000 {
            let digits = (0..<Int.random(in: 1...(seed == 3 ? 40 : 15), using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
            let dot = Int.random(in: 0...digits.count, using: &rng)
            var text = String(digits.prefix(dot)) + "." + String(digits.dropFirst(dot))
            if Bool.random(using: &rng) && dot == digits.count { text.removeLast() }
            text = ["", "-", "+"][Int.random(in: 0..<3, using: &rng)] + text
            let expected = Double(text)!
            let parsed = ValueParsing.decimal(text)
            #expect(parsed == expected && parsed?.sign == expected.sign, "\(text)")
            if parsed != expected { return }
        }
        #expect(ValueParsing.decimal("1234567890123456") == 1_234_567_890_123_456, "16 digits and more read as strtod reads them")
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

    @Test("whole numbers of the schema's 64-bit range read; one past it is nil", arguments: [
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("+0009223372036854775807", Int.max),
        ("1000000000", 1_000_000_000), ("9223372036854775808", nil), ("-9223372036854775809", nil),
        ("18446744073709551616", nil), ("1.0", nil), ("", nil), ("-", nil),
    ] as [(String, Int?)])
    func longIntegers(_ text: String, _ value: Int?) {
        #expect(ValueParsing.longInteger(text) == value)
    }

    @Test("counts with their thousands grouped: one separator throughout, groups of three", arguments: [
        ("1,700,000", 1_700_000), ("720.000", 720_000), ("1 700 000", 1_700_000), ("1'700'000", 1_700_000),
        ("12\u{A0}345", 12_345), ("9\u{202F}999", 9_999), ("999,999,999,999", 999_999_999_999),
        ("2.0", nil), ("1,5", nil), ("1,70,000", nil), ("1.700,000", nil), ("1234,567", nil), (",123", nil),
        ("123,", nil), ("1,,000", nil), ("123", nil), ("", nil), ("-1,000", nil), ("1,000.5", nil),
    ] as [(String, Int?)])
    func groupedCounts(_ text: String, _ value: Int?) {
        #expect(ValueParsing.groupedCount(text) == value)
    }

    @Test("years of dates: ISO, numeric either way round with a four-digit year, English month names; nothing ambiguous", arguments: [
        ("1994-09-23", 1994), ("1994-09", 1994), ("9/23/1994", 1994), ("23/9/1994", 1994), ("23.09.1994", 1994), ("23-09-1994", 1994),
        ("1994/09/23", 1994), ("1994.9.23", 1994), ("September 23, 1994", 1994), ("Sep 23 1994", 1994), ("23 Sep. 1994", 1994),
        ("23 September 1994", 1994), ("September 1994", 1994), ("sept 1994", 1994),
        ("9/23/94", nil), ("13/13/1994", nil), ("32/1/1994", nil), ("1994/13/01", nil), ("9/23-1994", nil), ("Smarch 1994", nil),
        ("September 32, 1994", nil), ("May", nil), ("1994", nil), ("23 1994", nil), ("Ma 1994", nil),
        ("1994-02-30", nil), ("1994/02/30", nil), ("2/30/1994", nil), ("29.02.2000", 2000), ("29.02.1900", nil),
        ("February 30, 1994", nil), ("30 Feb 1994", nil), ("Sep 31, 1994", nil), ("February 29, 1995", nil), ("February 29, 1996", 1996),
    ] as [(String, Int?)])
    func yearsOfDates(_ text: String, _ year: Int?) {
        #expect(ValueParsing.yearOfDate(text) == year)
    }

    @Test("a decimal comma: one comma, one or two digits after it", arguments: [
        ("8,3", 8.3), ("10,0", 10.0), ("7,25", 7.25), ("8,", nil), (",5", nil), ("1,700", nil), ("1,2,3", nil), ("8.3", nil),
    ] as [(String, Double?)])
    func decimalCommas(_ text: String, _ value: Double?) {
        #expect(ValueParsing.decimalComma(text) == value)
    }

    @Test("a score out of 10, 5 or 100 on the catalog's scale; no other scale, nothing past it", arguments: [
        ("9/10", 9.0), ("8.5 / 10", 8.5), ("4.5/5", 9.0), ("3/5", 6.0), ("85/100", 8.5), ("7,5/10", 7.5), ("0/10", 0.0),
        ("11/10", nil), ("9/7", nil), ("/10", nil), ("9/", nil), ("-1/10", nil), ("1/2/10", nil), ("nine/10", nil),
    ] as [(String, Double?)])
    func outOfScale(_ text: String, _ value: Double?) {
        #expect(ValueParsing.outOf(text) == value)
        if let value { #expect(MovieRules.value(.rating, from: text) == .success(.real(value))) }
        if ["11/10", "9/7"].contains(text) {
            #expect(MovieRules.value(.rating, from: text) == .failure(MovieRules.Violation(reason: "'\(text)' is not a score out of 5, 10 or 100 within its scale")))
        }
    }

    @Test("footnote marks and a date's note are no part of a value; nothing is left empty", arguments: [
        ("113 minutes[1]", false, "113 minutes"), ("8.1[a][note 2]", false, "8.1"), ("12 September 1998 (Toronto)", true, "12 September 1998"),
        ("1927/28 (1st)", true, "1927/28"), ("(1999)", true, "(1999)"), ("[1]", false, "[1]"), ("PG-13 (US)", false, "PG-13 (US)"),
        ("[REC] 2", false, "[REC] 2"), ("5 [a very long note that is no footnote]", false, "5 [a very long note that is no footnote]"),
    ] as [(String, Bool, String)])
    func notesDropped(_ text: String, _ parenthesised: Bool, _ expected: String) {
        #expect(ValueParsing.withoutNotes(text, dropParenthesised: parenthesised) == expected)
    }

    @Test("an IMDb id from a link within IMDb's pages, as scrapes keep them")
    func relativeIMDbLinks() {
        #expect(ValueParsing.imdbID("/title/tt0111161/?ref_=chttp_t_1") == "tt0111161")
        #expect(ValueParsing.imdbID("/name/nm0000151/") == nil)
    }

    @Test("the words tools write for no value, any case; nothing else", arguments: [
        ("N/A", true), ("n/a", true), ("NA", true), ("null", true), ("NULL", true), ("None", true), ("NaN", true),
        ("#N/A", true), ("<NA>", true), ("-nan", true), ("#N/A N/A", true), ("TBA", true), ("tbd", true), ("\u{2014}", true), ("\u{2013}", true),
        ("Tba Tbd", false), ("Thriller", false), ("Nan Goldin", false), ("North", false), ("N", false), ("-", false), ("", false), ("Drama", false), ("nul", false),
    ] as [(String, Bool)])
    func nullWords(_ text: String, _ isNull: Bool) {
        #expect(ValueParsing.isNullWord(text) == isNull)
    }

    @Test("durations up to Int.max minutes read in every form; past it, nil", arguments: [
        ("9223372036854775807", 9_223_372_036_854_775_807), ("9223372036854775807m", 9_223_372_036_854_775_807),
        ("153722867280912930h", 9_223_372_036_854_775_800), ("153722867280912930h 7m", 9_223_372_036_854_775_807),
        ("1000000000 min", 1_000_000_000), ("9223372036854775808", nil), ("153722867280912930h 8m", nil),
        ("153722867280912931h", nil), ("99999999999999999999m", nil),
    ] as [(String, Int?)])
    func longDurations(_ text: String, _ minutes: Int?) {
        #expect(ValueParsing.minutes(text) == minutes)
    }

    @Test("IMDb ids keep 7 or more digits as given and pad fewer to 7", arguments: [
        ("tt9223372036854775807", "tt9223372036854775807"), ("tt00000000001", "tt00000000001"), ("00111161", "tt00111161"),
        ("TT00000000001", "tt00000000001"), ("tt0000000", "tt0000000"), ("0000000", "tt0000000"), ("111161", "tt0111161"),
        ("https://www.imdb.com/title/tt00111161/", "tt00111161"), ("1", "tt0000001"), ("000", nil), ("tt", nil),
        ("https://www.imdb.com/de/title/tt0000081/", "tt0000081"), ("https://m.imdb.com/es-es/title/tt0111161/?ref_=x", "tt0111161"),
        ("imdb.com/title/tt0111161", "tt0111161"), ("https://www.imdb.com/name/nm0000123/", nil),
        ("https://www.imdb.com/de/name/tt0000081/", nil), ("https://www.imdb.com/german/title/tt0000081/", nil),
    ] as [(String, String?)])
    func imdbIDs(_ text: String, _ id: String?) {
        #expect(ValueParsing.imdbID(text) == id)
    }

    @Test("genre slugs")
    func slugs() {
        #expect(Genre.slug("Sci-Fi") == "sci-fi")
        #expect(Genre.slug("  Film Noir ") == "film-noir")
        #expect(Genre.slug("Ciência & Ficção") == "ciência-ficção")
        #expect(Genre.slug("???") == "")
    }
}

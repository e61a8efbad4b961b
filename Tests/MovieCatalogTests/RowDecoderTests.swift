import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// Turning raw cells into validated rows.
@Suite struct RowDecoderTests {
    func decode(_ cells: [MovieField: Cell]) -> DecodedRow {
        RowDecoder.decode(file: "m.csv", line: 7) { cells[$0] ?? .absent }
    }

    @Test("a full row is trimmed, typed and upper-cases certification")
    func fullRow() throws {
        let row = decode([.title: .text("  Heat "), .year: .text("1995"), .genres: .text("Crime| thriller;;Drama,"),
                          .rating: .text("8.3"), .duration: .text("2h 50m"), .certification: .text("r"),
                          .votes: .number("700000"), .imdbID: .text("https://www.imdb.com/title/tt0113277/?ref_=x")])
        guard case .valid(let r) = row else { Issue.record("\(row)"); return }
        #expect(r.title == "Heat")
        #expect(r.year == 1995 && r.rating == 8.3 && r.durationMinutes == 170 && r.certification == "R")
        #expect(r.genres == ["Crime", "thriller", "Drama"])
        #expect(r.votes == 700000 && r.imdbID == "tt0113277")
        #expect(r.present == MovieFields.all)
    }

    @Test("absent columns are not present; empty ones are present and null")
    func presence() throws {
        guard case .valid(let r) = decode([.title: .text("X"), .rating: .null]) else { Issue.record(); return }
        #expect(r.present == [.title, .rating])
        #expect(r.rating == nil)
    }

    struct Case: Sendable, CustomStringConvertible {
        let field: MovieField
        let cell: Cell
        let message: String
        var description: String { "\(field.name) \(cell)" }
    }

    static let cases: [Case] = [
        Case(field: .title, cell: .text("   "), message: "m.csv:7: title: is blank"),
        Case(field: .year, cell: .text("99999"), message: "m.csv:7: year: '99999' is outside 1870..2100"),
        Case(field: .year, cell: .text("19x4"), message: "year: '19x4' is not a whole number"),
        Case(field: .year, cell: .text("1994-13-01"), message: "year: '1994-13-01' is not a date (nor a year)"),
        Case(field: .duration, cell: .text("-0"), message: "duration: '-0' is not a positive duration"),
        Case(field: .rating, cell: .text("11"), message: "m.csv:7: rating: '11' is outside 0..10"),
        Case(field: .rating, cell: .text("-0.5"), message: "outside 0..10"),
        Case(field: .rating, cell: .text("good"), message: "rating: 'good' is not a number"),
        Case(field: .duration, cell: .text("-5"), message: "duration: '-5' is negative"),
        Case(field: .duration, cell: .text("0"), message: "not a positive duration"),
        Case(field: .duration, cell: .text("long"), message: "is not a duration"),
        Case(field: .year, cell: .unsupported("a boolean"), message: "year: expected text or a number, found a boolean"),
        Case(field: .rating, cell: .list(["1"]), message: "rating: expected a single value, found an array"),
        Case(field: .certification, cell: .invalidUTF8, message: "certification: invalid UTF-8"),
        Case(field: .genres, cell: .text("drama|???"), message: "genres: '???' is not a genre name"),
    ]

    @Test("invalid values are reported as file:line: field: reason", arguments: cases)
    func invalid(_ c: Case) {
        var cells: [MovieField: Cell] = [.title: .text("Fine")]
        cells[c.field] = c.cell
        guard case .invalid(let problems) = decode(cells) else { Issue.record("accepted \(c)"); return }
        #expect(problems.contains { $0.description.contains(c.message) }, "\(problems)")
    }

    @Test("durations in every accepted form", arguments: [
        ("120", 120), ("2h", 120), ("1h 30m", 90), ("1h30m", 90), ("1:30:00", 90), ("1:30", 90), ("95 min", 95), ("95m", 95),
    ])
    func durations(_ text: String, _ minutes: Int) {
        #expect(ValueParsing.minutes(text) == minutes)
    }

    @Test("years from dates; IMDb ids from digits, any case and URLs", arguments: [
        (MovieField.year, "1994-09-23", FieldValue.integer(1994)), (.year, "1994-09", .integer(1994)),
        (.year, "1994-09-23T10:00:00Z", .integer(1994)), (.year, "2000-02-29", .integer(2000)), (.imdbID, "111161", .text("tt0111161")),
        (.imdbID, "0111161", .text("tt0111161")), (.imdbID, "TT0111161", .text("tt0111161")),
        (.imdbID, "tt10872600", .text("tt10872600")), (.imdbID, "http://imdb.com/title/tt0068646", .text("tt0068646")),
        (.votes, "12", .integer(12)), (.votes, "9223372036854775807", .integer(Int.max)),
        (.votes, "25k", .integer(25_000)), (.votes, "1.5M", .integer(1_500_000)),
        (.duration, "1000000000", .integer(1_000_000_000)), (.duration, "9223372036854775807", .integer(Int.max)),
        (.rating, "0.30000000000000004", .real(0.30000000000000004)),
        (.certification, "é", .text("é")), (.certification, "tv-ма", .text("TV-ма")),
    ])
    func valueForms(_ field: MovieField, _ text: String, _ value: FieldValue) {
        #expect(MovieRules.value(field, from: text) == .success(value))
    }

    @Test("values that are not years, IMDb ids or vote counts", arguments: [
        (MovieField.year, "1994-13-01"), (.year, "1994-09-32"), (.year, "1994-02-30"), (.year, "1900-02-29"), (.year, "1994-04-31"), (.year, "94-09-23"), (.year, "1994-09-23x"),
        (.imdbID, "tt"), (.imdbID, "nm0000123"), (.imdbID, "0"), (.imdbID, "tt12ab"), (.imdbID, "https://imdb.com/name/nm1/"),
        (.votes, "-3"), (.votes, "many"), (.votes, "1.2345k"), (.votes, "-2k"),
    ])
    func notValues(_ field: MovieField, _ text: String) {
        guard case .failure = MovieRules.value(field, from: text) else { Issue.record("accepted \(text)"); return }
    }

    @Test("a JSON number 1994.0 is a whole year; genres may be an array")
    func jsonShapes() {
        guard case .valid(let r) = decode([.title: .text("T"), .year: .number("1994.0"), .genres: .list(["Drama", "War"])]) else {
            Issue.record(); return
        }
        #expect(r.year == 1994 && r.genres == ["Drama", "War"])
    }
}

/// The value rules of known layouts (SPEC section 7).
@Suite struct LayoutRuleTests {
    @Test("MovieLens titles: the trailing year leaves, a trailing article, of any of the languages MovieLens writes, moves to the front", arguments: [
        ("Toy Story (1995)", "Toy Story", "1995"),
        ("American President, The (1995)", "The American President", "1995"),
        ("City of Lost Children, The (Cité des enfants perdus, La) (1995)", "The City of Lost Children (La Cité des enfants perdus)", "1995"),
        ("Man Who Knew Too Much, A (1934)", "A Man Who Knew Too Much", "1934"),
        ("Apartment, An (1960)", "An Apartment", "1960"),
        ("Seven (a.k.a. Se7en) (1995)", "Seven (a.k.a. Se7en)", "1995"),
        ("Haine, La (1995)", "La Haine", "1995"),
        ("Misérables, Les (1995)", "Les Misérables", "1995"),
        ("Boot, Das (Boat, The) (1981)", "Das Boot (The Boat)", "1981"),
        ("Avventura, L' (Adventure, The) (1960)", "L'Avventura (The Adventure)", "1960"),
        ("Pan's Labyrinth (Laberinto del fauno, El) (2006)", "Pan's Labyrinth (El Laberinto del fauno)", "2006"),
        ("Vitelloni, I (1953)", "I Vitelloni", "1953"),
        ("Seventh Seal, The (Sjunde inseglet, Det) (1957)", "The Seventh Seal (Det Sjunde inseglet)", "1957"),
        ("Hello, Dolly! (1969)", "Hello, Dolly!", "1969"),
        ("Sex, Lies, and Videotape (1989)", "Sex, Lies, and Videotape", "1989"),
        ("  Heat (1995)  ", "Heat", "1995"),
    ])
    func movieLensTitle(_ raw: String, _ title: String, _ year: String) {
        var cells = [Cell](repeating: .absent, count: MovieField.allCases.count)
        cells[MovieField.title.rawValue] = .text(raw)
        ImportLayout.ValueRule.yearInTitle.apply(to: &cells)
        #expect(cells[MovieField.title.rawValue] == .text(title))
        #expect(cells[MovieField.year.rawValue] == .text(year))
    }

    @Test("titles without a trailing year stay as they are", arguments: ["Black Mirror", "(1995)", "Babylon 5 (TV)", "Film (19x5)"])
    func noYear(_ raw: String) {
        var cells = [Cell](repeating: .absent, count: MovieField.allCases.count)
        cells[MovieField.title.rawValue] = .text(raw)
        ImportLayout.ValueRule.yearInTitle.apply(to: &cells)
        #expect(cells[MovieField.title.rawValue] == .text(raw))
        #expect(cells[MovieField.year.rawValue] == .absent)
    }

    @Test("a title without a year still has its article moved to the front", arguments: [
        ("Matrix, The", "The Matrix"), ("Man Who Knew Too Much, A", "A Man Who Knew Too Much"), (", The", ", The"),
        ("City of Lost Children, The (Cité des enfants perdus, La)", "The City of Lost Children (La Cité des enfants perdus)"),
    ])
    func articleWithoutYear(_ raw: String, _ title: String) {
        var cells = [Cell](repeating: .absent, count: MovieField.allCases.count)
        cells[MovieField.title.rawValue] = .text(raw)
        ImportLayout.ValueRule.yearInTitle.apply(to: &cells)
        #expect(cells[MovieField.title.rawValue] == .text(title))
        #expect(cells[MovieField.year.rawValue] == .absent)
    }

    @Test("layouts are recognised from their key columns, in any case")
    func recognise() {
        #expect(ImportLayout.recognise(["TCONST", "titletype", "primaryTitle", "x"])?.name == "imdb-basics")
        #expect(ImportLayout.recognise(["tconst", "averageRating", "numVotes"])?.name == "imdb-ratings")
        #expect(ImportLayout.recognise(["movieId", "title", "genres", "year"]) == nil, "a year column: not MovieLens")
        #expect(ImportLayout.recognise(["Date", "Name", "Year", "Letterboxd URI", "Rating"])?.name == "letterboxd")
        #expect(ImportLayout.recognise(["title", "year"]) == nil)
    }

    @Test("a genres cell holding a JSON or Python list is read as one; other cells split as before", arguments: [
        (#"[{"id": 28, "name": "Action"}, {"id": 12, "name": "Adventure"}]"#, ["Action", "Adventure"]),
        ("[{'id': 16, 'name': 'Animation'}, {'id': 10751, 'name': \"Children's\"}]", ["Animation", "Children's"]),
        ("['Action', 'Drama']", ["Action", "Drama"]),
        (#"[{"id": 35, "name": "Com\u00e9die"}, {"id": 1, "name": "\ud83c\udfac Films"}]"#, ["Comédie", "🎬 Films"]),
        ("[]", []),
        (" [ ] ", []),
        ("[Drama]", ["[Drama]"]),
        ("Action, Drama", ["Action", "Drama"]),
    ] as [(String, [String])])
    func genreLists(_ cell: String, _ names: [String]) {
        #expect(RowDecoder.splitGenres(cell) == names)
    }
}

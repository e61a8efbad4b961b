import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The filter set as SQL text and bindings, checked without a database.
@Suite struct SQLBuilderTests {
    @Test("the empty set matches everything")
    func empty() {
        #expect(SQLBuilder.condition(for: FilterSet()) == SQLFragment("1"))
    }

    @Test("same facet is OR-ed, different facets AND-ed, in canonical order")
    func orAndAnd() {
        let set = FilterSet([.rating(.bucket(5)), .genre("drama"), .duration(.hours(3)), .rating(.exact(7.5))])
        let sql = SQLBuilder.condition(for: set)
        #expect(sql.sql == "m.id IN (SELECT mg.movie_id FROM movie_genres mg WHERE mg.genre_id IN (SELECT g.id FROM genres g WHERE g.code IN (?))) AND ((m.rating >= ? AND m.rating < ?) OR m.rating = ?) AND (m.duration_minutes >= ? AND m.duration_minutes < ?)")
        #expect(sql.bindings == [.text("drama"), .real(5), .real(6), .real(7.5), .integer(180), .integer(240)])
    }

    @Test("several genres are one IN list; exclusions are one NOT IN")
    func genres() {
        let set = FilterSet([.genre("drama"), .genre("action"), .excludeGenre("war"), .excludeGenre("horror")])
        let sql = SQLBuilder.condition(for: set)
        #expect(sql.sql.contains("g.code IN (?, ?))) AND m.id NOT IN ("))
        #expect(sql.bindings == [.text("action"), .text("drama"), .text("horror"), .text("war")])
    }

    struct Case: Sendable, CustomStringConvertible {
        let element: MovieFilter
        let sql: String
        let bindings: [SQLValue]
        var description: String { element.description }
    }

    static let cases: [Case] = [
        Case(element: .rating(.bucket(10)), sql: "m.rating = ?", bindings: [.real(10)]),
        Case(element: .rating(.range(6, 8.5)), sql: "m.rating BETWEEN ? AND ?", bindings: [.real(6), .real(8.5)]),
        Case(element: .rating(.range(nil, 4)), sql: "m.rating <= ?", bindings: [.real(4)]),
        Case(element: .duration(.minutes(95)), sql: "m.duration_minutes = ?", bindings: [.integer(95)]),
        Case(element: .duration(.range(120, nil)), sql: "m.duration_minutes >= ?", bindings: [.integer(120)]),
        // The hour that holds Int.max minutes ends past Int64: it is open above.
        Case(element: .duration(.hours(153_722_867_280_912_930)), sql: "m.duration_minutes >= ?",
             bindings: [.integer(9_223_372_036_854_775_800)]),
        Case(element: .year(.decade(1990)), sql: "m.year BETWEEN ? AND ?", bindings: [.integer(1990), .integer(1999)]),
        Case(element: .year(.exact(1994)), sql: "m.year = ?", bindings: [.integer(1994)]),
        Case(element: .certification("PG-13"), sql: "m.certification IN (?)", bindings: [.text("PG-13")]),
        // LIKE, but for titles with a letter whose lower case is ASCII (KELVIN SIGN, U+0130), read folded.
        Case(element: .title("100%_x\\"),
             sql: "(m.title LIKE ? ESCAPE '\\' OR ((instr(m.title, char(8490)) OR instr(m.title, char(304))) AND replace(replace(m.title, char(8490), 'k'), char(304), 'i' || char(775)) LIKE ? ESCAPE '\\'))",
             bindings: [.text("%100\\%\\_x\\\\%"), .text("%100\\%\\_x\\\\%")]),
        Case(element: .title("AMÉLIE"), sql: "moviecat_contains_any(m.title, ?)", bindings: [.text("amélie")]),
        Case(element: .title("ΣΊΣΥΦΟΣ"), sql: "moviecat_contains_any(m.title, ?)", bindings: [.text("σίσυφοσ")]),
        Case(element: .title("σίσυφος"), sql: "moviecat_contains_any(m.title, ?)", bindings: [.text("σίσυφοσ")]),
    ]

    @Test("each element's SQL and bindings", arguments: cases)
    func element(_ c: Case) {
        let sql = SQLBuilder.condition(for: FilterSet([c.element]))
        #expect(sql.sql == c.sql)
        #expect(sql.bindings == c.bindings)
    }

    @Test("placeholders and bindings always agree in number")
    func placeholderCount() {
        let set = FilterSet([.genre("a"), .genre("b"), .title("x"), .year(.range(1, 2)), .certification("R")])
        let query = MovieQuery(filters: set, sort: .rating, descending: true, limit: 5, offset: 10)
        for sql in [query.selectSQL, query.countSQL] {
            #expect(sql.sql.filter { $0 == "?" }.count == sql.bindings.count)
        }
    }

    @Test("hostile values never appear in the SQL text")
    func hostileValuesAreBound() throws {
        let pieces = ["'", "\"", ";", "--", "/*", "*/", ")", "(", "OR 1=1", "DROP TABLE movies", "\\", "%", "_",
                      "\u{0}", "\n", "é", "🎬", "?", "x' OR 'a'='a", "SELECT", "`", "]", "["]
        var rng = SeededRandom(seed: 42)
        let genres = GenreCatalogue((0..<5).map { Genre(id: Int64($0), code: "g\($0)'--", name: "G\($0)") })
        for _ in 0..<500 {
            var hostile = "zq"
            for _ in 0..<Int.random(in: 1...6, using: &rng) { hostile += pieces.randomElement(using: &rng)! }
            hostile += "qz"
            let set = FilterSet([.title(hostile), .certification(hostile.uppercased()), .genre(genres.codes.randomElement(using: &rng)!),
                                 .excludeGenre(hostile)])
            let query = MovieQuery(filters: set, sort: SortKey.allCases.randomElement(using: &rng)!, limit: 3)
            for sql in [query.selectSQL, query.countSQL] {
                #expect(!sql.sql.contains("zq") && !sql.sql.contains("qz"), "\(hostile)")
                #expect(!sql.sql.contains("'--"))
                #expect(sql.sql.filter { $0 == "?" }.count == sql.bindings.count)
            }
        }
    }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// One set of value rules: `MovieRules` accepts exactly what the migrations' CHECKs accept.
@Suite struct MovieRulesTests {
    /// Whether a fresh catalog's schema takes the insert (false: a constraint refused it).
    static func schemaAccepts(_ sql: String, bind: (Statement) throws -> Void) throws -> Bool {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let statement = try catalog.db.prepare(sql)
            try bind(statement)
            try statement.step()
            return true
        } catch let error as DatabaseError {
            #expect(error.code == .constraint, "only a constraint may refuse it: \(error)")
            return false
        }
    }

    /// Values at and around each CHECK of the `movies` table.
    static let checkCases: [ImportRow] = {
        let base = ImportRow(line: 1, movie: Movie(title: "Heat"), present: .all)
        var rows: [ImportRow] = []
        for title in ["Heat", "", " Heat", "Heat ", "\tHeat", "Heat\t", "\u{A0}Heat", "Heat\u{3000}", " ", "x", "é"] {
            var row = base; row.title = title; rows.append(row)
        }
        for year in [1869, 1870, 2100, 2101, 0, -5] { var row = base; row.year = year; rows.append(row) }
        for rating in [-0.0001, 0, 0.0, 7.5, 10, 10.0001, -1, 11] { var row = base; row.rating = rating; rows.append(row) }
        for minutes in [-1, 0, 1, 999_999_999] { var row = base; row.durationMinutes = minutes; rows.append(row) }
        for certification in ["PG-13", "pg", "Pg", "R", "ü", "Ü", "NC-17 ", "", "ß"] {
            var row = base; row.certification = certification; rows.append(row)
        }
        return rows
    }()

    @Test("MovieRules accepts exactly what the schema's CHECK constraints accept", arguments: checkCases)
    func checksMirrorSchema(_ row: ImportRow) throws {
        let accepted = try Self.schemaAccepts(MovieColumns.insertHead + MovieColumns.insertValues) { statement in
            try MovieColumns.bindInsert(row.movie, id: nil, now: 0, to: statement, at: 0)
        }
        #expect((MovieRules.violation(in: row.movie) == nil) == accepted, "\(row)")
    }

    @Test("MovieRules.genreViolation accepts exactly what the genres table's CHECKs accept", arguments: [
        ("film-noir", "Film Noir"), ("", "X"), ("Film-noir", "Film noir"), ("film-noir", ""), ("drame-é", "Drame É"),
        ("ÉCLAIR", "Éclair"), ("x1", "X1"),
    ])
    func genreChecksMirrorSchema(_ code: String, _ name: String) throws {
        let accepted = try Self.schemaAccepts("INSERT INTO genres (code, name) VALUES (?, ?)") { try $0.bind([.text(code), .text(name)]) }
        #expect((MovieRules.genreViolation(code: code, name: name) == nil) == accepted, "\(code) \(name)")
    }
}

/// A wiki's no-break spaces between a number and its unit, or a date's parts, are spaces.
@Suite struct NoBreakSpaceTests {
    @Test("a no-break space (a wiki's &nbsp;, U+2007, U+202F) reads as a space in numbers, durations and dates; text keeps it", arguments: [
        (MovieField.duration, "170\u{A0}minutes", FieldValue.integer(170)),
        (.duration, "1h\u{202F}30m", .integer(90)),
        (.year, "December\u{A0}15, 1995", .integer(1995)),
        (.year, "15\u{A0}December\u{A0}1995", .integer(1995)),
        (.votes, "1\u{2007}700\u{2007}000", .integer(1_700_000)),
        (.rating, "8.3\u{A0}/\u{A0}10", .real(8.3)),
        (.title, "Heat\u{A0}2", .text("Heat\u{A0}2")),
        (.certification, "pg\u{A0}13", .text("PG\u{A0}13")),
    ])
    func readAsSpace(_ field: MovieField, _ raw: String, _ expected: FieldValue) {
        #expect(MovieRules.value(field, from: raw) == .success(expected))
    }

    @Test("a refused value is quoted as given")
    func quotedAsGiven() {
        #expect(MovieRules.value(.duration, from: "170\u{A0}pages") == .failure(MovieRules.Violation(reason: "'170\u{A0}pages' is not a duration (use 120, 2h, 1h 30m or 1:30:00)")))
    }
}

/// Values quoted in messages are cut: one 10 MB cell once made a 10 MB error line.
@Suite struct MessageQuotingTests {
    @Test("short values are quoted whole, long ones cut after 60 characters with their length", arguments: [
        ("1994", "'1994'"),
        (String(repeating: "é", count: 60), "'" + String(repeating: "é", count: 60) + "'"),
        (String(repeating: "9", count: 100_000), "'" + String(repeating: "9", count: 60) + "…' (100000 characters)"),
    ])
    func quoted(_ value: String, _ expected: String) {
        #expect(value.quotedForMessage == expected)
    }

    @Test("an import's problem and a filter's usage error quote a long value cut")
    func inMessages() throws {
        let long = String(repeating: "9", count: 100_000)
        guard case .failure(let violation) = MovieRules.value(.year, from: long) else {
            Issue.record("a 100,000-digit year was accepted")
            return
        }
        #expect(violation.reason.utf8.count < 120, "\(violation.reason.prefix(200))")
        let error = try #require(throws: CatalogError.self) {
            try FilterParser.standalone.parseToken("year:" + long)
        }
        #expect(error.message.utf8.count < 300, "\(error.message.prefix(300))")
    }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// A bulk load drops the indexes its rows would enter at random and builds them again at the end;
/// an index of the non-NULL values of a column its rows lack gets no entry from them, and stays.
@Suite struct BulkIndexTests {
    /// The phases of `report` that built an index, by the index's name.
    static func rebuilt(_ report: ImportReport) -> Set<String> {
        Set(report.timings.compactMap { $0.name.hasPrefix("index ") ? String($0.name.dropFirst(6)) : nil })
    }

    struct Case: Sendable, CustomStringConvertible {
        let header: String
        let row: @Sendable (Int) -> String
        let rebuilt: Set<String>
        var description: String { header }
    }

    static let cases = [
        Case(header: "title,year,genres,rating", row: { "Film \($0),\(1950 + $0 % 70),drama|war,\(Double($0 % 100) / 10)" },
             rebuilt: ["movies_natural_key", "movie_genres_genre", "movie_facets_rating", "movie_facets_year"]),
        Case(header: "imdb_id,title,votes,duration", row: { "tt\(1_000_000 + $0),Film \($0),\($0 * 7),\(60 + $0 % 90)" },
             rebuilt: ["movies_natural_key", "movies_imdb_id", "movie_genres_genre", "movie_facets_votes", "movie_facets_minutes"]),
    ]

    @Test("a bulk load into an empty catalog builds again the indexes its rows enter, and no other", arguments: cases)
    func untouchedIndexesStay(_ c: Case) throws {
        let input = ([c.header] + (1...300).map(c.row)).joined(separator: "\n") + "\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": input])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "a.csv")
        #expect(report.total.inserted == 300)
        #expect(Self.rebuilt(report) == c.rebuilt)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        let fresh = try Catalog(path: dir.appendingPathComponent("fresh.sqlite").path)
        let schema = "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name"
        #expect(try db.query(schema) { try $0.text(0) } == fresh.db.query(schema) { try $0.text(0) })
    }

    @Test("an index kept through a load into a stored catalog follows the merge's writes to the facet rows")
    func keptIndexFollowsMerge() throws {
        let stored = "title,year,votes,rating\n" + (1...64).map { "Film \($0),2000,\($0 * 10),5" }.joined(separator: "\n") + "\n"
        // Repeats of stored movies with other ratings (their facet rows are written again, votes
        // kept), and new rows enough for the indexes to be dropped (more than a 32nd of 64).
        let input = "title,year,rating\n" + (1...80).map { "Film \($0),2000,\($0 % 2 == 0 ? "7" : "5")" }.joined(separator: "\n") + "\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": stored, "b.csv": input])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        _ = try TitleIndexBuilderTests.importAlways(catalog, dir, "a.csv")
        // A sqlite3 user's own indexes: one of votes' non-NULL values (kept), one of all of them
        // (built again), and one of a column of their own on movie_genres that the rows lack just
        // as much, but which is none of the load's columns (built again).
        try db.execute("""
            CREATE INDEX my_votes ON movie_facets (votes); CREATE INDEX my_rated_votes ON movies (votes) WHERE votes IS NOT NULL;
            ALTER TABLE movie_genres ADD COLUMN votes INTEGER; CREATE INDEX my_link_votes ON movie_genres (votes) WHERE votes IS NOT NULL
            """)
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "b.csv")
        #expect(report.total.inserted == 16 && report.total.updated == 64)
        let rebuilt = Self.rebuilt(report)
        #expect(rebuilt.contains("movie_facets_rating") && rebuilt.contains("my_votes") && rebuilt.contains("my_link_votes"), "\(rebuilt)")
        #expect(!rebuilt.contains("movie_facets_votes") && !rebuilt.contains("my_rated_votes") && !rebuilt.contains("movies_imdb_id"), "\(rebuilt)")
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        let byIndex = try db.query("SELECT id, votes FROM movie_facets INDEXED BY movie_facets_votes WHERE votes > 0 ORDER BY votes") { try $0.int64(0) }
        #expect(byIndex == Array(1...64))
        #expect(try db.intScalar("SELECT count(*) FROM movie_facets WHERE rating = 7") == 40)
        #expect(try MovieFacetsTable.mismatches(db) == 0)
    }

    @Test("an index is told to leave out a column's NULLs only when made as ON t (c) WHERE c IS NOT NULL", arguments: [
        ("CREATE INDEX i ON movies (votes) WHERE votes IS NOT NULL", "votes"),
        ("CREATE INDEX i ON movies (votes)\n   where   VOTES is not   null", "votes"),
        ("CREATE INDEX i ON movies (votes)", nil),
        ("CREATE INDEX i ON movies (votes) WHERE rating IS NOT NULL", nil),
        ("CREATE INDEX i ON movies (votes, rating) WHERE votes IS NOT NULL", nil),
        ("CREATE INDEX i ON movies (votes) WHERE votes IS NOT NULL AND rating IS NOT NULL", nil),
        ("CREATE INDEX i ON movies (votes + 1) WHERE votes IS NOT NULL", nil),
        ("CREATE INDEX i ON movies (votes) WHERE rating > 5 -- where votes is not null\n", nil),
        ("CREATE INDEX i ON movies (votes) WHERE rating > 5 /* or where votes is not null */", nil),
    ] as [(String, String?)])
    func nullSkippingColumn(sql: String, column: String?) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute(sql)
        let stored = try catalog.db.query("SELECT name, sql FROM sqlite_master WHERE name = 'i'") { (name: try $0.text(0), sql: try $0.text(1)) }
        #expect(try catalog.db.nullSkippingColumn(ofIndex: stored[0]) == column)
    }
}

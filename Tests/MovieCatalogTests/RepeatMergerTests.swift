import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// A bulk load into a stored catalog sets aside every row that repeats a stored movie and merges
/// them (`RepeatMerger`): what a re-imported list leaves as it was must not be written again.
@Suite struct RepeatMergerTests {
    /// Movie `i` of the list: a title, a year, genres and a rating.
    static func row(_ i: Int, title: String? = nil, genres: String? = nil, rating: String? = nil) -> String {
        let genres = genres ?? ["drama", "comedy|war", "", "Film Noir|drama"][i % 4]
        return "\(title ?? "Film number \(i)"),\(1950 + i % 70),\(genres),\(rating ?? String(Double(i % 100) / 10))"
    }

    static func csv(_ rows: [String]) -> String { "title,year,genres,rating\n" + rows.joined(separator: "\n") + "\n" }

    /// Logs every facet row written (movie_facets' triggers stay while a bulk load merges).
    static func logFacetWrites(_ db: Database) throws {
        try db.execute("""
            CREATE TABLE facet_writes (id INTEGER);
            CREATE TRIGGER log_facet_insert AFTER INSERT ON movie_facets BEGIN INSERT INTO facet_writes VALUES (NEW.id); END;
            CREATE TRIGGER log_facet_update AFTER UPDATE ON movie_facets BEGIN INSERT INTO facet_writes VALUES (NEW.id); END;
            """)
    }

    @Test("a re-imported list rewrites the facet rows and genre links of only the movies it changes, and leaves the title index alone")
    func reimportWritesOnlyChanges() throws {
        let stored = (1...200).map { Self.row($0) }
        var again = stored
        // Other ratings (rows 10, 11), other genres (20, 21: one of them only reordered and in other
        // case, which changes nothing), titles in other case (30..39), all in another order.
        again[9] = Self.row(10, rating: "9.9")
        again[10] = Self.row(11, rating: "")
        again[19] = Self.row(20, genres: "western")
        again[20] = Self.row(21, genres: "War|Comedy")
        for i in 29..<39 { again[i] = Self.row(i + 1, title: "FILM NUMBER \(i + 1)") }
        var rng = SeededRandom(seed: 5)
        again.shuffle(using: &rng)
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": Self.csv(stored), "b.csv": Self.csv(again)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        _ = try TitleIndexBuilderTests.importAlways(catalog, dir, "a.csv")
        let blocks = "SELECT id, hex(block) FROM movie_titles_data ORDER BY id"
        let indexBefore = try db.query(blocks) { try $0.text(1) }
        try db.execute("UPDATE movies SET updated_at = 0")
        try Self.logFacetWrites(db)

        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "b.csv")
        #expect(report.total.updated == 200 && report.total.inserted == 0)
        #expect(try db.query("SELECT DISTINCT id FROM facet_writes ORDER BY id") { try $0.int64(0) } == [10, 11, 20])
        #expect(try db.query(blocks) { try $0.text(1) } == indexBefore, "no title was taken out and put back")
        #expect(try db.intScalar("SELECT count(*) FROM movies WHERE updated_at = 0") == 0, "every movie was updated")
        #expect(try db.scalar("SELECT rating FROM movies WHERE id = 11") == nil)
        #expect(try db.query("SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE movie_id = 20") { try $0.text(0) } == ["western"])
        #expect(try db.scalar("SELECT title FROM movies WHERE id = 30") == .text("FILM NUMBER 30"))
        #expect(try TitleIndexBuilderTests.found(db, "film number 30") == [30])
        #expect(try MovieFacetsTable.mismatches(db) == 0)
        #expect(MovieTitlesTable.isSound(db))
    }

    @Test("under the IMDb-id key, a re-import that retitles stored movies finds them by their new titles only")
    func reimportRetitlesStored() throws {
        let header = "imdb_id,title,year\n"
        let stored = header + "tt0000001,Heart,2000\ntt0000002,\u{0130}stanbul,2001\ntt0000003,Other,2002\n"
        let again = header + "tt0000001,Zanzibar \u{0130}zmir,2000\ntt0000002,Plain Istanbul,2001\ntt0000003,OTHER,2002\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": stored, "b.csv": again])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        _ = try TitleIndexBuilderTests.importAlways(catalog, dir, "a.csv")
        #expect(try db.query("SELECT id FROM movie_title_exceptions") { try $0.int64(0) } == [2])
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "b.csv")
        #expect(report.total.updated == 3)
        #expect(try TitleIndexBuilderTests.found(db, "zanzibar") == [1])
        #expect(try TitleIndexBuilderTests.found(db, "heart").isEmpty)
        #expect(try TitleIndexBuilderTests.found(db, "plain") == [2])
        #expect(try TitleIndexBuilderTests.found(db, "other") == [3])
        #expect(try db.query("SELECT id FROM movie_title_exceptions") { try $0.int64(0) } == [1])
        #expect(MovieTitlesTable.isSound(db))
    }
}

import Foundation
import Testing
import TestSupport

/// A catalog whose schema a sqlite3 user changed: derived tables dropped are rebuilt, a
/// user_version wound back is migrated again safely or refused with exit 73, never exit 70 and
/// never with data lost.
@Suite struct SchemaMismatchTests {
    /// The demo catalog with votes, IMDb ids and a KELVIN SIGN title (data a wrong migration would lose).
    static func catalog() throws -> Sandbox {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("""
            UPDATE movies SET votes = id * 1000, imdb_id = printf('tt%07d', id);
            INSERT INTO movies (title, year, rating) VALUES ('The ' || char(8490) || 'ing', 1999, 7);
            """)
        return box
    }

    /// Every schema object as sqlite3 lists it, in name order (a rebuild may change their order).
    static func schema(_ box: Sandbox, db: String? = nil) throws -> [String] {
        try box.sql("SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY name", db: db)
    }

    /// The schema, data and answers are those of a catalog that was never broken.
    static func expectWhole(_ box: Sandbox, _ note: String) throws {
        let fresh = box.path("fresh.sqlite")
        try #require(try runProcess(moviecatBinary, ["--db", fresh, "init"]).status == 0)
        #expect(try schema(box) == schema(box, db: fresh), "\(note): the schema")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion], "\(note)")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE votes = id * 1000 AND imdb_id = printf('tt%07d', id)") == ["13"], "\(note): data kept")
        #expect(try box.sql(DerivedRepairTests.facetMismatches) == ["0"], "\(note): movie_facets")
        #expect(try box.sql("SELECT count(*) FROM movie_stale") == ["0"], "\(note): the log")
        for trigram in ["aqu", "man", "ing"] {
            #expect(try DerivedRepairTests.indexed(box, trigram) == box.sql("SELECT id FROM movies WHERE title LIKE '%\(trigram)%' ORDER BY id"),
                    "\(note): movie_titles for '\(trigram)'")
        }
        for (text, count) in [("king", "1\n"), ("aquaman", "1\n"), ("man", "3\n")] {
            let run = try box.moviecat("filter", "--title", text, "--count")
            #expect(run.status == 0 && run.stdout == count, "\(note): --title \(text): \(run)")
        }
        let facets = try box.moviecat("facets")
        #expect(facets.status == 0, "\(note): \(facets)")
    }

    @Test("a derived table, index or trigger a sqlite3 user dropped is rebuilt from movies", arguments: [
        "DROP TABLE movie_facets;", "DROP TABLE movie_titles;", "DROP TABLE movie_title_exceptions;",
        "DROP INDEX movie_facets_rating;", "DROP TABLE movie_stale;", "DROP TABLE movie_titles_idx;",
        // A trigger gone, and a write it would have followed.
        "DROP TRIGGER movie_facets_link; INSERT INTO movie_genres (movie_id, genre_id) VALUES (1, 1);",
        """
        DROP TRIGGER movie_titles_insert; DELETE FROM movies WHERE id = 2;
        INSERT INTO movies (id, title, year, rating, duration_minutes, votes, imdb_id) VALUES (2, 'Aquaman', 2018, 4, 180, 2000, 'tt0000002');
        """,
        "DROP TRIGGER movie_stale_on_facet_delete; DELETE FROM movie_facets WHERE id = 3;",
        "DROP TRIGGER movie_stale_on_exception_delete; DELETE FROM movie_title_exceptions;",
    ])
    func dropped(_ statement: String) throws {
        let box = try Self.catalog()
        try box.sqlite3(statement + "\n")
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 0 && run.stdout == "14\n", "\(run)")
        try Self.expectWhole(box, statement)
    }

    @Test("without the trigger that logs REPLACE (dropped), a REPLACE's facet row is still not counted: movie_facets is rebuilt")
    func replaceUnlogged() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("""
            DROP TRIGGER movie_stale_on_insert;
            INSERT OR REPLACE INTO movies (id, title, year, rating) VALUES (500, 'Aquaman', 2018, 9.5);
            """)
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 0 && run.stdout == "13\n", "\(run)")
        #expect(try box.sql(DerivedRepairTests.facetMismatches) == ["0"])
        #expect(try box.sql("SELECT count(*) FROM sqlite_master WHERE name = 'movie_stale_on_insert'") == ["1"])
    }

    @Test("a user_version wound back to 3 or later: the migrations from there run again and rebuild what they make",
          arguments: [3, 4, 5])
    func woundBack(_ version: Int) throws {
        let box = try Self.catalog()
        try box.sqlite3("PRAGMA user_version = \(version);\n")
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 0 && run.stdout == "14\n", "\(run)")
        try Self.expectWhole(box, "version \(version)")
    }

    @Test("a user_version that would migrate the tables again with loss, or is no version, is refused with exit 73 and changes nothing",
          arguments: [(2, "schema version 2 does not match its tables: movies already has version 3's votes and imdb_id"),
                      (1, "schema version 1 does not match its tables"),
                      (-1, "has schema version -1, which is no moviecat's")])
    func refused(_ version: Int, _ message: String) throws {
        let box = try Self.catalog()
        try box.sqlite3("PRAGMA user_version = \(version);\n")
        let before = try box.dump()
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 73, "\(run)")
        #expect(run.errorLines.count == 1 && run.stderr.hasPrefix("moviecat: error: ") && run.stderr.contains(message), "\(run)")
        #expect(try box.dump() == before, "the catalog changed")
    }

    @Test("a user_version set past the tables (a version 2 catalog said to be 3): the migration that fails is rolled back, exit 73 naming it")
    func woundForward() throws {
        let box = try Sandbox()
        for file in ["0001_initial.sql", "0002_drop_facets_index.sql"] {
            try box.sqlite3(try String(contentsOf: packageRoot.appendingPathComponent("Migrations/\(file)"), encoding: .utf8))
        }
        try box.sqlite3("INSERT INTO movies (title, year) VALUES ('Heat', 1995);\nPRAGMA user_version = 3;\n")
        let before = try box.dump()
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 73, "\(run)")
        // The upgrade is announced, then fails.
        #expect(run.errorLines.count == 2 && run.errorLines[0].hasPrefix("moviecat: upgrading the catalog from schema version 3 to ")
                && run.errorLines[1].contains("the tables do not match schema version 3: 0004_movie_facets.sql failed"), "\(run)")
        #expect(try box.dump() == before, "the catalog changed")
    }

    @Test("derived tables that cannot be rebuilt (movies gone, an FTS5 table's own table dropped) are refused with exit 73 naming them",
          arguments: [("DROP TABLE movie_titles_config;", "movie_titles_config is missing")])
    func cannotRebuild(_ statement: String, _ message: String) throws {
        let box = try Self.catalog()
        try box.sqlite3(statement + "\n")
        let before = try box.dump()
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 73, "\(run)")
        // The rebuild is announced, then fails.
        #expect(run.errorLines.count == 2 && run.errorLines[0] == "moviecat: rebuilding the derived tables: \(message) (a large catalog takes a while)"
                && run.errorLines[1].contains("cannot rebuild the derived tables (\(message)"), "\(run)")
        #expect(try box.dump() == before, "the catalog changed")
    }

    @Test("a derived table missing at an older version (4 to 6): migrating makes it again, no migration fails on it",
          arguments: [("movie_facets", 4), ("movie_facets", 6), ("movie_title_exceptions", 6), ("movie_titles", 6), ("movie_facets_rating", 5)])
    func missingBelowLatest(_ table: String, _ version: Int) throws {
        let box = try Self.catalog()
        let kind = table == "movie_facets_rating" ? "INDEX" : "TABLE"
        try box.sqlite3("DROP \(kind) \(table);\nPRAGMA user_version = \(version);\n")
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 0 && run.stdout == "14\n", "\(run)")
        try Self.expectWhole(box, "\(table) at version \(version)")
    }

    @Test("a table of SPEC section 2 dropped by hand is refused with exit 73 naming it, never exit 70", arguments: [
        ("DROP TABLE genres;", "genres"), ("DROP TABLE presets;", "presets"), ("DROP TABLE movies;", "movies"),
        ("DROP VIEW movie_list;", "movie_list"),
    ])
    func specTableDropped(_ statement: String, _ name: String) throws {
        let box = try Self.catalog()
        try box.sqlite3("PRAGMA foreign_keys = OFF;\n" + statement + "\n")
        let before = try box.dump()
        for arguments in [["filter", "--count"], ["presets"], ["info"]] {
            let run = try box.moviecat(arguments)
            #expect(run.status == 73, "\(arguments): \(run)")
            #expect(run.errorLines.count == 1 && run.stderr.contains("its table '\(name)' is missing"), "\(run)")
        }
        #expect(try box.dump() == before, "the catalog changed")
    }
}


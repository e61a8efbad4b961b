import Foundation
import Testing
import TestSupport

/// A catalog whose user_version a sqlite3 user changed: wound back, it is migrated again safely
/// or refused with exit 73, never exit 70 and never with data lost.
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
        #expect(try box.sql("SELECT count(*) FROM movie_facets") == ["14"], "\(note): movie_facets")
        for (text, count) in [("king", "1\n"), ("aquaman", "1\n"), ("man", "3\n")] {
            let run = try box.moviecat("filter", "--title", text, "--count")
            #expect(run.status == 0 && run.stdout == count, "\(note): --title \(text): \(run)")
        }
        let facets = try box.moviecat("facets")
        #expect(facets.status == 0, "\(note): \(facets)")
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
        #expect(run.errorLines.count == 1 && run.stderr.contains("the tables do not match schema version 3: 0004_movie_facets.sql failed"), "\(run)")
        #expect(try box.dump() == before, "the catalog changed")
    }
}

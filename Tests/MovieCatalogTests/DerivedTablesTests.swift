import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The check of the derived tables at open (DerivedTables): what it knows of the schema, what it
/// rebuilds, and that moviecat's own writes never make it work.
@Suite struct DerivedTablesTests {
    /// The names of a database's schema objects.
    static func names(_ db: Database) throws -> Set<String> {
        Set(try db.query("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") { try $0.text(0) })
    }

    /// Every schema object with its SQL.
    static func schema(_ db: Database) throws -> [String] {
        try db.query("SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY name") { try $0.text(0) }
    }

    /// A catalog of movies with genres, votes and the two letters the exceptions list is for.
    static func catalog() throws -> (Catalog, URL) {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        var rng = SeededRandom(seed: 7)
        for _ in 0..<40 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        for title in ["\u{212A}ing of Hearts", "\u{130}stanbul", "Kelvin"] { try catalog.add(Movie(title: title, genres: ["drama"])) }
        return (catalog, dir)
    }

    /// The derived tables equal what movies says, and title searches find what the reference finds.
    static func expectExact(_ catalog: Catalog, _ note: String) throws {
        let db = catalog.db
        #expect(try MovieFacetsTable.mismatches(db) == 0, "\(note): movie_facets")
        #expect(try db.intScalar("SELECT count(*) FROM movie_stale") == 0, "\(note): the log")
        #expect(try db.query("SELECT id FROM movie_title_exceptions ORDER BY id") { try $0.int64(0) }
                == db.query("SELECT id FROM movies WHERE \(MovieTitlesTable.hasException("title")) ORDER BY id") { try $0.int64(0) },
                "\(note): movie_title_exceptions")
        let stored = try db.query("SELECT id, title FROM movies ORDER BY id") { (try $0.int64(0), try $0.text(1)) }
        for text in ["king", "ovie 1", "istanbul", "kel", "ovi"] {
            let query = MovieQuery(filters: FilterSet([.title(text)]))
            let viaIndex = try QueryPlannerTests.planner(catalog, query.filters).select(query, columns: "m.id", forcing: .facet(.title)).sql
            #expect(try db.query(viaIndex.sql, viaIndex.bindings) { try $0.int64(0) }.sorted()
                    == stored.filter { TitleSearchTests.matches($0.1, text) }.map(\.0), "\(note): '\(text)'")
        }
    }

    @Test("the objects it checks are exactly those migrations 4 on make")
    func objectsOfTheMigrations() throws {
        let db = try Database(path: ":memory:")
        for migration in CatalogSchema.migrations.prefix(3) { try db.execute(migration.sql) }
        let base = try Self.names(db)
        for migration in CatalogSchema.migrations.dropFirst(3) { try db.execute(migration.sql) }
        #expect(try Self.names(db).subtracting(base) == Set(DerivedTables.objects.map(\.name)))
    }

    /// Every derived object but the two FTS5 tables that cannot be dropped alone (tested end to end).
    static let droppable = DerivedTables.objects.map(\.name).filter { !["movie_titles_config", "movie_titles_data"].contains($0) }

    @Test("each derived object dropped is rebuilt when the catalog next opens, as in a catalog never broken", arguments: droppable)
    func dropped(_ name: String) throws {
        let (catalog, dir) = try Self.catalog()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fresh = try Catalog(path: dir.appendingPathComponent("fresh.sqlite").path)
        let type = try #require(try catalog.db.query("SELECT upper(type) FROM sqlite_master WHERE name = ?", [.text(name)]) { try $0.text(0) }.first)
        try catalog.db.execute("DROP \(type) \(name)")
        // Writes that the dropped object may have had to follow (when they still can run).
        try? catalog.db.execute("UPDATE movies SET title = 'Kelvin \u{212A}' WHERE title = 'Kelvin'")
        try? catalog.db.execute("INSERT INTO movie_genres (movie_id, genre_id) SELECT id, 5 FROM movies WHERE id % 3 = 0")
        try? catalog.db.execute("DELETE FROM movie_facets WHERE id = 4")
        try catalog.close()
        let reopened = try Catalog(path: catalog.path)
        #expect(try Self.schema(reopened.db) == Self.schema(fresh.db), "\(name)")
        try Self.expectExact(reopened, name)
    }

    @Test("moviecat's own writes log nothing, so the next open writes nothing either")
    func ownWritesLogNothing() throws {
        let (catalog, dir) = try Self.catalog()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        func expectNothingLogged(_ what: String) throws {
            #expect(try db.intScalar("SELECT count(*) FROM movie_stale") == 0, "\(what)")
        }
        try catalog.add(Movie(title: "\u{212A}ing Lear", year: 1987))
        try expectNothingLogged("add")
        let kelvin = Int64(try db.intScalar("SELECT id FROM movies WHERE title = ?", [.text("\u{212A}ing of Hearts")]))
        for title in ["\u{212A}ING OF HEARTS", "\u{212A}ings of Hearts", "Kings of Hearts", "\u{130}stanbul Kings"] {
            var changes = MovieChanges()
            changes.values[.title] = .text(title)
            changes.values[.year] = .integer(1990)
            try catalog.edit(ids: [kelvin], changes)
            try expectNothingLogged("edit to \(title)")
        }
        try catalog.remove(ids: [1])
        try expectNothingLogged("remove")
        // Imports onto the stored movies (their titles' case changes): row by row, in bulk with
        // every row merged (no stored movie has an IMDb id yet), and one that only updates ratings.
        let stored = try db.query("SELECT title, ifnull(year, '') FROM movies") { "\(CSV.row([try $0.text(0).uppercased(), try $0.text(1)])),5.5" }
        let rows = "title,year,rating\n" + stored.joined(separator: "\n") + "\n\u{130}stanbul Nights,2001,7\n"
        for bulk in [BulkLoad.never, .alwaysMergingEveryRow] {
            let file = dir.appendingPathComponent("again.csv")
            try Data(rows.utf8).write(to: file)
            var options = ImportOptions()
            options.bulkLoad = bulk
            let report = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [file.path])
            #expect((report.appendedRows > 0) == (bulk != .never), "the path taken")
            try expectNothingLogged("import \(bulk)")
        }
        try catalog.add(Movie(title: "Heat", year: 1995, imdbID: "tt0093342"))
        let ratings = dir.appendingPathComponent("title.ratings.tsv")
        try Data("tconst\taverageRating\tnumVotes\ntt0093342\t5.9\t1200\n".utf8).write(to: ratings)
        _ = try Importer(catalog: catalog, options: ImportOptions(), progressOutput: nil).run(paths: [ratings.path])
        try expectNothingLogged("ratings")
        try Self.expectExact(catalog, "after moviecat's writes")
        // A clean catalog's check only reads: another connection sees no commit.
        let other = try Database(path: catalog.path)
        let before = try other.intScalar("PRAGMA data_version")
        try Catalog(path: catalog.path).close()
        #expect(try other.intScalar("PRAGMA data_version") == before)
    }
}

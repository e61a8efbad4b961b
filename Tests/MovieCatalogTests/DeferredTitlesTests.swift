import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// Movies inserted row by row, many at a time, are indexed at the input's end with the title
/// index's insert trigger off meanwhile (`DeferredTitles`): the index must end exactly as the
/// trigger would have left it, whatever the rows do.
@Suite struct DeferredTitlesTests {
    /// Imports `files` in order, row by row (or the later ones bulk-loaded), under `policy`.
    static func importRows(_ catalog: Catalog, _ dir: URL, _ files: [(name: String, bulk: Bool)], policy: DuplicatePolicy = .update) throws {
        for file in files {
            var options = ImportOptions()
            options.bulkLoad = file.bulk ? .always : .never
            options.onDuplicate = policy
            _ = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent(file.name).path])
        }
    }

    /// The title index is sound, holds every movie once, and finds what LIKE finds (`texts` are ASCII).
    static func expectIndexExact(_ catalog: Catalog, _ texts: [String], _ comment: Comment) throws {
        #expect(MovieTitlesTable.isSound(catalog.db), comment)
        #expect(try MovieTitlesTable.indexedRows(catalog.db) == Int64(catalog.db.intScalar("SELECT count(*) FROM movies")), comment)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM pragma_table_info('movies')") > 0)
        for text in texts {
            let like = try catalog.db.intScalar("SELECT count(*) FROM movies WHERE title LIKE ?", [.text("%\(text)%")])
            #expect(try catalog.count(FilterSet([.title(text)])) == like, "\(text): \(comment)")
        }
        #expect(try catalog.db.intScalar("SELECT count(*) FROM sqlite_schema WHERE name = ?", [.text(MovieTitlesTable.insertTrigger)]) == 1, comment)
    }

    @Test("hundreds of new movies row by row, repeats retitling some, then a bulk-loaded file: the index as the trigger keeps it")
    func manyRowByRow() throws {
        var first = ["title,year,imdb_id"], second = ["title,year"], third = ["title,year"]
        for i in 0..<300 { first.append("Film Number \(i),\(1950 + i % 50),tt\(1_000_000 + i)") }
        // Later rows of the same input retitle movies inserted a moment before (by case, and by
        // IMDb id to other words) and one inserted before the trigger was dropped; another
        // repeats without a change.
        first.append("FILM number 250,\(1950 + 250 % 50),")
        first.append("Quite Other Words,1999,tt1000260")
        first.append("film number 10,\(1950 + 10 % 50),")
        first.append("Film Number 251,\(1951),")
        for i in 0..<120 { second.append("Second \u{130}stanbul Film \(i),2001") }   // a letter of the exceptions table too
        for i in 0..<200 { third.append("Third Film \(i),2002") }
        let (catalog, dir) = try BulkLoadTests.catalog(["first.csv": first.joined(separator: "\n") + "\n",
                                                        "second.csv": second.joined(separator: "\n") + "\n",
                                                        "third.csv": third.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.add(Movie(title: "Stored Before", year: 1999))
        try Self.importRows(catalog, dir, [("first.csv", false), ("second.csv", false), ("third.csv", true)])
        #expect(try catalog.db.query("SELECT title FROM movies WHERE title LIKE 'film number 250'") { try $0.text(0) } == ["FILM number 250"])
        try Self.expectIndexExact(catalog, ["FILM NUMBER 250", "film number 1", "number 10", "mber 25", "number 260", "other words", "stanbul film", "second", "film 11", "third film", "stored"], "after three inputs")
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_title_exceptions") == 120)
    }

    @Test("one import of three inputs, bulk-loaded then row by row with retitles, indexes every title once")
    func oneImportThreeInputs() throws {
        var first = ["title,year,imdb_id"], second = ["title,year,imdb_id"], third = ["title,year"]
        for i in 0..<2_000 { first.append("Bulk Film \(i),\(1950 + i % 50),tt\(3_000_000 + i)") }
        for i in 0..<150 { second.append("Row Film \(i),2001,tt\(4_000_000 + i)") }
        second.append("Quite Other Words,2001,tt4000140")   // retitles a movie of this input
        second.append("Bulk Film Renamed,1960,tt3000010")    // and one of the bulk-loaded input
        for i in 0..<100 { third.append("Third Film \(i),2002") }
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": first.joined(separator: "\n") + "\n",
                                                        "b.csv": second.joined(separator: "\n") + "\n",
                                                        "c.csv": third.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Importer(catalog: catalog, options: ImportOptions(), progressOutput: nil).run(paths: ["a.csv", "b.csv", "c.csv"].map { dir.appendingPathComponent($0).path })
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == 2_250)
        try Self.expectIndexExact(catalog, ["bulk film 1", "row film 14", "row film 140", "other words", "renamed", "ilm 10", "third film 9"], "one import")
    }

    @Test("with a movie at id Int64.max (new ids then fall below it) every new title is indexed")
    func idsAtTheTop() throws {
        var rows = ["title,year"]
        for i in 0..<200 { rows.append("Zebra Film \(i),1990") }
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.run("INSERT INTO movies (id, title, year) VALUES (?, 'At The Top', 2000)", [.integer(.max)])
        try Self.importRows(catalog, dir, [("in.csv", false)])
        try Self.expectIndexExact(catalog, ["zebra film", "zebra film 19", "the top"], "ids at the top")
    }

    @Test("a sqlite3 user's own triggers on movies keep the title index's trigger on", arguments: [
        "CREATE TABLE my_log (id INTEGER); CREATE TRIGGER my_audit AFTER INSERT ON movies BEGIN INSERT INTO my_log VALUES (NEW.id); END",
        // Retitles what it inserts (the title index's update trigger then writes its exception row,
        // which a deferred flush would write again: UNIQUE constraint failed).
        "CREATE TRIGGER my_kelvin AFTER INSERT ON movies WHEN NEW.title LIKE '%7' BEGIN UPDATE movies SET title = title || ' ' || char(8490) WHERE id = NEW.id; END",
    ])
    func ownTriggers(_ trigger: String) throws {
        var rows = ["title,year"]
        for i in 0..<200 { rows.append("Open Film \(i),1990") }
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute(trigger)
        try Self.importRows(catalog, dir, [("in.csv", false)])
        try Self.expectIndexExact(catalog, ["open film", "film 17", "ilm 1"], "own trigger")
    }

    @Test("an input that fails after the trigger was dropped leaves the catalog as it was, trigger and all")
    func failedInput() throws {
        var rows = ["title,year"]
        for i in 0..<100 { rows.append("Film Number \(i),1990") }
        rows.append("Stored Film,1990")   // past the 64 the trigger writes: --on-duplicate fail stops here
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.add(Movie(title: "Stored Film", year: 1990))
        #expect(throws: CatalogError.self) { try Self.importRows(catalog, dir, [("in.csv", false)], policy: .fail) }
        try Self.expectIndexExact(catalog, ["film number", "stored"], "after a failed import")
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == 1)
    }
}

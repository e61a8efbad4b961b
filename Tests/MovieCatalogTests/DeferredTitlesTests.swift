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

    @Test("an input that fails after the trigger was dropped leaves the catalog as it was, trigger and all")
    func failedInput() throws {
        var rows = ["title,year"]
        for i in 0..<100 { rows.append("Film Number \(i),1990") }
        rows.append("Film Number 3,1990")   // a repeat of a stored movie: --on-duplicate fail stops here
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.add(Movie(title: "Film Number 3", year: 1990))
        #expect(throws: CatalogError.self) { try Self.importRows(catalog, dir, [("in.csv", false)], policy: .fail) }
        try Self.expectIndexExact(catalog, ["film number", "number 3"], "after a failed import")
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == 1)
    }
}

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
        #expect(!report.timings.contains { $0.name.hasPrefix("index ") }, "no new rows: the indexes stayed")
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

    @Test("a stored catalog keeps its indexes while an input's new rows are few (a 32nd of it), and drops and rebuilds them past that",
          arguments: [2, 3, 40])
    func indexesKeptForFewNewRows(newRows: Int) throws {
        let stored = (1...64).map { Self.row($0) }
        let input = (1...64).map { Self.row($0, rating: "7.7") } + (65..<(65 + newRows)).map { Self.row($0) }
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": Self.csv(stored), "b.csv": Self.csv(input)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        _ = try TitleIndexBuilderTests.importAlways(catalog, dir, "a.csv")
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "b.csv")
        #expect(report.total.inserted == newRows && report.total.updated == 64)
        // 64 / 32 = 2 new rows wait with the repeats; the third drops the indexes.
        #expect(report.timings.contains { $0.name == "index movies_natural_key" } == (newRows > 2))
        #expect(try db.intScalar("SELECT count(*) FROM movies WHERE rating = 7.7 AND id <= 64") == 64)
        #expect(try db.intScalar("SELECT count(*) FROM movies") == 64 + newRows)
        #expect(try MovieFacetsTable.mismatches(db) == 0)
        #expect(try db.scalar("PRAGMA integrity_check") == .text("ok"))
        let fresh = try Catalog(path: dir.appendingPathComponent("fresh.sqlite").path)
        let schema = "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name"
        #expect(try db.query(schema) { try $0.text(0) } == fresh.db.query(schema) { try $0.text(0) })
        // The new movies are numbered after the input's rows before them, and are in the title index.
        let found = try TitleIndexBuilderTests.found(db, "film number 65")
        let id = try db.query("SELECT id FROM movies WHERE title = 'Film number 65'") { try $0.int64(0) }
        #expect(found.count == 1 && found == id)
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

/// The merge's grouping by sorted key hashes, and its way out when two keys share a hash.
@Suite struct RepeatGroupsTests {
    @Test("repeats of held rows fold in memory; of written ones, are grouped by their hashes, or in SQL when keys share hashes",
          arguments: [BulkLoad.always, .alwaysHoldingFewRows, .alwaysWithSharedHashes])
    func groupingPath(bulk: BulkLoad) throws {
        let rows = (1...200).map { RepeatMergerTests.row($0) }
        let again = (1...60).map { RepeatMergerTests.row($0, rating: "5.5") }
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": RepeatMergerTests.csv(rows + again)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "a.csv") { $0.bulkLoad = bulk }
        let phases = report.timings.map(\.name)
        #expect(phases.contains("merge: group repeats in SQL") == (bulk == .alwaysWithSharedHashes))
        #expect(phases.contains("merge: group repeats") == (bulk == .alwaysHoldingFewRows))
        // All 200 rows are still held when their repeats come (and none is set aside).
        #expect(phases.contains("append rows (0 set aside)") == (bulk == .always))
        #expect(report.total.inserted == 200 && report.total.repeated == 60)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies WHERE rating = 5.5 AND id <= 60") == 60)
        #expect(try MovieFacetsTable.mismatches(catalog.db) == 0)
    }

    /// A catalog with movie 1 and the merge's scratch tables holding set-aside row 2, titled `later`.
    static func scratch(later: String) throws -> (Catalog, URL) {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        try catalog.db.execute(RepeatMerger.tablesSQL)
        try catalog.db.execute("""
            INSERT INTO movies (id, title, year, added_at, updated_at) VALUES (1, 'Heat', 1995, 0, 0);
            CREATE TEMP TABLE import_groups (keep INTEGER PRIMARY KEY, last INTEGER NOT NULL, n INTEGER NOT NULL, kind INTEGER NOT NULL);
            """)
        try catalog.db.run("INSERT INTO temp.import_later (id, title, year, added_at, updated_at, genres) VALUES (2, ?, 1995, 0, 0, 0)", [.text(later)])
        return (catalog, dir)
    }

    @Test("an owner that shares a set-aside row's hash but not its key is caught, and nothing is grouped",
          arguments: [("HEAT", true), ("Heat II", false)])
    func ownerSharingAHash(later: String, sameKey: Bool) throws {
        let (catalog, dir) = try Self.scratch(later: later)
        defer { try? FileManager.default.removeItem(at: dir) }
        let keys = KeyRuns()
        var bytes: [UInt8] = []
        RepeatSieve.key(of: Movie(title: later, year: 1995), byIMDbID: false, into: &bytes)
        // Both under hash 7, whatever their keys' real hashes.
        try keys.add(key: 7, id: 1)
        try bytes.withUnsafeBufferPointer { try keys.add(key: 7, id: 2, bytes: $0) }
        #expect(try RepeatGroups.write(catalog.db, keys: keys, key: .titleYear, maxIDBefore: 0) == sameKey)
        let groups = try catalog.db.query("SELECT keep, last, n, kind FROM temp.import_groups") { row in
            try (0..<4).map { try row.int64(Int32($0)) }
        }
        #expect(groups == (sameKey ? [[1, 2, 1, RepeatMerger.Kind.appended.rawValue]] : []))
    }

    @Test("set-aside rows of two keys under one hash are caught, and nothing is grouped")
    func rowsSharingAHash() throws {
        let (catalog, dir) = try Self.scratch(later: "Heat")
        defer { try? FileManager.default.removeItem(at: dir) }
        let keys = KeyRuns()
        for (id, title) in [(Int64(2), "Heat"), (3, "Heat II")] {
            var bytes: [UInt8] = []
            RepeatSieve.key(of: Movie(title: title, year: 1995), byIMDbID: false, into: &bytes)
            try bytes.withUnsafeBufferPointer { try keys.add(key: 7, id: id, bytes: $0) }
        }
        #expect(try RepeatGroups.write(catalog.db, keys: keys, key: .titleYear, maxIDBefore: 0) == false)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM temp.import_groups") == 0)
    }
}

/// The external sort under the merge's grouping.
@Suite struct KeyRunsTests {
    @Test("records come back by key, then id, with their bytes, in memory or from runs on disk",
          arguments: [64, 1_000, 1 << 20])
    func sorts(budget: Int) throws {
        var rng = SeededRandom(seed: UInt64(budget))
        let runs = KeyRuns(budget: budget)
        var expected: [(UInt64, Int64, [UInt8])] = []
        for id in 0..<3_000 {
            // Few distinct keys, so ids order many records; some records carry bytes.
            let key = UInt64.random(in: 0..<200, using: &rng) << 56 | UInt64.random(in: 0..<3, using: &rng)
            let bytes = (0..<Int.random(in: 0..<3, using: &rng) * 7).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let signed = Bool.random(using: &rng) ? Int64(id) : -Int64(id)
            try bytes.withUnsafeBufferPointer { try runs.add(key: key, id: signed, bytes: $0) }
            expected.append((key, signed, bytes))
        }
        expected.sort { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        var got: [(UInt64, Int64, [UInt8])] = []
        try runs.drain { got.append(($0.key, $0.id, Array($0.bytes))) }
        #expect(got.count == expected.count)
        #expect(zip(got, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 && $0.2 == $1.2 })
    }

    @Test("runs that cannot be written (no writable directory) fail with KeyRuns.Failure, which the load answers by grouping in SQL")
    func unwritable() throws {
        let runs = KeyRuns(budget: 64, directories: ["/nonexistent-\(UUID().uuidString)"])
        #expect(throws: KeyRuns.Failure.self) {
            for id in 0..<100 { try runs.add(key: UInt64(id), id: Int64(id)) }
        }
    }
}

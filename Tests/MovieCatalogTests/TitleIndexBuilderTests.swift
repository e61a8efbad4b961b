import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// A bulk load into an empty catalog builds its title index on another thread and copies it in
/// (`TitleIndexBuilder`): the result must be the index the catalog would have built itself.
@Suite struct TitleIndexBuilderTests {
    /// Titles with shared trigrams, the two letters movie_title_exceptions lists, and repeats.
    static func titles(_ count: Int, seed: UInt64) -> [String] {
        var rng = SeededRandom(seed: seed)
        let words = ["heart", "Heat", "dark", "\u{212A}ing", "İstanbul", "Star", "night", "é", "日本語", "x%_"]
        return (0..<count).map { i in
            (0..<Int.random(in: 1...3, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ") + " \(i % 97)"
        }
    }

    static func csv(_ titles: [String], firstYear: Int) -> String {
        (["title,year"] + titles.enumerated().map { CSV.row([$0.element, String(firstYear + $0.offset % 50)]) })
            .joined(separator: "\n") + "\n"
    }

    /// Texts of 3 or more ASCII characters (so the index is asked), some across the two letters
    /// the index reads folded ("rt i" finds "heart İstanbul", whose lower case is "heart i̇stanbul").
    static let patterns = ["hea", "heart", "eat", "king", "stanbul", "rt i", "k i", "star nig", "rk 1", "x%_", "night 9"]

    /// The movie ids each search finds through the title index, for every pattern.
    static func searches(_ db: Database) throws -> [String: [Int64]] {
        var found: [String: [Int64]] = [:]
        for pattern in patterns {
            guard let match = MovieTitlesTable.matchQuery([pattern]) else { continue }
            found[pattern] = try db.query("SELECT rowid FROM movie_titles WHERE movie_titles MATCH ? ORDER BY rowid", [.text(match)]) { try $0.int64(0) }
        }
        return found
    }

    /// Whether each search finds every movie whose title holds its pattern (ignoring case, as the
    /// title test does): the index may only narrow, so it may find more (all three trigrams of
    /// "night 9" are in "night 19 ... t 9"), never fewer.
    static func covers(_ db: Database) throws -> Bool {
        let found = try searches(db), wanted = try expected(db)
        return wanted.allSatisfy { pattern, ids in !ids.isEmpty && Set(ids).isSubset(of: found[pattern] ?? []) }
    }

    static func expected(_ db: Database) throws -> [String: [Int64]] {
        let stored = try db.query("SELECT id, title FROM movies ORDER BY id") { (try $0.int64(0), try $0.text(1)) }
        var found: [String: [Int64]] = [:]
        for pattern in patterns {
            found[pattern] = stored.filter { TitleSearchTests.matches($0.1, pattern) }.map(\.0)
        }
        return found
    }

    @Test("a first bulk load's index, built alongside, finds what the catalog's own finds, and later writes in the same connection keep it sound",
          arguments: [BulkLoad.always, .alwaysMergingEveryRow, .alwaysHoldingFewRows])
    func builtAlongside(mode: BulkLoad) throws {
        let titles = Self.titles(3_000, seed: 5)
        // Some titles repeat (same title and year), midway: they are folded into held rows, or set
        // aside and merged, and the ids of the rows appended after them skip theirs.
        let input = Self.csv(Array(titles.prefix(1_500) + titles.prefix(200) + titles.dropFirst(1_500)), firstYear: 1950)
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": input, "b.csv": Self.csv(Self.titles(300, seed: 6), firstYear: 2001)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        // The connection has read the (empty) index before: FTS5 keeps its structure in memory.
        #expect(try Self.searches(db).values.allSatisfy(\.isEmpty))
        var options = ImportOptions()
        options.bulkLoad = mode
        // Two inputs: the first is bulk-loaded, the second goes row by row through the triggers.
        let report = try Importer(catalog: catalog, options: options, progressOutput: nil)
            .run(paths: [dir.appendingPathComponent("a.csv").path, dir.appendingPathComponent("b.csv").path])
        #expect(report.timings.contains { $0.name == "title index, built alongside: copied in" } && report.timings.contains { $0.name == "title index, built alongside: waited for its thread" }, "\(report.timings.map(\.name))")
        #expect(MovieTitlesTable.isSound(db))
        #expect(try Self.covers(db))
        // Exceptions listed for the two letters, whichever path indexed the title.
        let listed = try db.query("SELECT id FROM movie_title_exceptions ORDER BY id") { try $0.int64(0) }
        let holding = try db.query("SELECT id FROM movies WHERE \(MovieTitlesTable.hasException("title")) ORDER BY id") { try $0.int64(0) }
        #expect(!listed.isEmpty && listed == holding)
        // Later writes on the same connection, and on a new one.
        try db.run("UPDATE movies SET title = 'heartless ' || title WHERE id % 7 = 0")
        try db.withoutForeignKeys { try db.run("DELETE FROM movies WHERE id % 11 = 0") }
        #expect(MovieTitlesTable.isSound(db))
        #expect(try Self.covers(db))
        let again = try Database(path: db.path)
        #expect(try Self.covers(again))
    }

    @Test("the builder's titles, folded in Swift, are byte for byte the SQL expression's, and name the same exceptions")
    func foldedAsSQL() throws {
        let db = try Database(path: ":memory:")
        var rng = SeededRandom(seed: 25)
        // Pieces around the two letters and the folding's edges: every ASCII letter, LONG S and
        // other letters lower() leaves, a letter's UTF-8 cut next to them, a NUL.
        let pieces = ["\u{212A}", "\u{0130}", "K", "k", "I", "i", "Z", "@", "[", "`", "{", "\u{017F}", "Ä", "é", "\u{0307}",
                      "\u{2129}", "\u{212B}", "\u{0131}", "日本", "🎬", " ", "\u{0}", "ABCxyz", "İstanbul"]
        var titles = ["\u{212A}", "\u{0130}", "A\u{212A}\u{0130}z", "plain lower", String((0x20...0x7E).map { Character(UnicodeScalar(UInt8($0))) })]
        for _ in 0..<2_000 {
            titles.append((0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined())
        }
        for title in titles {
            var bytes: [UInt8] = []
            let excepted = MovieTitlesTable.appendIndexed(title, to: &bytes)
            let sql = try db.query("SELECT CAST(\(MovieTitlesTable.indexed("?1")) AS BLOB), \(MovieTitlesTable.hasException("?1"))", [.text(title)]) {
                ($0.withBlob(0) { $0.map { Array($0) } ?? [] }, try $0.int64(1) != 0)
            }
            #expect(sql.first?.0 == bytes && sql.first?.1 == excepted, "\(title.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("the index built alongside finds what one built by the catalog's triggers finds")
    func sameAsInline() throws {
        let input = Self.csv(Self.titles(2_000, seed: 9), firstYear: 1960)
        let (alongside, dirA) = try BulkLoadTests.catalog(["a.csv": input])
        let (inline, dirB) = try BulkLoadTests.catalog([:])
        defer {
            try? FileManager.default.removeItem(at: dirA)
            try? FileManager.default.removeItem(at: dirB)
        }
        var options = ImportOptions()
        options.bulkLoad = .always
        _ = try Importer(catalog: alongside, options: options, progressOutput: nil).run(paths: [dirA.appendingPathComponent("a.csv").path])
        // The same movies, indexed by the catalog's own triggers.
        try inline.db.withoutForeignKeys {
            try inline.db.run("ATTACH ? AS a", [.text(alongside.db.path)])
            try inline.db.execute("INSERT INTO movies SELECT * FROM a.movies ORDER BY id; DETACH a")
        }
        #expect(try Self.searches(alongside.db) == Self.searches(inline.db))
        #expect(try Self.covers(alongside.db))
    }

    static func found(_ db: Database, _ text: String) throws -> [Int64] {
        let match = try #require(MovieTitlesTable.matchQuery([text]))
        return try db.query("SELECT rowid FROM movie_titles WHERE movie_titles MATCH ? ORDER BY rowid", [.text(match)]) { try $0.int64(0) }
    }

    static func importAlways(_ catalog: Catalog, _ dir: URL, _ file: String, _ tweak: (inout ImportOptions) -> Void = { _ in }) throws -> ImportReport {
        var options = ImportOptions()
        options.bulkLoad = .always
        tweak(&options)
        return try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent(file).path])
    }

    @Test("under the IMDb-id key, a repeat that retitles an appended movie is found by its new title, not its first (folded into the held row, or merged after it was written)",
          arguments: [BulkLoad.always, .alwaysHoldingFewRows])
    func imdbRepeatRetitles(bulk: BulkLoad) throws {
        // 100 movies between the two rows of tt0000001: written by then when few rows are held.
        let others = (2...101).map { String(format: "tt%07d,Other %d,2001\n", $0, $0) }.joined()
        let csv = "imdb_id,title,year\ntt0000001,Heart,2000\n" + others + "tt0000001,Zanzibar \u{0130}stanbul,2000\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": csv])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try Self.importAlways(catalog, dir, "a.csv") { $0.bulkLoad = bulk }
        #expect(report.timings.contains { $0.name == "title index, built alongside: copied in" } && report.timings.contains { $0.name == "title index, built alongside: waited for its thread" })
        #expect(report.timings.contains { $0.name == "append rows (\(bulk == .always ? 0 : 1) set aside)" })
        let db = catalog.db
        #expect(try Self.found(db, "zanzibar") == [1])
        #expect(try Self.found(db, "stanbul") == [1])
        #expect(try Self.found(db, "heart").isEmpty)
        #expect(try db.query("SELECT id FROM movie_title_exceptions") { try $0.int64(0) } == [1])
        #expect(MovieTitlesTable.isSound(db))
    }

    @Test("a repeat in another ASCII case leaves the index as the builder made it, and is found by it")
    func caseRepeatLeavesIndex() throws {
        let rows = "title,year\nHeart of Gold,2000\nOther,2001\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": rows + "HEART OF GOLD,2000\n", "b.csv": rows])
        defer { try? FileManager.default.removeItem(at: dir) }
        let (plain, plainDir) = try BulkLoadTests.catalog(["b.csv": rows])
        defer { try? FileManager.default.removeItem(at: plainDir) }
        _ = try Self.importAlways(catalog, dir, "a.csv")
        _ = try Self.importAlways(plain, plainDir, "b.csv")
        let db = catalog.db
        #expect(try db.scalar("SELECT title FROM movies WHERE id = 1") == .text("HEART OF GOLD"))
        #expect(try Self.found(db, "heart") == [1])
        #expect(MovieTitlesTable.isSound(db))
        // Not taken out and put back: the index's pages are those of the file without the repeat.
        let blocks = "SELECT id, hex(block) FROM movie_titles_data ORDER BY id"
        #expect(try db.query(blocks) { try $0.text(1) } == plain.db.query(blocks) { try $0.text(1) })
    }

    @Test("under the IMDb-id key, a repeat whose title the index holds alike but without the letter U+0130 leaves no exception row")
    func imdbRepeatDropsException() throws {
        // U+0130 is indexed as i + U+0307: the two titles' index entries are the same.
        let csv = "imdb_id,title,year\ntt0000001,\u{0130}stanbul,2000\ntt0000002,Other,2001\ntt0000001,i\u{0307}stanbul,2000\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": csv])
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try Self.importAlways(catalog, dir, "a.csv")
        let db = catalog.db
        #expect(try Self.found(db, "stanbul") == [1])
        #expect(try db.query("SELECT id FROM movie_title_exceptions") { try $0.int64(0) }.isEmpty)
        #expect(MovieTitlesTable.isSound(db))
    }

    @Test("movies a sqlite3 user stored with ids 0 and below keep their titles in the index, and are matched as stored movies",
          arguments: [DuplicatePolicy.update, .skip, .fail])
    func storedNonPositiveIDs(policy: DuplicatePolicy) throws {
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": "title,year\nFilm one,2000\nFilm two,2001\nzanzibar sunrise,1957\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        try db.execute("INSERT INTO movies (id, title, year, added_at, updated_at) VALUES (-1, 'Zanzibar Sunrise', 1957, 0, 0), (0, 'Quixotic Quest', 1960, 0, 0)")
        let run = Result { try Self.importAlways(catalog, dir, "a.csv") { $0.onDuplicate = policy } }
        if policy == .fail {
            // The repeat of stored movie -1 is refused, as row by row.
            #expect(throws: CatalogError.self) { try run.get() }
            #expect(try db.intScalar("SELECT count(*) FROM movies") == 2)
        } else {
            let report = try run.get()
            #expect(report.total.inserted == 2)
            #expect(try db.intScalar("SELECT count(*) FROM movies") == 4)
            #expect(try Self.found(db, "film") == [1, 2])
        }
        #expect(try Self.found(db, "zanzibar") == [-1])
        #expect(try Self.found(db, "quixotic") == [0])
        #expect(try db.scalar("SELECT title FROM movies WHERE id = -1") == .text(policy == .update ? "zanzibar sunrise" : "Zanzibar Sunrise"))
        #expect(MovieTitlesTable.isSound(db))
    }

    @Test("a builder that fails (its scratch database full) leaves the load to index the titles itself", arguments: [false, true])
    func builderFails(mergingEveryRow: Bool) throws {
        let titles = Self.titles(3_000, seed: 11)
        let (catalog, dir) = try BulkLoadTests.catalog(["a.csv": Self.csv(titles + titles.prefix(100), firstYear: 1970)])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try Self.importAlways(catalog, dir, "a.csv") {
            $0.titleScratchPages = 1   // the pages it has: any growth fails
            if mergingEveryRow { $0.bulkLoad = .alwaysMergingEveryRow }
        }
        #expect(report.timings.contains { $0.name == "title index" }, "\(report.timings.map(\.name))")
        #expect(MovieTitlesTable.isSound(catalog.db))
        #expect(try Self.covers(catalog.db))
    }

    @Test("an abandoned builder (the import failed) stops, whether it waits for titles or indexes them, and leaves the catalog's index as it was",
          .timeLimit(.minutes(1)), arguments: [false, true])
    func abandoned(afterAppend: Bool) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try catalog.db.intScalar("SELECT count(*) FROM movie_titles_data")
        do {
            let builder = try #require(TitleIndexBuilder.start(for: catalog.db))
            for (offset, title) in Self.titles(60_000, seed: 5).enumerated() { builder.add(id: Int64(offset + 1), title: title) }
            // Indexing 60,000 titles takes far longer than this: the thread is in its statement.
            if afterAppend { builder.appendDone(); usleep(20_000) }
        }   // dropped here: deinit cancels, interrupts and joins; a thread left waiting would hang
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_titles_data") == before)
        #expect(MovieTitlesTable.isSound(catalog.db))
    }
}

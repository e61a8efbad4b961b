import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The bulk path (append, then fold repeats in SQL) must leave the catalog and the report exactly
/// as the row-by-row path does, for stored movies and repeats alike.
@Suite struct BulkLoadTests {
    /// Where IMDb ids appear.
    enum IDs: String, Sendable {
        /// Nowhere: movies are told apart by title and year.
        case none
        /// On every stored movie and input row; some rows are other films of a stored title and year.
        case all
        /// On stored movies only, some of which share a title and year: id-less rows naming those are ambiguous.
        case storedOnly
        /// On about half the input rows; stored movies have none.
        case mixed
        /// On every input row; stored movies have none, and rows of their titles and years give
        /// them ids (a list with ids into the demo catalog).
        case inputOnly
    }

    struct Case: Sendable, CustomStringConvertible {
        let policy: DuplicatePolicy
        let columns: [String]
        var ids = IDs.none
        let seed: UInt64
        var description: String { "\(policy.rawValue) \(columns.joined(separator: ",")) ids \(ids.rawValue) seed \(seed)" }
    }

    static let cases: [Case] = [DuplicatePolicy.update, .skip].flatMap { policy in
        [["title", "year", "genres", "rating", "duration", "certification"], ["title", "year", "rating"],
         ["title", "genres", "certification"]].flatMap { columns in
            [IDs.none, .all, .storedOnly, .mixed, .inputOnly].flatMap { ids in
                [1, 2, 3].map { Case(policy: policy, columns: columns, ids: ids, seed: UInt64($0)) }
            }
        }
    }

    /// A catalog of 40 stored movies (and 5 films sharing the title and year of others, when
    /// stored movies have ids), then an input of 120 rows that repeats some of them and itself.
    static func scenario(_ c: Case) throws -> (stored: String, input: String) {
        var rng = SeededRandom(seed: c.seed)
        func movie(_ i: Int, _ extra: String, twin: Bool = false) -> [String: String] {
            ["title": i % 3 == 0 ? "Movie \(i)" : "movie \(i)", "year": i % 5 == 0 ? "" : String(1950 + i % 60),
             "genres": ["drama", "war|comedy", "", "Film Noir|drama", "Neo Noir \(i % 7)", extra][Int.random(in: 0..<6, using: &rng)],
             "rating": Bool.random(using: &rng) ? String(Double(Int.random(in: 0...100, using: &rng)) / 10) : "",
             "votes": Bool.random(using: &rng) ? String(Int.random(in: 0...100_000, using: &rng)) : "",
             "duration": String(Int.random(in: 60...200, using: &rng)),
             "certification": ["R", "pg", ""][Int.random(in: 0..<3, using: &rng)],
             "imdb_id": "tt\((twin ? 2_000_000 : 1_000_000) + i)"]
        }
        func csv(_ rows: [[String: String]], _ columns: [String]) -> String {
            ([columns.joined(separator: ",")] + rows.map { row in columns.map { row[$0]! }.joined(separator: ",") })
                .joined(separator: "\n") + "\n"
        }
        let all = ["title", "year", "genres", "rating", "votes", "duration", "certification"]
        let storedHasIDs = c.ids == .all || c.ids == .storedOnly
        var storedRows = (0..<40).map { movie($0, "drama") }
        if storedHasIDs { storedRows += (20..<25).map { movie($0, "drama", twin: true) } }
        let stored = csv(storedRows, all + (storedHasIDs ? ["imdb_id"] : []))
        // Genres only the input names: a skipped row must not leave them behind.
        let input = csv((0..<120).map { _ in
            let i = Int.random(in: 20..<90, using: &rng)
            var row = movie(i, "Input Only \(i % 3)|war", twin: c.ids == .all && Int.random(in: 0..<6, using: &rng) == 0)
            if c.ids == .mixed && Bool.random(using: &rng) { row["imdb_id"] = "" }
            // Now and then a repeat in other letters' case: the last one's title is kept.
            if Int.random(in: 0..<4, using: &rng) == 0 { row["title"] = row["title"]!.uppercased() }
            // And genres in other letters' case: a new genre is named as its first stored row
            // names it (a row skipped under skip names nothing).
            // (From the row's number: the generator's draws stay as they were.)
            if i % 4 == 1 { row["genres"] = row["genres"]!.uppercased() }
            // A cell naming a genre twice, in two spellings: the first names it.
            if i % 8 == 2, let genres = row["genres"], !genres.isEmpty { row["genres"] = genres + "|" + genres.uppercased() }
            // Spellings equal to Swift's == (canonically) but not in bytes: both stored composed (NFC).
            if i % 8 == 6 { row["genres"] = "Caf\u{E9} Noir" }
            if i % 8 == 7 { row["genres"] = "Cafe\u{301} Noir" }
            return row
        }, c.columns + (c.ids == .all || c.ids == .mixed || c.ids == .inputOnly ? ["imdb_id"] : []))
        return (stored, input)
    }

    static func run(_ c: Case, bulk: BulkLoad, stored: String, input: String) throws -> (rows: [String], counts: ImportCounts, appended: Int) {
        let (catalog, dir) = try Self.catalog(["stored.csv": stored, "input.csv": input])
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try Importer(catalog: catalog, options: ImportOptions(), progressOutput: nil)
            .run(paths: [dir.appendingPathComponent("stored.csv").path]).total.inserted
        var options = ImportOptions()
        options.onDuplicate = c.policy
        options.bulkLoad = bulk
        // Ambiguous rows are rejected like invalid ones, on both paths alike.
        options.skipInvalid = true
        // A second input in the same command: the stored rows again, bulk-loaded too under
        // `always` (onto the movies of the first), row by row under `never`; alike.
        let report = try Importer(catalog: catalog, options: options, progressOutput: nil)
            .run(paths: [dir.appendingPathComponent("input.csv").path, dir.appendingPathComponent("stored.csv").path])
        // Stored movies keep their ids on both paths; new ones may be numbered differently.
        let rows = try catalog.db.query("""
            SELECT CASE WHEN id <= ? THEN id ELSE 0 END, title, year, rating, votes, duration_minutes, certification, imdb_id,
                   (SELECT group_concat(g.code, '|') FROM (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
                     WHERE mg.movie_id = m.id ORDER BY g.code) g)
              FROM movies m ORDER BY title COLLATE NOCASE, ifnull(year, 0), imdb_id
            """, [.integer(Int64(before))]) { s in (0..<9).map { s.value(Int32($0)).description }.joined(separator: " | ") }
        // Names as bytes: String's == would take two canonically equal spellings for one.
        let genres = try catalog.db.query("SELECT code || '=' || hex(name) FROM genres ORDER BY code") { try $0.text(0) }
        #expect(try catalog.db.scalar("PRAGMA integrity_check") == .text("ok"))
        #expect(try MovieFacetsTable.mismatches(catalog.db) == 0, "movie_facets is exact")
        #expect(MovieTitlesTable.isSound(catalog.db), "the title index is sound")
        // Every stored title is found by a search for it (and its id-less twins by theirs).
        let unfound = try catalog.db.query("""
            SELECT count(*) FROM movies m WHERE length(title) >= 3 AND unicode(title) < 128 AND id NOT IN
              (SELECT rowid FROM movie_titles WHERE movie_titles MATCH '"' || replace(lower(substr(m.title, 1, 3)), '"', '""') || '"')
            """) { try $0.int64(0) }
        #expect(unfound == [0], "every title is in the title index")
        let fresh = try Catalog(path: dir.appendingPathComponent("fresh.sqlite").path)
        let schema = "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name"
        #expect(try catalog.db.query(schema) { try $0.text(0) } == fresh.db.query(schema) { try $0.text(0) },
                "the indexes and triggers are back as the migrations made them")
        // Links are right by construction (no dangling movie or genre) and enforcement is back on.
        #expect(try catalog.db.query("PRAGMA foreign_key_check") { try $0.text(0) }.isEmpty)
        #expect(try catalog.db.intScalar("PRAGMA foreign_keys") == 1)
        #expect(throws: DatabaseError.self, "SQLite's CHECKs are back on") {
            try catalog.db.run("INSERT INTO movies (title, added_at, updated_at) VALUES ('', 0, 0)")
        }
        return (rows + genres, report.total, report.appendedRows)
    }

    @Test("bulk and row-by-row imports into a stored catalog agree", arguments: cases)
    func agree(_ c: Case) throws {
        let (stored, input) = try Self.scenario(c)
        let rowByRow = try Self.run(c, bulk: .never, stored: stored, input: input)
        // As it comes; every row set aside (the merge alone, with new keys among its groups too);
        // keys sharing hashes (the merge finds the movies in SQL); few rows held back (repeats
        // fold into held rows, and later ones are set aside).
        var bulk = rowByRow
        for mode in [BulkLoad.always, .alwaysMergingEveryRow, .alwaysWithSharedHashes, .alwaysHoldingFewRows] {
            let result = try Self.run(c, bulk: mode, stored: stored, input: input)
            #expect(result.rows == rowByRow.rows, "\(mode)")
            #expect(result.counts == rowByRow.counts, "\(mode)")
            if mode == .always { bulk = result }
        }
        let storedCount = c.ids == .all || c.ids == .storedOnly ? 45 : 40
        #expect(rowByRow.counts.read == 120 + storedCount)
        if c.ids == .storedOnly { #expect(rowByRow.counts.rejected > 0, "id-less rows of a shared title and year are ambiguous") }
        // Bulk appends where every stored movie and row is keyed alike; never where they mix.
        #expect(rowByRow.appended == 0)
        if c.ids == .none || c.ids == .all || (c.ids == .inputOnly && c.policy == .update) { #expect(bulk.appended > 0) }
        if c.ids == .inputOnly && c.policy == .update && c.columns.contains("year") {
            #expect(rowByRow.counts.updated > 0, "rows gave stored movies their ids")
        }
        // The input without ids is never appended onto movies with ids (the second file, the
        // stored rows again with their ids, may be).
        if c.ids == .storedOnly { #expect(bulk.appended <= 45) }
        if c.ids == .all { #expect(rowByRow.counts.inserted > 0 && rowByRow.counts.repeated > 0) }
    }

    /// A fresh catalog in a temporary folder, with `files` written beside it.
    static func catalog(_ files: [String: String]) throws -> (Catalog, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return (try Catalog(path: dir.appendingPathComponent("c.sqlite").path), dir)
    }

    @Test("ids up to Int64.max (a sqlite3 user's) leave a bulk load no room: the rows are written one by one", arguments: [false, true])
    func idsAtTheTop(storedAtTop: Bool) throws {
        var rows = ["title,year"]
        for i in 0..<50 { rows.append("Movie \(i),\(1950 + i)") }
        let (catalog, dir) = try Self.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        try db.withoutForeignKeys {
            // A link a sqlite3 user left at the top id (to a movie never stored there), or a movie stored there.
            try db.execute("INSERT INTO movie_genres VALUES (9223372036854775807, 1)")
            if storedAtTop { try db.execute("INSERT INTO movies (id, title, added_at, updated_at) VALUES (9223372036854775807, 'Last', 0, 0)") }
        }
        var options = ImportOptions()
        options.bulkLoad = .always
        options.onDuplicate = .update
        let report = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent("in.csv").path])
        #expect(report.appendedRows == 0)
        #expect(try db.intScalar("SELECT count(*) FROM movies WHERE title LIKE 'Movie %'") == 50)
        #expect(try MovieFacetsTable.mismatches(db) == 0)
    }

    @Test("appended movies and facet rows take the ids they are numbered, in input order, past a link left above the movies",
          arguments: [BulkLoad.always, .alwaysMergingEveryRow, .alwaysHoldingFewRows], [0, 30])
    func numberedInOrder(_ mode: BulkLoad, strayLink: Int) throws {
        // 300 titles (several write batches), every 7th row a repeat of the row before it.
        var rows = ["title,year,genres"]
        // Each title's number among the new titles, and its first row's among the rows.
        var firstOf: [String: (title: Int, row: Int)] = [:]
        for i in 0..<300 {
            let n = i % 7 == 6 ? i - 1 : i
            rows.append("Movie \(n),\(1950 + n % 50),drama")
            if firstOf["Movie \(n)"] == nil { firstOf["Movie \(n)"] = (firstOf.count + 1, i + 1) }
        }
        let (catalog, dir) = try Self.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        // A sqlite3 user's delete left a link at id 30: new movies are numbered above it.
        if strayLink > 0 { try db.withoutForeignKeys { try db.execute("INSERT INTO movie_genres VALUES (\(strayLink), 1)") } }
        var options = ImportOptions()
        options.bulkLoad = mode
        let report = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent("in.csv").path])
        #expect(report.appendedRows > 0)
        let ids = try db.query("SELECT title, id FROM movies") { (try $0.text(0), try $0.int64(1)) }
        #expect(ids.count == firstOf.count)
        // Repeats fold into their first row, so the new titles are numbered one after another;
        // rows set aside are each numbered, and a new title keeps its first row's number.
        #expect(ids.allSatisfy { Int($0.1) == strayLink + (mode == .alwaysMergingEveryRow ? firstOf[$0.0]!.row : firstOf[$0.0]!.title) },
                "\(ids.prefix(5))")
        #expect(try db.intScalar("SELECT count(*) FROM movie_facets f JOIN movies m USING (id)") == firstOf.count)
        #expect(try MovieFacetsTable.mismatches(db) == 0)
        #expect(try db.intScalar("SELECT count(*) FROM movie_genres WHERE movie_id > \(strayLink)") == firstOf.count)
    }

    @Test("a sqlite3 user's trigger that adds movies while rows are appended: the rows keep the ids they are numbered; a clash is the trigger's",
          arguments: [false, true])
    func userTriggerAddsMovies(withoutID: Bool) throws {
        let rows = (0..<200).map { "Movie \($0),\(1950 + $0 % 50),\($0 == 70 ? "Zzgenre" : "drama")" }
        let (catalog, dir) = try Self.catalog(["in.csv": "title,year,genres\n" + rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        // A new genre fires it (a review found the append's NULL ids then numbered past its movie).
        try catalog.db.execute("""
            CREATE TRIGGER user_genre_log AFTER INSERT ON genres BEGIN
              INSERT INTO movies (\(withoutID ? "" : "id, ")title) VALUES (\(withoutID ? "" : "1000000 + NEW.id, ")'placeholder ' || NEW.name);
            END
            """)
        var options = ImportOptions()
        options.bulkLoad = .always
        let importer = Importer(catalog: catalog, options: options, progressOutput: nil)
        if withoutID {
            // SQLite numbers its movie 1, which the append numbered for the first row.
            #expect { try importer.run(paths: [dir.appendingPathComponent("in.csv").path]) } throws: { error in
                (error as? CatalogError)?.kind == .dataError && "\(error)".contains("a constraint or trigger added to the catalog's tables")
            }
            #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == 0)
            return
        }
        _ = try importer.run(paths: [dir.appendingPathComponent("in.csv").path])
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies WHERE title LIKE 'Movie %' AND id = CAST(substr(title, 7) AS INTEGER) + 1") == 200)
        #expect(try catalog.db.query("SELECT title FROM movies WHERE id > 200") { try $0.text(0) } == ["placeholder Zzgenre"])
    }

    @Test("a row whose values change after it is made is checked again (the CHECK mirror a bulk load relies on)")
    func rowCheckedAgain() {
        var row = ImportRow(line: 2, movie: Movie(title: "Heat", year: 1995), present: MovieFields([.title, .year]))
        #expect(row.violation == nil)
        row.year = 3000
        #expect(row.violation != nil)
        row.year = 1995
        #expect(row.violation == nil)
        row.movie.title = " Heat"
        #expect(row.violation == "title is not trimmed")
    }

    @Test("nearly every held row is found by its key's hash while it is held; written rows never are")
    func heldRowsFound() throws {
        let (catalog, dir) = try Self.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let window = BulkAppender.heldRows
        // As a bulk load has it: the triggers that fill movie_facets off (the queue writes its rows).
        _ = try catalog.db.dropSchemaObjects("trigger", on: ["movies", "movie_genres"])
        let queue = try AppendQueue(catalog.db, table: "movies", linkTable: "movie_genres", facets: true, window: window, nowSeconds: 0, nullIDs: true)
        var rng = SeededRandom(seed: 9)
        let hashes = (0..<(window + 1_000)).map { _ in UInt64.random(in: 0...UInt64.max, using: &rng) }
        for (i, hash) in hashes.enumerated() {
            queue.add(Movie(title: "Movie \(i)"), id: Int64(i + 1), genreIDs: [], hash: hash)
            try queue.flush(all: false)
        }
        // (Up to a batch beyond the window waits to be written: the first 900 are.)
        func held(_ i: Int) -> Bool {
            queue.held(hash: hashes[i], sameKeyAs: Movie(title: "Movie \(i)"), byIMDbID: false) != nil
        }
        let written = (0..<900).filter(held).count
        let found = (1_000..<hashes.count).filter(held).count
        // A held row is found by its key, not by its hash alone.
        #expect(queue.held(hash: hashes[hashes.count - 1], sameKeyAs: Movie(title: "Movie 0"), byIMDbID: false) == nil)
        #expect(written == 0)
        // Four entries a bucket: a row is lost only to four later rows of its bucket (one
        // entry a bucket lost some 3 % of the held rows).
        #expect(found >= window * 995 / 1000, "\(found) of \(window)")
        try queue.flush(all: true)
        queue.release()
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == hashes.count)
    }

    @Test("a failed bulk import leaves foreign keys on and the catalog empty")
    func failedBulkImport() throws {
        let (catalog, dir) = try Self.catalog(["bad.csv": "title,genres,rating\nOne,drama,7\nTwo,war,11\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = ImportOptions()
        options.bulkLoad = .always
        #expect(throws: CatalogError.self) {
            try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent("bad.csv").path])
        }
        #expect(try catalog.db.intScalar("PRAGMA foreign_keys") == 1)
        #expect(throws: DatabaseError.self, "SQLite's CHECKs are back on") {
            try catalog.db.run("INSERT INTO movies (title, added_at, updated_at) VALUES (' untrimmed', 0, 0)")
        }
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == 0)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_genres") == 0)
    }

    @Test("JSON rows whose keys change mid-input (around a 64-row flush) import as row by row does",
          arguments: [1, 63, 64, 65, 200, 511, 512, 513])
    func keysChange(at row: Int) throws {
        // Rows up to `row` lack a rating; the rest have one, and some repeat earlier titles.
        let lines = (0..<700).map { i -> String in
            let n = i % 97 == 5 ? i - 5 : i   // every 97th row repeats one five rows back
            let rating = i < row ? "" : ", \"rating\": \(Double(i % 100) / 10)"
            return "{\"title\": \"Movie \(n)\", \"year\": \(1950 + n % 50), \"genres\": [\"drama\", \"g\(i % 5)\"]\(rating)}"
        }
        func run(_ bulk: BulkLoad) throws -> ([String], ImportCounts) {
            let (catalog, dir) = try Self.catalog(["in.jsonl": lines.joined(separator: "\n") + "\n"])
            defer { try? FileManager.default.removeItem(at: dir) }
            var options = ImportOptions()
            options.bulkLoad = bulk
            let report = try Importer(catalog: catalog, options: options, progressOutput: nil)
                .run(paths: [dir.appendingPathComponent("in.jsonl").path])
            let rows = try catalog.db.query("""
                SELECT title, year, rating, (SELECT group_concat(g.code, '|') FROM (SELECT g.code FROM movie_genres mg
                       JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = m.id ORDER BY g.code) g)
                  FROM movies m ORDER BY title, year
                """) { s in (0..<4).map { s.value(Int32($0)).description }.joined(separator: " | ") }
            #expect(try catalog.db.query("PRAGMA foreign_key_check") { try $0.text(0) }.isEmpty)
            return (rows, report.total)
        }
        let (bulkRows, bulkCounts) = try run(.always)
        let (plainRows, plainCounts) = try run(.never)
        #expect(bulkRows == plainRows)
        #expect(bulkCounts == plainCounts)
        let (fewHeldRows, fewHeldCounts) = try run(.alwaysHoldingFewRows)
        #expect(fewHeldRows == plainRows)
        #expect(fewHeldCounts == plainCounts)
        #expect(plainCounts.read == 700 && plainCounts.repeated > 0)
    }

    @Test("an import failing mid-append (a trigger aborts an insert) leaves checks and foreign keys on")
    func failedMidAppend() throws {
        let rows = (0..<300).map { "Movie \($0),drama" }.joined(separator: "\n")
        let (catalog, dir) = try Self.catalog(["in.csv": "title,genres\n" + rows + "\nBoom,war\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("""
            CREATE TEMP TRIGGER boom BEFORE INSERT ON movies WHEN NEW.title = 'Boom'
            BEGIN SELECT RAISE(ABORT, 'boom'); END
            """)
        var options = ImportOptions()
        options.bulkLoad = .always
        #expect(throws: (any Error).self) {
            try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent("in.csv").path])
        }
        #expect(try catalog.db.intScalar("PRAGMA ignore_check_constraints") == 0)
        #expect(try catalog.db.intScalar("PRAGMA foreign_keys") == 1)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movies") == 0)
    }

    @Test("auto chooses bulk for an empty catalog or an input not small beside it")
    func heuristic() {
        let options = ImportOptions()
        #expect(Importer.bulkLoads(options, stored: 0, inputBytes: 10))
        // A few rows go in one by one: reading every stored key would cost more.
        #expect(!Importer.bulkLoads(options, stored: 13, inputBytes: 6_000))
        #expect(!Importer.bulkLoads(options, stored: 1_000_000, inputBytes: 120_000))
        #expect(!Importer.bulkLoads(options, stored: 1_000_000, inputBytes: 290_000))
        // A quarter of a 500k catalog took 18 s row by row, 1.7 s in bulk.
        #expect(Importer.bulkLoads(options, stored: 500_000, inputBytes: 14_000_000))
        #expect(Importer.bulkLoads(options, stored: 1_000_000, inputBytes: 310_000))
        #expect(Importer.bulkLoads(options, stored: 13, inputBytes: 60_000))
        // A pipe longer than the bytes read ahead: bulk, even into a large catalog.
        #expect(Importer.bulkLoads(options, stored: 10_000_000, inputBytes: nil))
        var never = ImportOptions()
        never.bulkLoad = .never
        #expect(!Importer.bulkLoads(never, stored: 13, inputBytes: nil))
        var dry = ImportOptions()
        dry.dryRun = true
        #expect(Importer.bulkLoads(dry, stored: 0, inputBytes: 10), "a dry run counts as the import would")
    }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// Title search: a title element matches when the title, in Unicode lower case, contains the
/// text in Unicode lower case (scalar by scalar; `%` and `_` literal). The FTS5 trigram index
/// only narrows, so every plan must give exactly what that reference gives, on random strings
/// with the letters that make case hard, and after writes by moviecat and by raw SQL.
@Suite struct TitleSearchTests {
    /// Pieces of random titles: ASCII of both cases, LIKE's and FTS5's special characters, and
    /// letters whose case mapping is unusual (KELVIN SIGN and I WITH DOT ABOVE lower-case to
    /// ASCII; FTS5 folds LONG S to s, which lower case does not; ß, final sigma, a combining
    /// accent, an emoji).
    static let pieces = ["a", "b", "A", "B", "k", "K", "\u{212A}", "i", "I", "\u{130}", "\u{131}", "s", "S", "\u{17F}", "e", "\u{E9}", "\u{C9}",
                         "e\u{301}", "\u{DF}", "\u{1E9E}", "\u{3A3}", "\u{3C3}", "\u{3C2}", "\u{3C2}\u{307}", " ", "%", "_", "\\", "\"", "'", "x", "\u{1F600}"]

    /// The reference: both sides lower-cased by Swift, final sigma (U+03C2) read as sigma
    /// (U+03C3), then a substring of Unicode scalars.
    static func matches(_ title: String, _ text: String) -> Bool {
        func folded(_ s: String) -> [Unicode.Scalar] { s.lowercased().unicodeScalars.map { $0 == "\u{3C2}" ? "\u{3C3}" : $0 } }
        let haystack = folded(title), needle = folded(text)
        guard needle.count <= haystack.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test("titles fold as String's searchFolded: ASCII byte by byte, other runs as String does, bad UTF-8 too", arguments: [1, 2] as [UInt64])
    func lowerFoldsAsString(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let db = try Database(path: ":memory:")
        for _ in 0..<400 {
            // The pieces, and the ASCII letters' edges (@ and [ lie either side of A...Z).
            var bytes = Array((0..<Int.random(in: 0...12, using: &rng)).map { _ in (Self.pieces + ["Z", "z", "@", "[", "`", "{", "\u{7F}"]).randomElement(using: &rng)! }.joined().utf8)
            // Now and then a byte that is no UTF-8 (a lone lead or continuation byte, 0xFF).
            if Bool.random(using: &rng), !bytes.isEmpty { bytes.insert([0xC3, 0x80, 0xFF].randomElement(using: &rng)!, at: Int.random(in: 0...bytes.count, using: &rng)) }
            let expected = Array(String(decoding: bytes, as: UTF8.self).searchFolded.utf8)
            #expect(bytes.withUnsafeBufferPointer { Database.searchFolded($0) } == expected, "\(bytes)")
            // The SQL function reads the title's bytes as they are: its fold holds the whole fold.
            let found = try db.query("SELECT moviecat_contains_any(CAST(? AS TEXT), CAST(? AS TEXT))", [.blob(bytes), .blob(expected)]) { try $0.int64(0) }
            #expect(found == [1], "\(bytes)")
        }
    }

    @Test("every scalar of two UTF-8 bytes folds as String's searchFolded, alone, between letters and after a lone lead byte (Latin-1's by a table of its own)")
    func twoByteScalarsFold() {
        for value in 0x80...0x7FF {
            let scalar = String(Unicode.Scalar(UInt32(value))!)
            for bytes in [Array(scalar.utf8), Array(("A" + scalar + "\u{C9}z").utf8), [0xE2] + Array(scalar.utf8), Array(scalar.utf8) + [0xC3]] {
                let expected = Array(String(decoding: bytes, as: UTF8.self).searchFolded.utf8)
                #expect(bytes.withUnsafeBufferPointer { Database.searchFolded($0) } == expected, "U+\(String(value, radix: 16)): \(bytes)")
            }
        }
    }

    static func randomText(_ rng: inout SeededRandom, length: ClosedRange<Int>) -> String {
        (0..<Int.random(in: length, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    /// A text to look for: often part of a stored title with its case changed, else random.
    static func randomPattern(_ titles: [String], _ rng: inout SeededRandom) -> String {
        if let title = titles.randomElement(using: &rng), Bool.random(using: &rng) {
            let scalars = Array(title.unicodeScalars)
            let start = Int.random(in: 0..<scalars.count, using: &rng)
            let end = Int.random(in: (start + 1)...min(scalars.count, start + 6), using: &rng)
            var text = String(String.UnicodeScalarView(scalars[start..<end]))
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: text = text.uppercased()
            case 1: text = text.lowercased()
            default: break
            }
            if !text.trimmingCharacters(in: .whitespaces).isEmpty { return text }
        }
        return "a" + randomText(&rng, length: 0...4)
    }

    @Test("every plan finds exactly the titles the Unicode reference finds, after writes of every kind", arguments: [1, 2, 3] as [UInt64])
    func titleSearchIsExact(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        // A bulk import first (its own path into the index), then row-by-row and raw SQL writes.
        var lines = ["title,year"]
        for i in 0..<150 { lines.append(CSV.row(["x" + Self.randomText(&rng, length: 1...8), String(1900 + i)])) }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: dir.appendingPathComponent("bulk.csv"))
        var options = ImportOptions()
        options.bulkLoad = .always
        _ = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent("bulk.csv").path])
        for round in 0..<8 {
            for _ in 0..<10 {
                let ids = try db.query("SELECT id FROM movies") { try $0.int64(0) }
                let id = ids.randomElement(using: &rng) ?? 1
                let title = "y" + Self.randomText(&rng, length: 1...8)
                switch Int.random(in: 0..<7, using: &rng) {
                case 0: _ = try? catalog.add(Movie(title: title, year: Int.random(in: 1900...2000, using: &rng)))
                case 1: try db.run("UPDATE OR IGNORE movies SET title = ? WHERE id = ?", [.text(title), .integer(id)])
                case 2: try db.withoutForeignKeys { try db.run("DELETE FROM movies WHERE id = ?", [.integer(id)]) }
                case 3: try db.withoutForeignKeys { try db.run("UPDATE OR IGNORE movies SET id = id + 5000 WHERE id = ?", [.integer(id)]) }
                case 4:
                    // A sqlite3 user's REPLACE over a stored id: the new title often shares trigrams
                    // with the one it replaces (which the index keeps, unseen by any trigger).
                    let stored = try db.scalar("SELECT title FROM movies WHERE id = ?", [.integer(id)]).map { "\($0)" } ?? ""
                    let shared = String(stored.prefix(Int.random(in: 0...5, using: &rng))) + title
                    try db.withoutForeignKeys {
                        try db.run("INSERT OR REPLACE INTO movies (id, title, year) VALUES (?, ?, ?)",
                                   [.integer(id), .text(shared.trimmingCharacters(in: .whitespaces)), .integer(Int64.random(in: 1900...2000, using: &rng))])
                    }
                case 5:
                    // REPLACE by the natural key: another movie's title and year, under a new id or by update.
                    let other = ids.randomElement(using: &rng) ?? 1
                    if Bool.random(using: &rng) {
                        try db.run("INSERT OR REPLACE INTO movies (id, title, year) SELECT ?, title, year FROM movies WHERE id = ?",
                                   [.integer(Int64.random(in: 8_000...8_100, using: &rng)), .integer(other)])
                    } else {
                        try db.run("UPDATE OR REPLACE movies SET (title, year) = (SELECT title, year FROM movies WHERE id = ?) WHERE id = ?",
                                   [.integer(other), .integer(id)])
                    }
                default:
                    // A bulk import onto stored movies: repeats rewrite stored titles (their case).
                    let stored = try db.query("SELECT title, year FROM movies ORDER BY random() LIMIT 3") {
                        [try $0.text(0).uppercased(), $0.optionalInt(1).map(String.init) ?? ""]
                    }
                    let rows = stored.map(CSV.row) + [CSV.row([title, "1999"]), CSV.row([title, "1999"])]
                    let file = dir.appendingPathComponent("more-\(round).csv")
                    try Data((["title,year"] + rows).joined(separator: "\n").appending("\n").utf8).write(to: file)
                    // Every row set aside now and then: the merge renames stored titles itself.
                    var again = options
                    if Bool.random(using: &rng) { again.bulkLoad = .alwaysMergingEveryRow }
                    _ = try? Importer(catalog: catalog, options: again, progressOutput: nil).run(paths: [file.path])
                }
            }
            try FacetStructureTests.reopen(catalog)
            #expect(MovieTitlesTable.isSound(db), "round \(round)")
            // One indexed row a movie: a title indexed twice would outlive its movie's delete.
            #expect(try MovieTitlesTable.indexedRows(db) == Int64(try db.intScalar("SELECT count(*) FROM movies")), "round \(round)")
            let stored = try db.query("SELECT id, title FROM movies ORDER BY id") { (try $0.int64(0), try $0.text(1)) }
            for _ in 0..<25 {
                let text = Self.randomPattern(stored.map(\.1), &rng)
                let expected = stored.filter { Self.matches($0.1, text) }.map(\.0)
                var query = MovieQuery(filters: FilterSet([.title(text)]))
                query.sort = .year
                query.limit = 1_000
                let plain = try catalog.db.query(query.countSQL.sql, query.countSQL.bindings) { try $0.int64(0) }
                #expect(plain == [Int64(expected.count)], "plain count of '\(text)' round \(round)")
                let planner = try QueryPlannerTests.planner(catalog, query.filters)
                for driver in planner.drivers(for: query) {
                    let sql = try planner.select(query, columns: "m.id", forcing: driver).sql
                    let ids = try db.query(sql.sql, sql.bindings) { try $0.int64(0) }.sorted()
                    #expect(ids == expected, "'\(text)' (\(text.unicodeScalars.map { String($0.value, radix: 16) })), \(driver), round \(round)")
                    if case .sortOrder = driver { continue }
                    // Counts too: an ASCII text's phrases count from the index alone.
                    let count = try planner.count(forcing: driver).sql
                    #expect(try db.intScalar(count.sql, count.bindings) == expected.count, "count of '\(text)', \(driver), round \(round)")
                }
                // Facets test titles in movies, both as a tally of the facet rows and in SQL.
                let counter = FacetCounter(catalog: catalog)
                #expect(try counter.tally(for: query.filters)?.matching == expected.count, "facets of '\(text)', round \(round)")
                let dated = Set(try db.query("SELECT id FROM movies WHERE year IS NOT NULL") { try $0.int64(0) })
                let decades = try counter.sqlCounts(for: query.filters).first { $0.facet == .year }?.values.reduce(0) { $0 + $1.count }
                #expect(decades == expected.filter(dated.contains).count, "facets in SQL of '\(text)', round \(round)")
            }
        }
    }

    @Test("facets test a short title by LIKE alone while no title has a letter LIKE does not fold, and look those titles up once one does")
    func facetTitleTest() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        func sql() throws -> String { try FacetCounter.rows(testing: FilterSet([.title("k")]), [], catalog.db).query.sql }
        // Each title checked for the two letters doubled a scan of 10M titles.
        let plain = try sql()
        #expect(!plain.contains("instr("), "\(plain)")
        _ = try catalog.add(Movie(title: "\u{212A}ING", year: 1990))
        let listed = try sql()
        #expect(listed.contains("movie_title_exceptions") && !listed.contains("instr("), "\(listed)")
        #expect(try FacetCounter(catalog: catalog).tally(for: FilterSet([.title("k")]))?.matching == 1)
    }

    @Test("the title index is asked only for ASCII texts of 3 or more characters",
          arguments: [("heart", true), ("he", false), ("h%_", true), ("caf\u{E9}", false), ("ab\"c", true)])
    func lookedUp(text: String, lookedUp: Bool) throws {
        #expect((MovieTitlesTable.matchQuery([text]) != nil) == lookedUp)
    }

    @Test("the FTS5 query is one quoted trigram each, lower case, AND-ed, texts OR-ed")
    func matchQuery() {
        #expect(MovieTitlesTable.matchQuery(["HeArt"]) == #"("hea" AND "ear" AND "art")"#)
        #expect(MovieTitlesTable.matchQuery(["a\"bc", "xyz"]) == #"("a""b" AND """bc") OR ("xyz")"#)
        #expect(MovieTitlesTable.matchQuery(["aaaa"]) == #"("aaa")"#)
    }

    @Test("with positions, each text is one quoted phrase in lower case, texts OR-ed")
    func phraseQuery() {
        #expect(MovieTitlesTable.matchQuery(["HeArt"], phrases: true) == #""heart""#)
        #expect(MovieTitlesTable.matchQuery(["a\"Bc", "xyz"], phrases: true) == #""a""bc" OR "xyz""#)
        #expect(MovieTitlesTable.matchQuery(["he", "heart"], phrases: true) == nil)
    }

    @Test("an index finds exactly only with positions and no case folding of its own", arguments: [
        ("CREATE VIRTUAL TABLE movie_titles USING fts5(\n    title, content = '', tokenize = 'trigram', detail = 'none', columnsize = 0)", false),
        ("CREATE VIRTUAL TABLE movie_titles USING fts5(title, content='', tokenize='trigram case_sensitive 1', DETAIL=column)", false),
        ("CREATE VIRTUAL TABLE movie_titles USING fts5(\n    title, content = '', tokenize = 'trigram', detail = 'full', columnsize = 0)", false),
        ("CREATE VIRTUAL TABLE movie_titles USING fts5(title, content='', tokenize='unicode61', detail='full')", false),
        ("CREATE VIRTUAL TABLE movie_titles USING fts5(\n    title, content = '', tokenize = 'trigram case_sensitive 1', detail = 'full', columnsize = 0)", true),
        ("CREATE VIRTUAL TABLE movie_titles USING fts5(title, content='', tokenize='trigram case_sensitive 1')", true),
    ])
    func findsExactly(definition: String, exact: Bool) {
        #expect(MovieTitlesTable.findsExactly(definition: definition) == exact)
    }

    @Test("the migrations index titles through the expression moviecat's own writes use")
    func oneExpression() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let triggers = try catalog.db.query("SELECT name, sql FROM sqlite_master WHERE name IN ('movie_titles_insert', 'movie_titles_delete', 'movie_titles_update')") {
            (try $0.text(0), try $0.text(1))
        }
        #expect(triggers.count == 3)
        for (name, sql) in triggers {
            #expect(sql.contains(MovieTitlesTable.indexed("NEW.title")) || sql.contains(MovieTitlesTable.indexed("OLD.title")), "\(name)")
            // Version 6's expression alone (without lower()) is not left in any of them.
            let rest = sql.replacing(MovieTitlesTable.indexed("NEW.title"), with: "").replacing(MovieTitlesTable.indexed("OLD.title"), with: "")
            #expect(!rest.contains(MovieTitlesTable.folded("NEW.title")) && !rest.contains(MovieTitlesTable.folded("OLD.title")), "\(name)")
        }
        let fill = try #require(CatalogSchema.migrations.first { $0.version == 10 })
        #expect(fill.sql.contains("SELECT id, " + MovieTitlesTable.indexed("title") + " FROM movies ORDER BY id"))
    }

    /// Titles whose search the letters of `pieces` make hard, and texts to look for in them.
    static let hardTitles = ["Heart of Stone", "\u{212A}ING OF HEARTS", "\u{130}stanbul", "Paper heart", "HEAR T", "100% Heart_Ache",
                             "Ho\u{17F}e and Hose", "Ho\u{17F}e"]
    static let hardTexts = ["heart", "kin", "ist", "stanbul", "% heart_", "art", "ear t", "ing of", "hose", "ose"]

    static func expectExactCounts(_ catalog: Catalog, exact: Bool, _ note: String) throws {
        let stored = try catalog.db.query("SELECT title FROM movies") { try $0.text(0) }
        for text in hardTexts {
            let planner = try QueryPlannerTests.planner(catalog, FilterSet([.title(text)]))
            #expect(planner.titleIsExact == exact, "\(note): \(text)")
            let count = try planner.count(forcing: .facet(.title)).sql
            #expect(try catalog.db.intScalar(count.sql, count.bindings) == stored.filter { matches($0, text) }.count, "\(note): \(text)")
        }
    }

    @Test("bytes SQLite decodes as a letter FTS5 would fold to ASCII (overlong UTF-8 written by a sqlite3 user) match nothing ASCII")
    func overlongBytes() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for title in Self.hardTitles { try catalog.add(Movie(title: title)) }
        // LONG S as E0 85 BF, C0 85 BF and F0 80 85 BF; KELVIN SIGN as F0 82 84 AA.
        try catalog.db.execute("""
            INSERT INTO movies (title, year) VALUES ('Ho' || CAST(x'E085BF' AS TEXT) || 'e', 2000), ('Ho' || CAST(x'C085BF' AS TEXT) || 'e', 2001),
                ('Ho' || CAST(x'F08085BF' AS TEXT) || 'e', 2002), (CAST(x'F08284AA' AS TEXT) || 'ING of hearts', 2003);
            """)
        try Self.expectExactCounts(catalog, exact: true, "overlong")
        #expect(try catalog.count(FilterSet([.title("hose")])) == 1)   // "Ho\u{17F}e and Hose"
    }

    @Test("with the stale log's trigger dropped, a REPLACE's old title is not counted after the next open")
    func unloggedReplace() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let id = try catalog.add(Movie(title: "Heart of Stone", year: 2000)).id
        try catalog.add(Movie(title: "Other", year: 2001))
        try catalog.db.execute("DROP TRIGGER movie_stale_on_insert")
        try catalog.db.run("INSERT OR REPLACE INTO movies (id, title, year) VALUES (?, 'Something Else', 2000)", [.integer(id)])
        try FacetStructureTests.reopen(catalog)
        #expect(try catalog.count(FilterSet([.title("heart")])) == 0)
        #expect(try catalog.count(FilterSet([.title("something")])) == 1)
        #expect(MovieTitlesTable.isSound(catalog.db))
    }

    /// A sqlite3 user's REPLACE over a stored id, then moviecat's open (the repair), then the movie
    /// deleted, retitled or renumbered: FTS5 pairs each 'delete' with one insert of the rowid, so a
    /// title indexed twice left a copy that merged segments brought back (QA: a title count one
    /// too high). The REPLACE's triggers now take the replaced title out themselves.
    @Test("a title REPLACEd over a stored id and later deleted, retitled or renumbered is not counted, after segments merge",
          arguments: ["DELETE FROM movies WHERE id = 2", "UPDATE movies SET title = 'Other' WHERE id = 2",
                      "UPDATE movies SET id = 900 WHERE id = 2", "INSERT OR REPLACE INTO movies (id, title, year) VALUES (2, 'Otherwise', 1999)"],
          ["HEART of stone", "heart of stone", "Heartless"])
    func replacedThenChanged(_ change: String, _ replacement: String) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 1...40 { try catalog.add(Movie(title: i == 2 ? "HEART of stone" : "Movie \(i)", year: 2000 + i % 20)) }
        let db = catalog.db
        try db.withoutForeignKeys {
            try db.run("INSERT OR REPLACE INTO movies (id, title, year) VALUES (2, ?, 2020)", [.text(replacement)])
        }
        try FacetStructureTests.reopen(catalog)
        try db.withoutForeignKeys { try db.execute(change) }
        try FacetStructureTests.reopen(catalog)
        for i in 1...40 { try catalog.add(Movie(title: "Filler \(i)", year: 1990)) }
        try db.execute("INSERT INTO movie_titles (movie_titles) VALUES ('optimize')")
        let expected = try db.intScalar("SELECT count(*) FROM movies WHERE instr(lower(title), 'heart')")
        #expect(try catalog.count(FilterSet([.title("heart")])) == expected, "\(change)")
        #expect(try MovieTitlesTable.indexedRows(db) == Int64(try db.intScalar("SELECT count(*) FROM movies")))
        #expect(MovieTitlesTable.isSound(db))
    }

    @Test("a catalog upgraded from version 11 with a title indexed twice gets its index made again")
    func copiesDroppedOnUpgrade() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 1...30 { try catalog.add(Movie(title: i == 2 ? "Heart" : "Movie \(i)", year: 2000)) }
        // What a repaired REPLACE left before version 12: a second copy of the title of movie 2.
        try catalog.db.execute("INSERT INTO movie_titles (rowid, title) VALUES (2, 'heart'); PRAGMA user_version = 11")
        #expect(try MovieTitlesTable.indexedRows(catalog.db) == 31)
        try catalog.close()
        let reopened = try Catalog(path: dir.appendingPathComponent("c.sqlite").path)
        #expect(try MovieTitlesTable.indexedRows(reopened.db) == 30)
        try reopened.db.execute("DELETE FROM movies WHERE id = 2")
        try reopened.db.execute("INSERT INTO movie_titles (movie_titles) VALUES ('optimize')")
        #expect(try reopened.count(FilterSet([.title("heart")])) == 0)
        #expect(try reopened.schemaVersion() == CatalogSchema.latestVersion)
    }

    @Test("an index without positions (version 6's, made again by hand) narrows, and the title test decides")
    func withoutPositions() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for title in Self.hardTitles { try catalog.add(Movie(title: title)) }
        try Self.expectExactCounts(catalog, exact: true, "positions")
        try catalog.db.execute("""
            DROP TABLE movie_titles;
            CREATE VIRTUAL TABLE movie_titles USING fts5(title, content = '', tokenize = 'trigram', detail = 'none', columnsize = 0);
            INSERT INTO movie_titles (rowid, title) SELECT id, \(MovieTitlesTable.folded("title")) FROM movies ORDER BY id;
            """)
        try Self.expectExactCounts(catalog, exact: false, "no positions")
    }

    @Test("a version 9 catalog has its title index made again with positions, and forgets the titles its log names",
          arguments: [false, true])
    func migratedFromVersion9(byShell: Bool) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for title in Self.hardTitles { try catalog.add(Movie(title: title)) }
        let id = try catalog.db.intScalar("SELECT min(id) FROM movies")
        // As version 9 left it, with a REPLACE logged: a title the old index held for movie `id`.
        try catalog.db.execute("""
            DROP TABLE movie_titles;
            CREATE VIRTUAL TABLE movie_titles USING fts5(title, content = '', tokenize = 'trigram', detail = 'none', columnsize = 0);
            INSERT INTO movie_titles (rowid, title) SELECT id, \(MovieTitlesTable.folded("title")) FROM movies ORDER BY id;
            INSERT INTO movie_titles (rowid, title) VALUES (\(id), 'Old Ghost Title');
            INSERT INTO movie_stale (id, title) VALUES (\(id), 'Old Ghost Title');
            PRAGMA user_version = 9
            """)
        if byShell {
            // As `sqlite3 catalog.sqlite < 0010_title_positions.sql` would.
            let migration = try #require(CatalogSchema.migrations.first { $0.version == 10 })
            try catalog.db.execute(migration.sql)
            #expect(try catalog.db.query("SELECT title FROM movie_stale") { $0.optionalText(0) } == [nil])
            let definition = try catalog.db.query("SELECT sql FROM sqlite_master WHERE name = 'movie_titles'") { try $0.text(0) }
            #expect(definition.count == 1 && MovieTitlesTable.findsExactly(definition: definition[0]))
        }
        try catalog.close()
        let reopened = try Catalog(path: catalog.path)
        defer { try? reopened.close() }
        #expect(try reopened.schemaVersion() == CatalogSchema.latestVersion)
        #expect(try reopened.db.intScalar("SELECT count(*) FROM movie_stale") == 0)
        #expect(MovieTitlesTable.isSound(reopened.db))
        try Self.expectExactCounts(reopened, exact: true, "migrated")
        #expect(try reopened.count(FilterSet([.title("ghost")])) == 0)
    }
}

extension TitleSearchTests {
    @Test("a bulk import keyed by IMDb id that renames stored movies moves them in the title index")
    func bulkRenameByIMDbID() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([
            "a.csv": "tconst,title,year\ntt0000001,Heart of Stone,1990\ntt0000002,Kelvin Days,1991\n",
            "b.csv": "tconst,title,year\ntt0000001,Solid Rock,1990\ntt0000003,Paper Heart,1992\ntt0000002,\u{212A}ELVIN NIGHTS,1991\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        var options = ImportOptions()
        options.bulkLoad = .always
        for file in ["a.csv", "b.csv"] {
            _ = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [dir.appendingPathComponent(file).path])
        }
        #expect(MovieTitlesTable.isSound(catalog.db))
        // Merges are left to later writes, a little at a time, never all at once.
        // Segments of 2 MB of terms, not FTS5's 1 MB: half as many lists for a phrase to read.
        #expect(try catalog.db.query("SELECT k, v FROM movie_titles_config WHERE k IN ('automerge', 'crisismerge', 'hashsize') ORDER BY k") {
            "\(try $0.text(0))=\(try $0.int64(1))"
        } == ["automerge=4", "crisismerge=\(MovieTitlesTable.crisisMerge)", "hashsize=\(2 << 20)"])
        // The chosen plan (a scan, at this size) and the title index must agree.
        func titles(_ text: String) throws -> [String] {
            let query = MovieQuery(filters: FilterSet([.title(text)]))
            let viaIndex = try QueryPlannerTests.planner(catalog, query.filters).select(query, columns: "m.title", forcing: .facet(.title)).sql
            let found = try catalog.movies(query).map(\.title)
            #expect(try catalog.db.query(viaIndex.sql, viaIndex.bindings) { try $0.text(0) } == found, "\(text)")
            return found
        }
        #expect(try titles("heart") == ["Paper Heart"])
        #expect(try titles("stone").isEmpty)
        #expect(try titles("rock") == ["Solid Rock"])
        #expect(try titles("kelvin") == ["\u{212A}ELVIN NIGHTS"])
        #expect(try titles("days").isEmpty)
    }
}

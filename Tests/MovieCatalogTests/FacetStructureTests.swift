import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// movie_facets stays exact under every write (moviecat's, and raw SQL as a sqlite3 user would
/// run it), and the one-scan counts equal the SQL counts and the reference model.
@Suite struct FacetStructureTests {
    static let genreCodes = ["action", "comedy", "drama", "horror", "war", "western"]

    /// A random movie of the pool (titles repeat, so imports update as well as insert).
    static func randomMovie(_ rng: inout SeededRandom) -> Movie {
        Movie(title: "Movie \(Int.random(in: 0..<60, using: &rng))",
              year: Bool.random(using: &rng) ? Int.random(in: 1950...2020, using: &rng) : nil,
              genres: genreCodes.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 },
              rating: Bool.random(using: &rng) ? Double(Int.random(in: 0...100, using: &rng)) / 10 : nil,
              votes: Bool.random(using: &rng) ? Int.random(in: 0...50_000, using: &rng) : nil,
              durationMinutes: Bool.random(using: &rng) ? Int.random(in: 30...240, using: &rng) : nil,
              certification: [nil, "R", "PG", "PG-13"].randomElement(using: &rng)!)
    }

    /// One random write: through moviecat's API, or raw SQL bypassing it.
    static func randomWrite(_ catalog: Catalog, _ dir: URL, _ rng: inout SeededRandom) throws {
        let db = catalog.db
        let ids = try db.query("SELECT id FROM movies") { try $0.int64(0) }
        let id = ids.randomElement(using: &rng) ?? 1
        let genre = Int64.random(in: 1...8, using: &rng)
        switch Int.random(in: 0..<19, using: &rng) {
        case 0: _ = try? catalog.add(randomMovie(&rng))
        case 1:
            var changes = MovieChanges()
            changes.values[.rating] = Bool.random(using: &rng) ? .real(Double(Int.random(in: 0...100, using: &rng)) / 10) : .null
            changes.addGenres = [genreCodes.randomElement(using: &rng)!]
            changes.removeGenres = [genreCodes.randomElement(using: &rng)!]
            _ = try? catalog.edit(ids: [id], changes)
        case 2: try? catalog.remove(ids: [id])
        case 3, 4:
            // An import, bulk or row by row, with repeats within itself and of stored movies.
            var rows: [String] = []
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let m = randomMovie(&rng)
                let year = m.year.map(String.init) ?? "", rating = m.rating.map { "\($0)" } ?? ""
                let minutes = m.durationMinutes.map(String.init) ?? ""
                rows.append([m.title, year, m.genres.joined(separator: "|"), rating, minutes, m.certification ?? ""].joined(separator: ","))
            }
            let file = dir.appendingPathComponent("in-\(UInt32.random(in: 0...UInt32.max, using: &rng)).csv")
            try Data(("title,year,genres,rating,duration,certification\n" + rows.joined(separator: "\n") + "\n").utf8).write(to: file)
            var options = ImportOptions()
            options.bulkLoad = [BulkLoad.always, .alwaysMergingEveryRow, .never].randomElement(using: &rng)!
            options.onDuplicate = Bool.random(using: &rng) ? .update : .skip
            _ = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [file.path])
        case 5: try db.run("UPDATE OR IGNORE movies SET rating = ?, year = ? WHERE id = ?",
                           [.real(Double(Int.random(in: 0...100, using: &rng)) / 10), .integer(Int64.random(in: 1900...2020, using: &rng)), .integer(id)])
        case 6: try db.run("INSERT OR IGNORE INTO movie_genres (movie_id, genre_id) VALUES (?, ?)", [.integer(id), .integer(genre)])
        case 7: try db.run("DELETE FROM movie_genres WHERE movie_id = ? AND genre_id = ?", [.integer(id), .integer(genre)])
        case 8: try db.run("UPDATE OR IGNORE movie_genres SET genre_id = ? WHERE movie_id = ?", [.integer(genre), .integer(id)])
        case 9:
            // A sqlite3 user's delete: no foreign keys, so the movie's links stay behind.
            try db.withoutForeignKeys { try db.run("DELETE FROM movies WHERE id = ?", [.integer(id)]) }
        case 10:
            // A sqlite3 user renumbers a movie (its links stay at the old id) and changes its votes.
            try db.withoutForeignKeys {
                try db.run("UPDATE OR IGNORE movies SET id = id + 1000, votes = ? WHERE id = ?",
                           [.integer(Int64.random(in: 0...9_999, using: &rng)), .integer(id)])
            }
        case 11: try db.run("UPDATE OR IGNORE movies SET title = title || ' (cut)' WHERE id = ?", [.integer(id)])   // (a cut may exist)
        case 13, 14:
            // A sqlite3 user's REPLACE, which deletes the movies in the way without their triggers:
            // another movie's title and year under a new id, or over a stored id, or given by update.
            let other = ids.randomElement(using: &rng) ?? 1, rating = SQLValue.real(Double(Int.random(in: 0...100, using: &rng)) / 10)
            try db.withoutForeignKeys {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: try db.run("INSERT OR REPLACE INTO movies (id, title, year, rating) SELECT ?, title, year, ? FROM movies WHERE id = ?",
                                   [.integer(Int64.random(in: 2_000...2_100, using: &rng)), rating, .integer(other)])
                case 1: try db.run("INSERT OR REPLACE INTO movies (id, title, year, rating) SELECT ?, title, year, ? FROM movies WHERE id = ?",
                                   [.integer(id), rating, .integer(other)])
                default: try db.run("UPDATE OR REPLACE movies SET (title, year) = (SELECT title, year FROM movies WHERE id = ?) WHERE id = ?",
                                    [.integer(other), .integer(id)])
                }
            }
        case 15: try db.run("INSERT OR REPLACE INTO movies (id, title, votes) VALUES (?, ?, ?)",
                            [.integer(id), .text(randomMovie(&rng).title), .integer(Int64.random(in: 0...9_999, using: &rng))])
        // Hand edits of movie_facets itself.
        case 16: try db.run("DELETE FROM movie_facets WHERE id = ?", [.integer(id)])
        case 17: try db.run("UPDATE OR IGNORE movie_facets SET id = id + 3000 WHERE id = ?", [.integer(id)])
        default: try db.run("UPDATE movies SET certification = ?, duration_minutes = NULL WHERE id = ?",
                            [.text(["R", "G", "NC-17"].randomElement(using: &rng)!), .integer(id)])
        }
    }

    /// Puts the derived tables right as the next command's open would (after REPLACE writes).
    static func reopen(_ catalog: Catalog) throws {
        try DerivedTables.ensure(catalog.db, migrator: CatalogSchema.migrator.get())
    }

    static func randomSet(_ rng: inout SeededRandom) -> FilterSet {
        FilterSet((0..<Int.random(in: 0...4, using: &rng)).map { _ -> MovieFilter in
            switch Int.random(in: 0..<10, using: &rng) {
            case 0, 1: return .genre(genreCodes.randomElement(using: &rng)!)
            case 2: return .excludeGenre(genreCodes.randomElement(using: &rng)!)
            case 3: return .rating(.bucket(Int.random(in: 0...10, using: &rng)))
            case 4: return .rating(.range(Double(Int.random(in: 0...60, using: &rng)) / 10, nil))
            case 5: return .duration(.hours(Int.random(in: 0...4, using: &rng)))
            case 6: return .year(.decade(1950 + 10 * Int.random(in: 0...7, using: &rng)))
            case 7: return .certification(["R", "PG", "PG-13", "G"].randomElement(using: &rng)!)
            case 8: return .votes(.range(Int.random(in: 0...5_000, using: &rng), nil))
            default:
                if Int.random(in: 0..<8, using: &rng) == 0 { return .imdb(String(format: "tt%07d", Int.random(in: 1...60, using: &rng))) }
                return .title(["movie 1", "5", "Movie 2"].randomElement(using: &rng)!)
            }
        })
    }

    @Test("after random writes, movie_facets is exact and one scan counts as SQL does", arguments: [1, 2, 3] as [UInt64])
    func exactUnderWrites(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<40 { _ = try? catalog.add(Self.randomMovie(&rng)) }
        let counter = FacetCounter(catalog: catalog)
        for round in 0..<25 {
            for _ in 0..<6 { try Self.randomWrite(catalog, dir, &rng) }
            try Self.reopen(catalog)
            #expect(try MovieFacetsTable.mismatches(catalog.db) == 0, "round \(round)")
            for _ in 0..<4 {
                let set = Self.randomSet(&rng)
                let tallied = try #require(try counter.talliedCounts(for: set))
                let sql = try counter.sqlCounts(for: set)
                // --count takes movie_facets too when it can: it must count as SQL over movies does.
                let plain = MovieQuery(filters: set).countSQL
                #expect(try catalog.count(set) == catalog.db.intScalar(plain.sql, plain.bindings), "count of \(set), round \(round)")
                for (a, b) in zip(tallied, sql) where a != b {
                    Issue.record("DIFF \(a.facet) under \(set), round \(round): one scan \(a.values.map { "\($0.value)=\($0.count)" }) sql \(b.values.map { "\($0.value)=\($0.count)" })")
                }
            }
        }
    }

    @Test("the SQL counts' selected elements count as the filter does, for values below zero past the CHECKs too")
    func negativeValuesSelected() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.add(Movie(title: "A", durationMinutes: 30))
        try catalog.add(Movie(title: "B", durationMinutes: 40))
        try catalog.db.execute("PRAGMA ignore_check_constraints = ON; UPDATE movies SET duration_minutes = -3 WHERE title = 'B'; PRAGMA ignore_check_constraints = OFF")
        let set = FilterSet([.duration(.hours(0))]), counter = FacetCounter(catalog: catalog)
        let selected = { (counts: [FacetCounts]) in counts.first { $0.facet == .duration }?.values.first { $0.selected }?.count }
        #expect(try catalog.count(set) == 1)
        let tallied = try #require(try counter.talliedCounts(for: set))
        #expect(selected(tallied) == 1)
        #expect(try selected(counter.sqlCounts(for: set)) == 1)
    }

    @Test("a genre beyond the bit set's 62 makes the counts come from SQL, and still right")
    func manyGenres() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<70 { try catalog.add(Movie(title: "M\(i)", genres: ["g\(i)", "drama"], rating: Double(i % 10))) }
        #expect(try MovieFacetsTable.mismatches(catalog.db) == 0)
        let counter = FacetCounter(catalog: catalog)
        let set = FilterSet([.rating(.bucket(3))])
        #expect(try counter.talliedCounts(for: set) == nil)
        let counts = try counter.counts(for: set)
        #expect(counts.first { $0.facet == .genre }?.values.first { $0.value == "g69" }?.count == nil, "g69 has rating 9")
        #expect(counts.first { $0.facet == .genre }?.values.first { $0.value == "g63" }?.count == 1)
        #expect(counts.first { $0.facet == .genre }?.values.first { $0.value == "drama" }?.count == 7)
        // A genre without a bit of its own is tested through movie_genres; others as bits.
        #expect(try catalog.countPlan(FilterSet([.genre("g69")])).sql.sql.contains("FROM movie_genres mg"))
        #expect(try catalog.count(FilterSet([.genre("g69"), .genre("g1")])) == 2)
        #expect(try catalog.countPlan(FilterSet([.genre("drama"), .rating(.bucket(3))])).sql.sql.contains("f.genres & ?"))
        #expect(try catalog.count(FilterSet([.genre("drama"), .rating(.bucket(3))])) == 7)
        #expect(try catalog.count(FilterSet([.excludeGenre("g1"), .rating(.bucket(1))])) == 6)
    }

    @Test("a genre a sqlite3 user gave id 0 or a negative id is counted too (from SQL)", arguments: [0, -5] as [Int64])
    func genreIDBelowOne(id: Int64) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<6 { try catalog.add(Movie(title: "M\(i)", genres: ["drama"], rating: Double(i))) }
        try catalog.db.run("INSERT INTO genres (id, code, name) VALUES (?, 'odd', 'Odd')", [.integer(id)])
        try catalog.db.execute("INSERT INTO movie_genres (movie_id, genre_id) SELECT id, \(id) FROM movies WHERE id % 2 = 0")
        #expect(try MovieFacetsTable.mismatches(catalog.db) == 0)
        let counter = FacetCounter(catalog: catalog)
        #expect(try counter.talliedCounts(for: FilterSet()) == nil)
        let counts = try counter.counts(for: FilterSet())
        #expect(counts.first { $0.facet == .genre }?.values.first { $0.value == "odd" }?.count == 3)
        #expect(try catalog.count(FilterSet([.genre("odd")])) == 3)
    }
}

extension FacetStructureTests {
    @Test("an import large beside the catalog rebuilds the sort indexes at the end, and they are back and used")
    func deferredSortIndexes() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<40 { try catalog.add(Movie(title: "M\(i)", imdbID: String(format: "tt%07d", i + 1))) }
        let before = try catalog.db.query("SELECT sql FROM sqlite_master WHERE tbl_name = 'movie_facets' AND type = 'index' ORDER BY name") { try $0.text(0) }
        let ratings = (0..<40).map { String(format: "tt%07d\t%.1f\t%d", $0 + 1, Double($0 % 10) + 0.5, $0 * 100) }
        let file = dir.appendingPathComponent("title.ratings.tsv")
        try Data((["tconst\taverageRating\tnumVotes"] + ratings).joined(separator: "\n").appending("\n").utf8).write(to: file)
        _ = try Importer(catalog: catalog, options: ImportOptions(), progressOutput: nil).run(paths: [file.path])
        #expect(try catalog.db.query("SELECT sql FROM sqlite_master WHERE tbl_name = 'movie_facets' AND type = 'index' ORDER BY name") { try $0.text(0) } == before)
        #expect(try MovieFacetsTable.mismatches(catalog.db) == 0)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_facets INDEXED BY movie_facets_votes WHERE votes >= 3000") == 10)
    }

    /// Ratings, then years and durations (bulk-loaded first, when `ratingsFirst` is false).
    @Test("an import large beside the catalog that updates and inserts, in several inputs, leaves movie_facets exact and its trigger back",
          arguments: [true, false])
    func deferredFacetRows(ratingsFirst: Bool) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 1...40 {
            try catalog.add(Movie(title: "M\(i)", year: 1990, rating: 5, durationMinutes: 90, imdbID: String(format: "tt%07d", i)))
        }
        var ratings = ["tconst\taverageRating\tnumVotes"]
        for i in 1...30 { ratings.append(String(format: "tt%07d\t%d.5\t%d", i, i % 10, i * 100)) }
        // Years and durations of some (one of them twice), and new movies.
        var more = ["imdb_id,title,year,duration"]
        for i in 21...60 { more.append(String(format: "tt%07d,M%d,%d,%d", i, i, 2000 + i, 100 + i)) }
        more.append("tt0000021,M21,1999,61")
        let files = [("title.ratings.tsv", ratings), ("more.csv", more)].map { name, lines in
            let url = dir.appendingPathComponent(name)
            try? Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
            return url.path
        }
        var options = ImportOptions()
        options.bulkLoad = ratingsFirst ? .never : .always
        let report = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: ratingsFirst ? files : files.reversed())
        #expect(report.total.inserted == 20)
        #expect(try MovieFacetsTable.mismatches(catalog.db) == 0, "every facet row follows its movie")
        let row21 = try catalog.db.query("SELECT rating, votes, year, minutes FROM movie_facets WHERE id = 21") { row in
            (0..<4).map { row.value(Int32($0)).description }
        }
        #expect(row21 == [["1.5", "2100", "1999", "61"]])
        let fresh = try Catalog(path: dir.appendingPathComponent("fresh.sqlite").path)
        let schema = "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master ORDER BY type, name"
        #expect(try catalog.db.query(schema) { try $0.text(0) } == fresh.db.query(schema) { try $0.text(0) }, "the trigger and indexes are back")
        // The trigger works again: a later update reaches movie_facets.
        try catalog.db.run("UPDATE movies SET rating = 9.9 WHERE id = 1")
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_facets WHERE id = 1 AND rating = 9.9") == 1)
    }
}

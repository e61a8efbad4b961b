import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The facet tally split over threads: the same counts as one scan, on one snapshot.
@Suite struct ParallelScanTests {
    @Test("titles alone that the title index finds exactly are tallied from its matches' rows; an IMDb id's through its index; other titles test every row of movies in id order",
          arguments: [([MovieFilter.title("ovie 1")], "t.rowid"), ([.title("ovie 1"), .title("Movie 22")], "t.rowid"), ([.title("ie")], "m.id"),
                      ([.title("ovie 1"), .votes(.range(10, nil))], "t.rowid"), ([.title("caf\u{E9}")], "m.id"), ([.votes(.range(10, nil))], "f.id"),
                      ([.imdb("tt0000003"), .title("ie")], "f.id")])
    func titleRows(_ elements: [MovieFilter], idColumn: String) throws {
        var rng = SeededRandom(seed: 4)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<200 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        try catalog.db.execute("UPDATE movies SET imdb_id = printf('tt%07d', id) WHERE id % 3 = 0")
        let rows = try FacetCounter.rows(testing: FilterSet(elements), [], catalog.db)
        let plan = try catalog.queryPlan(rows.query).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(rows.idColumn == idColumn)
        #expect(plan.contains { $0.hasPrefix("SCAN t VIRTUAL TABLE") } == (idColumn == "t.rowid"), "\(plan)")
        // Movies tests every title, each part its own range of them (no list of their ids made whole by every part).
        #expect(plan.contains { $0.hasPrefix("SCAN m") } == (idColumn == "m.id"), "\(plan)")
        #expect(plan.contains { $0.contains("movies_imdb_id") } == elements.contains { $0.facet == .imdb }, "\(plan)")
        #expect(!plan.contains { $0.contains("LIST SUBQUERY") } || elements.contains { $0.facet == .imdb }, "\(plan)")
        let set = FilterSet(elements + [.genre("drama")])
        var split = FacetCounter(catalog: catalog)
        split.parallelSpan = 1
        #expect(try split.talliedCounts(for: set) == FacetCounter(catalog: catalog).sqlCounts(for: set))
    }

    @Test("the genres' bits and the rows tallied come from one snapshot: a genre and its movie committed once the bits are read are not counted, split or not; nothing selected takes no write lock",
          arguments: [(1, false), (2, false), (2, true)])
    func genresOnTheRowsSnapshot(parts: Int, nothingSelected: Bool) throws {
        var rng = SeededRandom(seed: 9)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<200 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        let set = nothingSelected ? FilterSet() : FilterSet([.rating(.range(2, nil))])
        let before = try FacetCounter(catalog: catalog).sqlCounts(for: set)
        var counter = FacetCounter(catalog: catalog)
        counter.parallelSpan = 1
        counter.parallelParts = parts
        let path = catalog.db.path
        var wrote: Bool?
        counter.genresRead = {
            guard wrote == nil else { return }
            // Another process's write: it waits for no lock (a split holds the write lock).
            wrote = (try? Database(path: path)).flatMap { other in
                try? other.withBusyTimeout(0) {
                    try other.transaction {
                        try other.execute("""
                            INSERT INTO genres (code, name) VALUES ('noir', 'Noir');
                            INSERT INTO movies (id, title, rating) VALUES (10000, 'Late', 9);
                            INSERT INTO movie_genres (movie_id, genre_id) SELECT 10000, id FROM genres WHERE code = 'noir';
                            """)
                    }
                }
            } != nil
        }
        #expect(try counter.talliedCounts(for: set) == before)
        // One scan reads a snapshot the write did not change; a split's lock kept it out. Nothing
        // selected is counted from the stored blocks, unsplit: the writer is not kept waiting.
        let split = parts > 1 && !nothingSelected
        #expect(wrote == !split)
        if !split { #expect(try FacetCounter(catalog: catalog).talliedCounts(for: set) != before) }
    }

    @Test("split into parts, the tally equals one scan's, for random sets", arguments: [2, 3, 5])
    func partsAgree(parts: Int) throws {
        var rng = SeededRandom(seed: UInt64(parts))
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<300 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        // Ids with gaps, as deletes leave them.
        try catalog.db.run("DELETE FROM movies WHERE id % 7 = 0")
        var split = FacetCounter(catalog: catalog)
        split.parallelSpan = 1
        split.parallelParts = parts
        let single = FacetCounter(catalog: catalog)
        for _ in 0..<20 {
            let set = FacetStructureTests.randomSet(&rng)
            #expect(try split.talliedCounts(for: set) == single.talliedCounts(for: set), "\(set)")
            #expect(try split.talliedCounts(for: set) == single.sqlCounts(for: set), "\(set)")
        }
        // The parts cover every id once.
        let counts = try #require(try ParallelScan(db: catalog.db, parts: parts, minimumSpan: 1).run { db, ids in
            try db.intScalar("SELECT count(*) FROM movie_facets WHERE id BETWEEN ? AND ?", [.integer(ids.lowerBound), .integer(ids.upperBound)])
        })
        let total = try catalog.db.intScalar("SELECT count(*) FROM movie_facets")
        #expect(counts.count == parts && counts.reduce(0, +) == total)
    }

    @Test("a count split by id range equals the plain count, scans and title searches alike", arguments: [2, 3])
    func countsAgree(parts: Int) throws {
        var rng = SeededRandom(seed: UInt64(10 + parts))
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<300 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        try catalog.db.run("DELETE FROM movies WHERE id % 5 = 0")
        let split = ParallelScan(db: catalog.db, parts: parts, minimumSpan: 1)
        var splitDrivers: Set<String> = []
        for _ in 0..<40 {
            var set = FacetStructureTests.randomSet(&rng)
            // Two letters are too few for the title index: movies are scanned in id order then.
            if Bool.random(using: &rng) { set.insert(.title(["vie 42", "ovie 7", "Movie 1", "ie", "e 4"].randomElement(using: &rng)!)) }
            let plain = MovieQuery(filters: set).countSQL
            #expect(try catalog.count(set, split: split) == catalog.db.intScalar(plain.sql, plain.bindings), "\(set)")
            if let column = try catalog.countPlan(set).idOrder { splitDrivers.insert(column) }
        }
        // Every kind of split was taken: movie_facets scanned, the title index, movies scanned.
        #expect(splitDrivers == ["f.id", "t.rowid", "m.id"])
    }

    @Test("parts see one snapshot and cover every id, while another connection keeps writing")
    func oneSnapshot() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<40 { try catalog.add(Movie(title: "M\(i)")) }
        let stop = StopFlag()
        let path = catalog.path
        let writer = Thread {
            guard let db = try? Database(path: path) else { return }
            var i = 0
            while !stop.isRaised {
                i += 1
                // New ids above the range the scan may have read, and deletes below it.
                try? db.run("INSERT INTO movies (title) VALUES (?)", [.text("W\(i)")])
                if i % 3 == 0 { try? db.run("DELETE FROM movies WHERE id = (SELECT min(id) FROM movies)") }
                // A breath between writes: a writer that always holds the lock (as on a machine busy
                // with the other tests) leaves the scan no chance to split, which it then rightly declines.
                usleep(200)
            }
            try? db.close()
        }
        writer.start()
        defer { stop.raise() }
        var splits = 0, scans = 0
        // 150 scans, and more while none has split: on a machine busy with the other tests the
        // writer holds the lock far more often (a full run once saw no split in 150).
        while scans < 150 || (splits == 0 && scans < 5_000) {
            scans += 1
            guard let parts = try ParallelScan(db: catalog.db, parts: 3, minimumSpan: 1).run({ db, ids in
                (try db.intScalar("SELECT count(*) FROM movie_facets WHERE id BETWEEN ? AND ?", [.integer(ids.lowerBound), .integer(ids.upperBound)]),
                 try db.intScalar("SELECT count(*) FROM movie_facets"))
            }) else { continue }
            splits += 1
            #expect(Set(parts.map(\.1)).count == 1, "the parts read different snapshots: \(parts)")
            #expect(parts.map(\.0).reduce(0, +) == parts[0].1, "the ranges missed ids: \(parts)")
        }
        #expect(splits > 0, "never split: the writer always held the lock")
    }

    @Test("a part that cannot open its connection (no file descriptor to spare, say) leaves the count to one connection")
    func failedPart() throws {
        var rng = SeededRandom(seed: 21)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<100 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        let set = FilterSet([.genre("drama")])
        let plain = MovieQuery(filters: set).countSQL
        let split = ParallelScan(db: catalog.db, parts: 2, minimumSpan: 1) { _ in
            throw DatabaseError(code: 14, message: "unable to open database file")
        }
        #expect(throws: DatabaseError.self) { _ = try split.run { db, _ in try db.intScalar("SELECT count(*) FROM movie_facets") } }
        #expect(try catalog.count(set, split: split) == catalog.db.intScalar(plain.sql, plain.bindings))
    }

    @Test("ids spread over all of Int64 (a sqlite3 user's) are counted, split or not, without overflow",
          arguments: [[Int64.min + 1, -1, 0, Int64.max], [1, 1 << 62, Int64.max], [-(1 << 61), 1 << 61], [Int64.max - 10, Int64.max]])
    func extremeIDs(ids: [Int64]) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for (i, id) in ids.enumerated() {
            try catalog.db.run("INSERT INTO movies (id, title, year) VALUES (?, ?, 2000)", [.integer(id), .text("Far Heart \(i)")])
        }
        for parts in [2, 3, 4] {
            let split = ParallelScan(db: catalog.db, parts: parts, minimumSpan: 1)
            let counts = try split.run { db, range in
                try db.intScalar("SELECT count(*) FROM movie_facets WHERE id BETWEEN ? AND ?", [.integer(range.lowerBound), .integer(range.upperBound)])
            }
            if let counts { #expect(counts.reduce(0, +) == ids.count, "\(parts) parts") }
            for set in [FilterSet(), FilterSet([.title("heart")]), FilterSet([.genre("drama")])] {
                let plain = MovieQuery(filters: set).countSQL
                #expect(try catalog.count(set, split: split) == catalog.db.intScalar(plain.sql, plain.bindings), "\(set), \(parts) parts")
            }
        }
    }

    @Test("fewer ids than parts: not split; a few more: every id once", arguments: [1, 3, 4, 5, 9])
    func smallSpans(movies: Int) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<movies { try catalog.add(Movie(title: "M\(i)", genres: ["drama"])) }
        let counts = try ParallelScan(db: catalog.db, parts: 4, minimumSpan: 1).run { db, ids in
            try db.intScalar("SELECT count(*) FROM movie_facets WHERE id BETWEEN ? AND ?", [.integer(ids.lowerBound), .integer(ids.upperBound)])
        }
        if movies < 4 {
            #expect(counts == nil)
        } else {
            #expect(counts?.reduce(0, +) == movies)
        }
        var counter = FacetCounter(catalog: catalog)
        (counter.parallelSpan, counter.parallelParts) = (1, 4)
        #expect(try counter.counts(for: FilterSet()).first { $0.facet == .genre }?.values.first?.count == movies)
    }

    @Test("while another connection writes, the scan is not split and does not wait")
    func busyCatalogScansAlone() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<50 { try catalog.add(Movie(title: "M\(i)", genres: ["drama"], rating: Double(i % 10))) }
        let writer = try Database(path: catalog.path)
        try writer.execute("BEGIN IMMEDIATE")
        defer { try? writer.execute("ROLLBACK") }
        let scan = ParallelScan(db: catalog.db, parts: 2, minimumSpan: 1)
        let started = Date()
        let result = try scan.run { _, _ in 1 }
        #expect(result == nil)
        #expect(Date().timeIntervalSince(started) < 5, "it waited for the lock")
        var counter = FacetCounter(catalog: catalog)
        counter.parallelSpan = 1
        #expect(try counter.counts(for: FilterSet()).first { $0.facet == .genre }?.values.first?.count == 50)
    }
}

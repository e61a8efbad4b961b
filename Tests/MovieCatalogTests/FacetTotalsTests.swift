import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// movie_facet_totals: a stored block is never stale, the counts with nothing selected equal the
/// SQL counts whichever blocks are stored, and what the table holds is what the counts read.
@Suite struct FacetTotalsTests {
    /// The stored blocks whose counts (when not NULL) differ from a tally of their rows now, or
    /// whose packed rows (when not NULL) differ from a packing of them.
    static func staleBlocks(_ db: Database) throws -> [Int64] {
        let stored = try db.query("SELECT block, counts, packed FROM movie_facet_totals WHERE counts IS NOT NULL OR packed IS NOT NULL") { row in
            (try row.int64(0), row.withBlob(1) { $0.map { Array($0) } }, row.withBlob(2) { $0.map { Array($0) } })
        }
        return try stored.filter { block, counts, packed in
            var tally = FacetTally.nothingSelected, rows = PackedFacetRows()
            try db.forEachRow(FacetTotals.rows, [.integer(FacetTotals.ids(block, block).lowerBound), .integer(FacetTotals.ids(block, block).upperBound)]) { row in
                row.withFacetRow(from: 0) {
                    tally.add(genres: $0, rating: $1, minutes: $2, year: $3, certification: $4)
                    rows.add(genres: $0, rating: $1, minutes: $2, year: $3, certification: $4)
                }
            }
            return (counts != nil && tally.totals() != counts) || (packed != nil && rows.bytes() != packed)
        }.map(\.0)
    }

    /// The blocks that have facet rows.
    static func blocksWithRows(_ db: Database) throws -> Set<Int64> {
        Set(try db.query("SELECT DISTINCT id >> 12 FROM movie_facets") { try $0.int64(0) })
    }

    /// A catalog of `count` random movies whose ids are spread over several blocks.
    static func spreadCatalog(_ count: Int, seed: UInt64) throws -> (Catalog, URL, SeededRandom) {
        var rng = SeededRandom(seed: seed)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        for _ in 0..<count { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        // Ids from 1 to about 7 blocks on (and one below zero), as a sqlite3 user may number them.
        try catalog.db.withoutForeignKeys {
            try catalog.db.execute("UPDATE movies SET id = id * 997 WHERE id % 5 <> 0; UPDATE movies SET id = -id WHERE id = 5")
        }
        try FacetStructureTests.reopen(catalog)
        return (catalog, dir, rng)
    }

    @Test("after random writes, no stored block is stale and the counts with nothing selected are SQL's", arguments: [1, 2, 3, 4] as [UInt64])
    func exactUnderWrites(seed: UInt64) throws {
        let (catalog, dir, start) = try Self.spreadCatalog(40, seed: seed)
        var rng = start
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db, counter = FacetCounter(catalog: catalog)
        var fromTotals = 0
        for round in 0..<30 {
            for _ in 0..<4 {
                if Int.random(in: 0..<4, using: &rng) == 0 {
                    // A sqlite3 user moves a movie to another block.
                    let id = try db.query("SELECT id FROM movies") { try $0.int64(0) }.randomElement(using: &rng) ?? 1
                    try db.withoutForeignKeys {
                        try db.run("UPDATE OR IGNORE movies SET id = id + ? WHERE id = ?", [.integer(4096 * Int64.random(in: -2...3, using: &rng)), .integer(id)])
                    }
                } else {
                    try FacetStructureTests.randomWrite(catalog, dir, &rng)
                }
            }
            // As the next command's open would (it puts right what a REPLACE left behind).
            try FacetStructureTests.reopen(catalog)
            #expect(try Self.staleBlocks(db) == [], "round \(round)")
            #expect(try MovieFacetsTable.mismatches(db) == 0, "round \(round)")
            if try FacetTotals.tally(FacetTally.nothingSelected, db, .totals) != nil { fromTotals += 1 }
            let tallied = try #require(try counter.talliedCounts(for: FilterSet()))
            for (a, b) in zip(tallied, try counter.sqlCounts(for: FilterSet())) where a != b {
                Issue.record("\(a.facet), round \(round): stored blocks and rows \(a.values.map { "\($0.value)=\($0.count)" }), SQL \(b.values.map { "\($0.value)=\($0.count)" })")
            }
        }
        // Most rounds read stored blocks (moviecat's writes store them again; raw SQL leaves gaps).
        #expect(fromTotals > 10, "only \(fromTotals) of 30 rounds counted from stored blocks")
    }

    @Test("every moviecat write leaves every block with facet rows stored", arguments: ["add", "edit", "remove", "import", "seed"])
    func writesFill(_ write: String) throws {
        let (catalog, dir, _) = try Self.spreadCatalog(60, seed: 9)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        // A sqlite3 user's edits leave their blocks without counts.
        try db.execute("UPDATE movies SET rating = 1.5 WHERE id % 3 = 0")
        #expect(try db.intScalar("SELECT count(*) FROM movie_facet_totals") < Self.blocksWithRows(db).count)
        switch write {
        case "add": try catalog.add(Movie(title: "One More", genres: ["drama"], rating: 7))
        case "edit":
            var changes = MovieChanges()
            changes.values[.rating] = .real(3)
            try catalog.edit(ids: [try db.query("SELECT max(id) FROM movies") { try $0.int64(0) }[0]], changes)
        case "remove": try catalog.remove(ids: [try db.query("SELECT max(id) FROM movies") { try $0.int64(0) }[0]])
        case "import":
            let file = dir.appendingPathComponent("in.csv")
            try Data("title,year,genres,rating\nImported,1999,War,8.5\nMovie 1,,Drama,2\n".utf8).write(to: file)
            _ = try Importer(catalog: catalog, options: ImportOptions(), progressOutput: nil).run(paths: [file.path])
        default: try catalog.seed()
        }
        let stored = Set(try db.query("SELECT block FROM movie_facet_totals") { try $0.int64(0) })
        #expect(stored == (try Self.blocksWithRows(db)))
        #expect(try Self.staleBlocks(db) == [])
    }

    /// Into an empty catalog the appended rows are counted into their blocks as they are written;
    /// repeats folded in memory, merged at the end (a block's totals deleted and counted again)
    /// and rows in blocks with set-aside rows must all leave exact totals.
    @Test("a bulk load into an empty catalog stores its blocks; one beside stored movies forgets those it appended to",
          arguments: [0, 50], [BulkLoad.always, .alwaysHoldingFewRows, .alwaysMergingEveryRow])
    func bulkLoads(stored: Int, mode: BulkLoad) throws {
        var rng = SeededRandom(seed: 5)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<stored { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        var rows = ["title,year,genres,rating,duration,certification"]
        for i in 0..<9_000 {
            rows.append("Bulk \(i),\(1950 + i % 70),\(["Drama", "War|Comedy", ""][i % 3]),\(Double(i % 100) / 10),\(60 + i % 120),\(["R", "PG", ""][i % 3])")
            // Repeats next to their rows (folded while held), one across a block's edge.
            if i % 1_000 == 999 || i == 4_095 { rows.append("bulk \(i),\(1950 + i % 70),Horror,9.5,200,NC-17") }
        }
        // Repeats far from their rows (set aside and merged), in the first block and the second.
        rows += ["Bulk 7,\(1950 + 7 % 70),Horror,,,", "Bulk 4100,\(1950 + 4100 % 70),Western|Drama,1.0,90,G"]
        let file = dir.appendingPathComponent("bulk.csv")
        try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: file)
        var options = ImportOptions()
        options.bulkLoad = mode
        _ = try Importer(catalog: catalog, options: options, progressOutput: nil).run(paths: [file.path])
        let db = catalog.db
        #expect(try db.intScalar("SELECT count(*) FROM movies WHERE title LIKE 'Bulk %'") == 9_000)
        #expect(try db.intScalar("SELECT count(*) FROM movies WHERE title IN ('bulk 999', 'bulk 4095') AND rating = 9.5") == 2, "the last repeat wins")
        #expect(Set(try db.query("SELECT block FROM movie_facet_totals") { try $0.int64(0) }) == (try Self.blocksWithRows(db)))
        #expect(try Self.staleBlocks(db) == [])
        let counter = FacetCounter(catalog: catalog)
        #expect(try FacetTotals.tally(FacetTally.nothingSelected, db, .totals) != nil)
        #expect(try counter.talliedCounts(for: FilterSet()) == (try counter.sqlCounts(for: FilterSet())))
    }

    @Test("the counts with nothing selected are read from the stored blocks")
    func storedBlocksAreRead() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<10 { try catalog.add(Movie(title: "M\(i)", genres: ["drama"], rating: 7.5)) }
        let counter = FacetCounter(catalog: catalog)
        let rating = { try counter.talliedCounts(for: FilterSet())?.first { $0.facet == .rating }?.values.map { "\($0.value)=\($0.count)" } }
        #expect(try rating() == ["7=10"])
        // A block of other counts, written past the triggers: the counts follow it, not the rows.
        var tally = FacetTally.nothingSelected
        tally.ratingBuckets[2] = 4
        let blob = try #require(tally.totals())
        try catalog.db.run("UPDATE movie_facet_totals SET counts = ? WHERE block = 0", [.blob(blob)])
        #expect(try rating() == ["2=4"])
        // NULL counts, and bytes that are not the encoding, are tallied from the rows instead.
        for counts: SQLValue in [.null, .blob([1, 2, 3]), .blob(blob + [5]), .blob([])] {
            try catalog.db.run("UPDATE movie_facet_totals SET counts = ? WHERE block = 0", [counts])
            #expect(try rating() == ["7=10"], "\(counts)")
        }
    }

    @Test("a block's counts go through the encoding unchanged; values it has no place for are not stored")
    func encoding() throws {
        var rng = SeededRandom(seed: 3)
        var tally = FacetTally.nothingSelected
        for _ in 0..<500 {
            let m = FacetStructureTests.randomMovie(&rng)
            let genres = Int64.random(in: 0...(1 << 62), using: &rng)
            Array((m.certification ?? "").utf8).withUnsafeBufferPointer { cert in
                tally.add(genres: genres, rating: m.rating, minutes: m.durationMinutes, year: m.year, certification: m.certification == nil ? nil : cert)
            }
        }
        let blob = try #require(tally.totals())
        var copy = FacetTally.nothingSelected
        #expect(blob.withUnsafeBytes { copy.add(totals: $0) })
        #expect(copy.totals() == blob)
        #expect(copy.result().counts == tally.result().counts)
        // A rating of 11, a year before 1800, a certification of 256 bytes: not in the arrays.
        let long = Array(repeating: UInt8(ascii: "X"), count: 256)
        for (rating, year, cert) in [(11.0, 2000, [UInt8]("R".utf8)), (5, 1799, Array("R".utf8)), (5, 2000, long)] {
            var odd = FacetTally.nothingSelected
            cert.withUnsafeBufferPointer { odd.add(genres: 1, rating: rating, minutes: 90, year: year, certification: $0) }
            #expect(odd.totals() == nil, "\(rating) \(year) \(cert.count)")
        }
    }

    @Test("runs of blocks without counts", arguments: [
        (0...9_000, [Int64](), [0...2] as [ClosedRange<Int64>]),
        (0...9_000, [0, 1, 2], []),
        (0...9_000, [1], [0...0, 2...2]),
        (-5_000...20_000, [-1, 2, 4], [-2...(-2), 0...1, 3...3]),
        (Int64.max - 10...Int64.max, [], [(Int64.max >> 12)...(Int64.max >> 12)]),
    ] as [(ClosedRange<Int64>, [Int64], [ClosedRange<Int64>])])
    func uncoveredRuns(ids: ClosedRange<Int64>, covered: [Int64], expected: [ClosedRange<Int64>]) {
        #expect(FacetTotals.uncovered(ids, covered) == expected)
    }

    @Test("years and durations past the CHECKs (a sqlite3 user's) are counted, stored or not, without overflow")
    func extremeValues() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<8 { try catalog.add(Movie(title: "M\(i)", year: 1990, genres: ["drama"], rating: 5, durationMinutes: 100)) }
        try catalog.db.execute("""
            PRAGMA ignore_check_constraints = ON;
            UPDATE movies SET year = -9223372036854775808 WHERE id = 1;
            UPDATE movies SET year = 9223372036854775807, duration_minutes = 9223372036854775807 WHERE id = 2;
            UPDATE movies SET year = -5, duration_minutes = -9223372036854775808, rating = 1e300 WHERE id = 3;
            PRAGMA ignore_check_constraints = OFF
            """)
        // moviecat's next write counts the block (it has no place for these values: NULL counts).
        try catalog.add(Movie(title: "After", year: 2000))
        #expect(try catalog.db.query("SELECT counts IS NULL FROM movie_facet_totals") { try $0.int64(0) } == [1])
        let counter = FacetCounter(catalog: catalog)
        #expect(try counter.talliedCounts(for: FilterSet()) == (try counter.sqlCounts(for: FilterSet())))
    }

    @Test("facets stores the blocks a sqlite3 user's write left without a row, when there are several and the write lock is free; blocks without facet rows (sparse ids) are not missing")
    func readStoresMissingBlocks() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        // 100 movies, one a block, and the spread ones' empty blocks between.
        try catalog.db.execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
            INSERT INTO movies (id, title, year, rating) SELECT i * 4096 + i, 'M' || i, 1900 + i, i % 10 FROM n;
            INSERT INTO movies (id, title) VALUES (1000000000, 'Far');
            """)
        try catalog.db.transaction { try FacetTotals.fill(catalog.db) }
        #expect(try FacetTotals.missingBlocks(catalog.db) == 0)
        let counter = FacetCounter(catalog: catalog)
        func stored() throws -> Int { try catalog.db.intScalar("SELECT count(*) FROM movie_facet_totals") }
        #expect(try stored() == 101)
        // A write that touches every block: all missing, stored again by the next facets.
        try catalog.db.execute("UPDATE movies SET votes = 7")
        #expect(try stored() == 0)
        #expect(try FacetTotals.missingBlocks(catalog.db) == FacetTotals.worthStoring)
        #expect(try counter.counts(for: FilterSet()) == (try counter.sqlCounts(for: FilterSet())))
        #expect(Set(try catalog.db.query("SELECT block FROM movie_facet_totals") { try $0.int64(0) }) == (try Self.blocksWithRows(catalog.db)))
        #expect(try Self.staleBlocks(catalog.db) == [])
        #expect(try FacetTotals.missingBlocks(catalog.db) == 0)
        // A few blocks' rows gone: tallied from their rows, nothing written.
        try catalog.db.execute("UPDATE movies SET votes = 8 WHERE id IN (4097, 8194, 1000000000)")
        // The far one lies past the 64 empty blocks probed after the last stored one.
        #expect(try FacetTotals.missingBlocks(catalog.db) == 2)
        #expect(try FacetTotals.missingBlocks(catalog.db, probes: 1_000_000) == 3)
        #expect(try counter.counts(for: FilterSet()) == (try counter.sqlCounts(for: FilterSet())))
        #expect(try stored() == 98)
        // Probes are bounded: past them, no block is looked for.
        #expect(try FacetTotals.missingBlocks(catalog.db, probes: 1) == 1)
        #expect(try FacetTotals.missingBlocks(catalog.db, probes: 0) == 0)
    }

    @Test("with the write lock held elsewhere, the next open and facets answer at once, storing nothing")
    func readsDoNotWrite() throws {
        let (catalog, dir, _) = try Self.spreadCatalog(30, seed: 4)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A sqlite3 user's write that touches every block: the table is empty.
        try catalog.db.execute("UPDATE movies SET votes = 7")
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_facet_totals") == 0)
        let other = try Database(path: catalog.path)
        defer { try? other.close() }
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }
        let counter = FacetCounter(catalog: catalog)
        try catalog.db.withBusyTimeout(0) {
            try FacetStructureTests.reopen(catalog)
        }
        // facets tries to store the blocks: the lock is taken, so it tallies their rows at once.
        #expect(try counter.counts(for: FilterSet()) == (try counter.sqlCounts(for: FilterSet())))
        #expect(try catalog.db.intScalar("SELECT count(*) FROM movie_facet_totals") == 0)
    }

    @Test("with a unique index of a sqlite3 user's own on movie_facets, no stored block is trusted")
    func userUniqueIndex() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<8 { try catalog.add(Movie(title: "M\(i)", genres: ["drama"], votes: i)) }
        #expect(try FacetTotals.tally(FacetTally.nothingSelected, catalog.db, .totals) != nil)
        try catalog.db.execute("CREATE UNIQUE INDEX mine ON movie_facets (votes)")
        #expect(try FacetTotals.tally(FacetTally.nothingSelected, catalog.db, .totals) == nil)
        // A REPLACE through it deletes movie 3's facet row without the trigger: the rows are counted.
        try catalog.db.execute("INSERT OR REPLACE INTO movie_facets (id, genres, votes) VALUES (4000, 0, 2)")
        let counter = FacetCounter(catalog: catalog)
        #expect(try counter.talliedCounts(for: FilterSet())?.first { $0.facet == .genre }?.values.first?.count == 7)
    }

    @Test("a catalog of version 7 has its blocks counted when it is migrated")
    func migratedFromVersion7() throws {
        let (catalog, dir, _) = try Self.spreadCatalog(30, seed: 6)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("""
            DROP TABLE movie_facet_totals; DROP TRIGGER movie_facet_totals_insert;
            DROP TRIGGER movie_facet_totals_update; DROP TRIGGER movie_facet_totals_delete;
            PRAGMA user_version = 7
            """)
        try catalog.close()
        let reopened = try Catalog(path: catalog.path)
        defer { try? reopened.close() }
        #expect(try reopened.schemaVersion() == CatalogSchema.latestVersion)
        #expect(Set(try reopened.db.query("SELECT block FROM movie_facet_totals") { try $0.int64(0) }) == (try Self.blocksWithRows(reopened.db)))
        #expect(try Self.staleBlocks(reopened.db) == [])
    }
}

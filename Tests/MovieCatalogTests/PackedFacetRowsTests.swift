import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// movie_facet_totals' packed rows (schema version 9): a packed block tallies exactly as its rows
/// do under any set, a value without a place in the encoding leaves the block to its rows, and
/// the counts of a selection read the stored blocks, split over parts at their edges or not.
@Suite struct PackedFacetRowsTests {
    static let bitOfGenre = Dictionary(uniqueKeysWithValues: FacetStructureTests.genreCodes.enumerated().map { ($1, Int64(1) << Int64($0)) })

    struct Row {
        var genres: Int64, rating: Double?, minutes: Int?, year: Int?, certification: [UInt8]?
    }

    /// Rows as imports write them, or (`odd`) with values past the CHECKs a sqlite3 user can write.
    static func randomRows(_ rng: inout SeededRandom, count: Int, odd: Bool) -> [Row] {
        (0..<count).map { _ in
            var row = Row(genres: Int64.random(in: 0..<64, using: &rng),
                          rating: Bool.random(using: &rng) ? Double(Int.random(in: 0...100, using: &rng)) / 10 : nil,
                          minutes: Bool.random(using: &rng) ? Int.random(in: 1...400, using: &rng) : nil,
                          year: Bool.random(using: &rng) ? Int.random(in: 1870...2100, using: &rng) : nil,
                          certification: [nil, "R", "PG", "PG-13", "Tout public"].randomElement(using: &rng)!.map { Array($0.utf8) })
            if odd, Int.random(in: 0..<4, using: &rng) == 0 {
                row.rating = [7.25, 1e300, -0.0, -3, 25.5, 0.30000000000000004].randomElement(using: &rng)!
                row.minutes = [70_000, -3, Int.max, 0].randomElement(using: &rng)!
                row.year = [-5, Int.max, Int.min + 1, 65_535].randomElement(using: &rng)!
                row.genres = [Int64.min, -1, MovieFacetsTable.overflowBit | 3].randomElement(using: &rng)!
                row.certification = [Array("Ü 12".utf8), Array(repeating: UInt8(ascii: "x"), count: 255), []].randomElement(using: &rng)!
            }
            return row
        }
    }

    static func tally(_ set: FilterSet, _ rows: [Row]) -> FacetTally {
        let excluded = set.elements(of: .excludeGenre).compactMap { bitOfGenre[$0.value] }.reduce(0, |)
        var tally = FacetTally(set: set, bitOfGenre: bitOfGenre)!
        for row in rows where row.genres & excluded == 0 { add(row, to: &tally) }
        return tally
    }

    static func add(_ row: Row, to tally: inout FacetTally) {
        withCertification(row) { tally.add(genres: row.genres, rating: row.rating, minutes: row.minutes, year: row.year, certification: $0) }
    }

    static func pack(_ rows: [Row]) -> [UInt8]? {
        var packed = PackedFacetRows()
        for row in rows {
            withCertification(row) { packed.add(genres: row.genres, rating: row.rating, minutes: row.minutes, year: row.year, certification: $0) }
        }
        return packed.bytes()
    }

    static func withCertification<R>(_ row: Row, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let certification = row.certification else { return body(nil) }
        return certification.withUnsafeBufferPointer { body($0) }
    }

    static func sameResult(_ a: FacetTally, _ b: FacetTally) -> Bool {
        a.result().counts == b.result().counts && a.result().elements == b.result().elements
    }

    @Test("a packed block tallies as its rows do, under random sets; a count's tally finds the same matches alone", arguments: [false, true])
    func roundTrip(odd: Bool) throws {
        var rng = SeededRandom(seed: odd ? 11 : 12)
        for _ in 0..<12 {
            let rows = Self.randomRows(&rng, count: Int.random(in: 0...4096, using: &rng), odd: odd)
            let bytes = try #require(Self.pack(rows))
            if !odd {
                // The narrow form: 14 bytes a row, beside the header and the certifications.
                let dictionary = ["R", "PG", "PG-13", "Tout public"].filter { c in rows.contains { $0.certification == Array(c.utf8) } }
                let header = 2 + 1 + dictionary.map { 1 + $0.utf8.count }.reduce(0, +) + 3
                #expect(bytes.count == header + 14 * rows.count)
            }
            // The row count from the head alone, checked against the block's length.
            bytes.withUnsafeBytes { all in
                let head = UnsafeRawBufferPointer(rebasing: all.prefix(FacetTotals.headBytes.last!))
                #expect(PackedFacetRows.rowCount(header: head, length: all.count) == rows.count)
                #expect(PackedFacetRows.rowCount(header: head, length: all.count + 1) == nil)
                #expect(PackedFacetRows.rowCount(header: UnsafeRawBufferPointer(rebasing: all.prefix(2)), length: all.count) == nil)
            }
            for _ in 0..<8 {
                let set = FilterSet(FacetStructureTests.randomSet(&rng).filter { ![.title, .votes].contains($0.facet) })
                let excluded = set.elements(of: .excludeGenre).compactMap { Self.bitOfGenre[$0.value] }.reduce(0, |)
                var packed = FacetTally(set: set, bitOfGenre: Self.bitOfGenre)!
                #expect(bytes.withUnsafeBytes { PackedFacetRows.tally($0, into: &packed, excluding: excluded) })
                #expect(Self.sameResult(packed, Self.tally(set, rows)), "\(set)")
                // A count's tally finds the same matches and counts no bucket.
                var matches = FacetTally(set: set, bitOfGenre: Self.bitOfGenre)!
                matches.matchesOnly = true
                #expect(bytes.withUnsafeBytes { PackedFacetRows.tally($0, into: &matches, excluding: excluded) })
                #expect(matches.matching == packed.matching, "\(set)")
                #expect(matches.result().counts.values.allSatisfy(\.isEmpty) && matches.result().elements.values.allSatisfy { $0 == 0 }, "\(set)")
            }
        }
    }

    @Test("values with no place in the encoding leave the block unpacked", arguments: [
        Row(genres: 1, rating: nil, minutes: Int.min, year: nil, certification: nil),
        Row(genres: 1, rating: nil, minutes: nil, year: Int.min, certification: nil),
        Row(genres: 1, rating: Double(bitPattern: PackedFacetRows.noRating), minutes: nil, year: nil, certification: nil),
        Row(genres: 1, rating: nil, minutes: nil, year: nil, certification: Array(repeating: UInt8(ascii: "x"), count: 256)),
    ])
    func noPlace(row: Row) {
        #expect(Self.pack([Row(genres: 2, rating: 5, minutes: 90, year: 2000, certification: nil), row]) == nil)
    }

    @Test("255 certifications in a block fit; 256 do not")
    func manyCertifications() {
        let rows = { (n: Int) in (0..<n).map { Row(genres: 0, rating: nil, minutes: nil, year: nil, certification: Array("C\($0)".utf8)) } }
        #expect(Self.pack(rows(255)) != nil)
        #expect(Self.pack(rows(256)) == nil)
    }

    @Test("bytes that are not the encoding are refused, tallying nothing")
    func malformed() throws {
        let rows = [Row(genres: 3, rating: 7, minutes: 100, year: 1999, certification: Array("R".utf8)),
                    Row(genres: 1, rating: nil, minutes: nil, year: nil, certification: nil)]
        let bytes = try #require(Self.pack(rows))
        var badIndex = bytes
        badIndex[badIndex.count - 1] = 7
        var badKind = bytes
        badKind[5] = 2   // the ratings' kind, after the row count, the certifications' count and "R"
        for bad in [[], Array(bytes.dropLast()), bytes + [0], badIndex, badKind, [1, 0, 0, 1, 1, 1]] {
            // The row count reads the head alone: a bad index past it still gives the rows' count.
            #expect(bad.withUnsafeBytes { PackedFacetRows.rowCount(header: $0, length: $0.count) } == (bad == badIndex ? 2 : nil), "\(bad)")
            var tally = FacetTally(set: FilterSet([.rating(.bucket(7))]), bitOfGenre: Self.bitOfGenre)!
            #expect(!bad.withUnsafeBytes { PackedFacetRows.tally($0, into: &tally, excluding: 0) }, "\(bad)")
            #expect(Self.sameResult(tally, FacetTally(set: FilterSet([.rating(.bucket(7))]), bitOfGenre: Self.bitOfGenre)!))
        }
    }

    @Test("the counts of a selection are read from the stored packed rows")
    func storedRowsAreRead() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<10 { try catalog.add(Movie(title: "M\(i)", genres: ["drama"], rating: 7.5, durationMinutes: 100)) }
        let counter = FacetCounter(catalog: catalog)
        let set = FilterSet([.duration(.hours(1))])
        let rating = { try counter.talliedCounts(for: set)?.first { $0.facet == .rating }?.values.map { "\($0.value)=\($0.count)" } }
        #expect(try rating() == ["7=10"])
        // A block of other rows, written past the triggers: the counts follow it, not the rows.
        let forged = try #require(Self.pack([Row(genres: 0, rating: 2, minutes: 61, year: nil, certification: nil)]))
        try catalog.db.run("UPDATE movie_facet_totals SET packed = ? WHERE block = 0", [.blob(forged)])
        #expect(try rating() == ["2=1"])
        // --count of such a set reads them too (and says so in its plan).
        #expect(try catalog.countPlan(set).packedRows == .tallied)
        #expect(try catalog.count(set) == 1)
        // So does a count of every movie, from the block's row count alone; `info` counts the
        // movies table itself.
        #expect(try catalog.countPlan(FilterSet()).packedRows == .rowCounts)
        #expect(try catalog.count(FilterSet()) == 1 && catalog.counts().movies == 10)
        // A head past the first bytes read (six certifications of 20 letters) is read further; one
        // past them all (30 of 30) leaves the block to its rows.
        for (rows, length, expected) in [(6, 20, 6), (30, 30, 10)] {
            let long = (0..<rows).map { Row(genres: 0, rating: nil, minutes: nil, year: nil, certification: Array(("c\($0)" + String(repeating: "x", count: length)).utf8)) }
            let block = try #require(Self.pack(long))
            try catalog.db.run("UPDATE movie_facet_totals SET packed = ? WHERE block = 0", [.blob(block)])
            #expect(try catalog.count(FilterSet()) == expected, "\(rows) certifications of \(length)")
        }
        // NULL, and bytes that are not the encoding, are tallied from the rows instead.
        for packed: SQLValue in [.null, .blob([1, 2, 3]), .blob(forged + [5]), .blob(Array(forged.prefix(2)))] {
            try catalog.db.run("UPDATE movie_facet_totals SET packed = ? WHERE block = 0", [packed])
            #expect(try rating() == ["7=10"], "\(packed)")
            #expect(try catalog.count(set) == 10, "\(packed)")
            #expect(try catalog.count(FilterSet()) == 10, "\(packed)")
        }
        // A set with votes is counted by SQL.
        #expect(try catalog.countPlan(FilterSet([.duration(.hours(1)), .votes(.range(0, nil))])).packedRows == nil)
    }

    @Test("after random writes, a selection's counts from packed blocks, split over parts or not, are SQL's", arguments: [1, 2, 3] as [UInt64])
    func exactUnderWrites(seed: UInt64) throws {
        let (catalog, dir, start) = try FacetTotalsTests.spreadCatalog(60, seed: seed)
        var rng = start
        defer { try? FileManager.default.removeItem(at: dir) }
        var counter = FacetCounter(catalog: catalog)
        counter.parallelSpan = 1
        for round in 0..<12 {
            for _ in 0..<3 { try FacetStructureTests.randomWrite(catalog, dir, &rng) }
            try FacetStructureTests.reopen(catalog)
            #expect(try FacetTotalsTests.staleBlocks(catalog.db) == [], "round \(round)")
            counter.parallelParts = Int.random(in: 1...3, using: &rng)
            // Every movie, counted from the stored blocks' heads and the rows of the others.
            let movies = try catalog.db.intScalar("SELECT count(*) FROM movies")
            #expect(try catalog.count(FilterSet()) == movies, "round \(round)")
            #expect(try FacetTotals.rowCount(catalog.db, minimumCoverage: 0) == movies, "round \(round)")
            for _ in 0..<4 {
                let set = FacetStructureTests.randomSet(&rng)
                let tallied = try #require(try counter.talliedCounts(for: set))
                let plain = MovieQuery(filters: set).countSQL
                #expect(try catalog.count(set) == catalog.db.intScalar(plain.sql, plain.bindings), "count of \(set), round \(round)")
                for (a, b) in zip(tallied, try counter.sqlCounts(for: set)) where a != b {
                    Issue.record("\(a.facet) under \(set), round \(round), \(counter.parallelParts) parts: \(a.values.map { "\($0.value)=\($0.count)" }), SQL \(b.values.map { "\($0.value)=\($0.count)" })")
                }
            }
        }
    }

    @Test("a movie_facet_totals a sqlite3 user made again (rows numbered otherwise, held twice, WITHOUT ROWID) still counts every movie", arguments: [
        "CREATE TABLE movie_facet_totals AS SELECT * FROM t ORDER BY block DESC",
        "CREATE TABLE movie_facet_totals (block INT PRIMARY KEY, counts BLOB, packed BLOB); INSERT INTO movie_facet_totals SELECT * FROM t ORDER BY block DESC",
        "CREATE TABLE movie_facet_totals (block INTEGER PRIMARY KEY, counts BLOB, packed BLOB) WITHOUT ROWID; INSERT INTO movie_facet_totals SELECT * FROM t",
        "CREATE TABLE movie_facet_totals AS SELECT * FROM t UNION ALL SELECT * FROM t ORDER BY block",
    ])
    func remadeTable(create: String) throws {
        let (catalog, dir, _) = try FacetTotalsTests.spreadCatalog(60, seed: 5)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.transaction { try FacetTotals.fill(catalog.db) }
        try catalog.db.execute("CREATE TABLE t AS SELECT * FROM movie_facet_totals; DROP TABLE movie_facet_totals; \(create); DROP TABLE t")
        let movies = try catalog.db.intScalar("SELECT count(*) FROM movies")
        #expect(try FacetTotals.rowCount(catalog.db, minimumCoverage: 0) ?? movies == movies)
        #expect(try catalog.count(FilterSet()) == movies)
        let counter = FacetCounter(catalog: catalog)
        for set in [FilterSet(), FilterSet([.genre("drama")]), FilterSet([.rating(.range(5, nil)), .rating(.range(nil, 2))])] {
            let plain = MovieQuery(filters: set).countSQL
            #expect(try catalog.count(set) == catalog.db.intScalar(plain.sql, plain.bindings), "\(set)")
            #expect(try counter.talliedCounts(for: set) == counter.sqlCounts(for: set), "\(set)")
        }
    }

    @Test("parts of a split scan start at blocks' edges", arguments: [
        (Int64(1), Int64(1_000_000), 2), (-5_000, 9_000, 3), (Int64.min + 1, Int64.max - 1, 4), (0, 10_000, 4),
    ] as [(Int64, Int64, Int)])
    func partsAtEdges(low: Int64, high: Int64, parts: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let catalog = try Catalog(path: dir.appendingPathComponent("c.sqlite").path)
        defer { try? catalog.close() }
        try catalog.db.execute("INSERT INTO movies (id, title) VALUES (\(low), 'a'), (\(high), 'b')")
        let scan = ParallelScan(db: catalog.db, parts: parts, minimumSpan: 1, alignment: 1 << FacetTotals.shift)
        guard let ranges = try scan.run({ _, ids in ids }) else {
            // Only a span too short for `parts` blocks is not split.
            #expect(Int128(high) - Int128(low) < Int128(parts) << 12)
            return
        }
        #expect(ranges.count == parts && ranges.first?.lowerBound == Int64.min && ranges.last?.upperBound == Int64.max)
        for (a, b) in zip(ranges, ranges.dropFirst()) {
            #expect(a.upperBound &+ 1 == b.lowerBound && b.lowerBound % 4096 == 0)
        }
    }

    @Test("a catalog of version 8 has its blocks packed when it is migrated")
    func migratedFromVersion8() throws {
        let (catalog, dir, _) = try FacetTotalsTests.spreadCatalog(30, seed: 7)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("""
            DROP TABLE movie_facet_totals;
            CREATE TABLE movie_facet_totals (block INTEGER PRIMARY KEY, counts BLOB) STRICT;
            PRAGMA user_version = 8
            """)
        try catalog.close()
        let reopened = try Catalog(path: catalog.path)
        defer { try? reopened.close() }
        #expect(try reopened.schemaVersion() == CatalogSchema.latestVersion)
        #expect(Set(try reopened.db.query("SELECT block FROM movie_facet_totals WHERE packed IS NOT NULL") { try $0.int64(0) })
                == (try FacetTotalsTests.blocksWithRows(reopened.db)))
        #expect(try FacetTotalsTests.staleBlocks(reopened.db) == [])
    }

    @Test("a split scan reads the stored packed rows")
    func splitScanReadsPacked() throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<10 { try catalog.add(Movie(title: "M\(i)", genres: ["drama"], rating: 7.5, durationMinutes: 100)) }
        // One movie a block, so that three parts each read stored blocks.
        try catalog.db.withoutForeignKeys { try catalog.db.execute("UPDATE movies SET id = id * 4096") }
        try FacetStructureTests.reopen(catalog)
        try catalog.db.transaction { try FacetTotals.fill(catalog.db) }
        var counter = FacetCounter(catalog: catalog)
        counter.parallelSpan = 1
        counter.parallelParts = 3
        let forged = try #require(Self.pack([Row(genres: 0, rating: 2, minutes: 61, year: nil, certification: nil)]))
        try catalog.db.run("UPDATE movie_facet_totals SET packed = ?", [.blob(forged)])
        let rating = try counter.talliedCounts(for: FilterSet([.duration(.hours(1))]))?.first { $0.facet == .rating }?.values.map { "\($0.value)=\($0.count)" }
        #expect(rating == ["2=10"])
    }

    @Test("a catalog of version 8 with stored counts has every block packed after migrating")
    func migratedWithStoredCounts() throws {
        let (catalog, dir, _) = try FacetTotalsTests.spreadCatalog(30, seed: 7)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        try db.transaction { try FacetTotals.fill(db) }   // the renumbering by hand left them unstored
        let blocks = try db.query("SELECT block, counts FROM movie_facet_totals") { (try $0.int64(0), $0.withBlob(1) { $0.map { Array($0) } }) }
        #expect(blocks.count > 3)
        try db.execute("DROP TABLE movie_facet_totals; CREATE TABLE movie_facet_totals (block INTEGER PRIMARY KEY, counts BLOB) STRICT")
        for (block, counts) in blocks { try db.run("INSERT INTO movie_facet_totals VALUES (?, ?)", [.integer(block), counts.map { .blob($0) } ?? .null]) }
        try db.execute("PRAGMA user_version = 8")
        try catalog.close()
        let reopened = try Catalog(path: catalog.path)
        defer { try? reopened.close() }
        #expect(Set(try reopened.db.query("SELECT block FROM movie_facet_totals WHERE packed IS NOT NULL") { try $0.int64(0) })
                == (try FacetTotalsTests.blocksWithRows(reopened.db)))
        #expect(try FacetTotalsTests.staleBlocks(reopened.db) == [])
    }

    @Test("a movie_facet_totals made again by hand without a column is made anew at the next open", arguments: ["packed", "counts"])
    func missingColumn(_ column: String) throws {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.add(Movie(title: "A", genres: ["drama"], rating: 7))
        try catalog.db.execute("ALTER TABLE movie_facet_totals DROP COLUMN \(column)")
        try catalog.close()
        let reopened = try Catalog(path: catalog.path)
        defer { try? reopened.close() }
        let counter = FacetCounter(catalog: reopened)
        #expect(try counter.counts(for: FilterSet([.genre("drama")])) == (try counter.sqlCounts(for: FilterSet([.genre("drama")]))))
        try reopened.add(Movie(title: "B"))
        #expect(try reopened.db.intScalar("SELECT count(*) FROM movie_facet_totals WHERE counts IS NOT NULL AND packed IS NOT NULL") == 1)
    }

    @Test("odd values and ids all over Int64: packed blocks count as the rows do", arguments: [1, 2, 3] as [UInt64])
    func oddValuesInCatalog(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = catalog.db
        for _ in 0..<80 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        let spots: [Int64] = [.min, .min + 1, .min + 4095, .min + 4096, -4097, -4096, -1, 0, 4095, 4096, .max - 4096, .max - 4095, .max - 1, .max]
        let odd = ["rating = 7.25", "rating = 1e300", "rating = -0.0", "rating = -3", "rating = 0.30000000000000004", "rating = 9e999",
                   "duration_minutes = 70000", "duration_minutes = -3", "duration_minutes = 9223372036854775807", "duration_minutes = 65535",
                   "year = -5", "year = 9223372036854775807", "year = -9223372036854775808", "year = 65535", "year = 0",
                   "certification = ''", "certification = 'Ü 12'", "certification = '\(String(repeating: "y", count: 256))'"]
        try db.execute("PRAGMA ignore_check_constraints = ON")
        try db.withoutForeignKeys {
            let ids = try db.query("SELECT id FROM movies") { try $0.int64(0) }
            for (i, id) in ids.enumerated() {
                let newID = i < spots.count ? spots[i] : Int64.random(in: .min ... .max, using: &rng)
                try db.run("UPDATE OR IGNORE movies SET id = ? WHERE id = ?", [.integer(newID), .integer(id)])
                try db.run("UPDATE movie_genres SET movie_id = ? WHERE movie_id = ?", [.integer(newID), .integer(id)])
            }
            for _ in 0..<60 {
                try db.execute("UPDATE OR IGNORE movies SET \(odd.randomElement(using: &rng)!) WHERE id = (SELECT id FROM movies ORDER BY random() LIMIT 1)")
            }
        }
        try db.execute("PRAGMA ignore_check_constraints = OFF")
        try FacetStructureTests.reopen(catalog)
        try db.transaction { try FacetTotals.fill(db) }
        #expect(try db.intScalar("SELECT count(*) FROM movie_facet_totals WHERE packed IS NOT NULL") > 0)
        var counter = FacetCounter(catalog: catalog)
        counter.parallelSpan = 1
        for _ in 0..<30 {
            var set = FilterSet(FacetStructureTests.randomSet(&rng).filter { ![.title, .votes].contains($0.facet) })
            if Bool.random(using: &rng) { set.insert(.excludeGenre(FacetStructureTests.genreCodes.randomElement(using: &rng)!)) }
            counter.parallelParts = Int.random(in: 1...4, using: &rng)
            let tallied = try #require(try counter.talliedCounts(for: set))
            try db.execute("SAVEPOINT rows; UPDATE movie_facet_totals SET packed = NULL")
            let rows = try #require(try counter.talliedCounts(for: set))
            try db.execute("ROLLBACK TO rows; RELEASE rows")
            #expect(tallied == rows, "\(set), \(counter.parallelParts) parts")
        }
    }
}

import MovieDomain
import SQLiteStore

/// movie_facet_totals (schema version 8): the counts with nothing selected of each block of 4,096
/// movie ids, so the filter list's first screen adds a few thousand stored tallies where it would
/// tally every movie's facet row. A cache that is never trusted blindly: movie_facets' triggers
/// delete a block's row whenever one of its facet rows changes, a read tallies the rows of the
/// blocks without one, and moviecat's writes store the missing blocks again before they commit.
enum FacetTotals {
    /// The table's name.
    static let name = "movie_facet_totals"
    /// The triggers on movie_facets that delete the blocks a write touches; a bulk load drops
    /// them while it appends, then `forget`s the blocks it wrote to.
    static let triggers = ["movie_facet_totals_insert", "movie_facet_totals_update", "movie_facet_totals_delete"]
    /// The schema version that makes the table.
    static let since = 8
    /// Ids per block: block b holds ids b << 12 ... b << 12 | 4095 (also in the migration's triggers).
    static let shift: Int64 = 12

    /// The ids of blocks `first` through `last`.
    static func ids(_ first: Int64, _ last: Int64) -> ClosedRange<Int64> { (first << shift)...(last << shift | (1 << shift - 1)) }

    /// The facet rows with ids in a range (the two parameters).
    static let rows = "SELECT \(FacetCounter.rowColumns) FROM movie_facets f WHERE f.id BETWEEN ? AND ?"

    /// What a read takes from the stored blocks.
    enum Form: Equatable {
        /// The counts with nothing selected (`counts`).
        case totals
        /// The packed facet rows (`packed`, schema version 9), tallied under the tally's set with
        /// the movies of any genre bit of `excluding` left out.
        case rows(excluding: Int64)

        var column: String { self == .totals ? "counts" : "packed" }
    }

    /// The schema version that adds the packed rows.
    static let packedSince = 9

    /// A tally of the movies with ids in `range`, from the stored blocks and the rows of the
    /// others, in one read transaction; nil when fewer than `minimumCoverage` of the blocks are
    /// stored (a parallel scan of every row is faster then), or when no stored block can be
    /// trusted. A `range` that does not start and end at blocks' edges is the caller's error.
    static func tally(_ start: FacetTally, _ db: Database, _ form: Form, within range: ClosedRange<Int64> = Int64.min...Int64.max,
                      minimumCoverage: Double = 0.5) throws -> FacetTally? {
        try withTrustedBlocks(db, within: range, none: start) { ids in
            try tally(start, db, form, ids: ids, minimumCoverage: minimumCoverage)
        }
    }

    /// `tally` within `ids`, the facet rows' ids inside the range asked for.
    private static func tally(_ start: FacetTally, _ db: Database, _ form: Form, ids: ClosedRange<Int64>, minimumCoverage: Double) throws -> FacetTally? {
        var tally = start
        var covered: [Int64] = []
        try db.forEachRow("SELECT block, \(form.column) FROM movie_facet_totals WHERE \(form.column) IS NOT NULL AND block BETWEEN ? AND ? ORDER BY block",
                          [.integer(ids.lowerBound >> shift), .integer(ids.upperBound >> shift)]) { row in
            let block = Int64(row.optionalInt(0) ?? 0)
            // A block a sqlite3 user's remake of the table holds twice is counted once.
            guard covered.last != block else { return }
            // A malformed blob (a hand edit) is left out: its block's rows are tallied instead.
            let added = row.withBlob(1) { bytes -> Bool in
                guard let bytes else { return false }
                switch form {
                case .totals: return tally.add(totals: bytes)
                case .rows(let excluded): return PackedFacetRows.tally(bytes, into: &tally, excluding: excluded)
                }
            }
            if added { covered.append(block) }
        }
        guard covers(covered, of: ids, minimumCoverage) else { return nil }
        let excluded: Int64
        if case .rows(let bits) = form { excluded = bits } else { excluded = 0 }
        for run in uncovered(ids, covered) {
            try tallyRows(into: &tally, db, FacetTotals.ids(run.lowerBound, run.upperBound).clamped(to: ids), excluding: excluded)
        }
        return tally
    }

    /// How many facet rows (movies) have ids in `range`: the row count at the head of each stored
    /// packed block, read without the rest of its blob (`BlobReader`: some 2,300 small reads at
    /// 10M movies, where counting the rows steps through every one), and the rows of the other
    /// blocks counted; nil as for `tally`.
    static func rowCount(_ db: Database, within range: ClosedRange<Int64> = Int64.min...Int64.max, minimumCoverage: Double = 0.5) throws -> Int? {
        try withTrustedBlocks(db, within: range, none: 0) { ids in
            let reader = BlobReader(db, table: name, column: Form.rows(excluding: 0).column)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: headBytes.last!, alignment: 8)
            defer { buffer.deallocate() }
            var count = 0, covered: [Int64] = []
            // A blob is opened by its row's rowid, which is the block only where the table is
            // moviecat's (a sqlite3 user's remake may number its rows otherwise); a table
            // WITHOUT ROWID has none to open, and its rows are counted.
            guard let blocks = try? db.prepare("SELECT block, rowid FROM movie_facet_totals WHERE packed IS NOT NULL AND block BETWEEN ? AND ? ORDER BY block") else {
                return nil
            }
            try blocks.bind([.integer(ids.lowerBound >> shift), .integer(ids.upperBound >> shift)])
            while try blocks.step() {
                let block = Int64(blocks.optionalInt(0) ?? 0), rowid = Int64(blocks.optionalInt(1) ?? 0)
                guard covered.last != block else { continue }   // as in `tally`
                // Most heads fit in `headBytes.first`; one longer than `headBytes.last` (a block
                // of many long certifications) or a malformed one leaves the block's rows to be counted.
                var rows: Int?
                for bytes in headBytes where rows == nil {
                    guard let (read, length) = reader.readPrefix(rowid, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes])) else { break }
                    rows = PackedFacetRows.rowCount(header: UnsafeRawBufferPointer(rebasing: buffer[0..<read]), length: length)
                    if read == length { break }
                }
                guard let rows else { continue }
                count += rows
                covered.append(block)
            }
            guard covers(covered, of: ids, minimumCoverage) else { return nil }
            for run in uncovered(ids, covered) {
                count += try db.intScalar("SELECT count(*) FROM movie_facets WHERE id BETWEEN ? AND ?",
                                          bindings(FacetTotals.ids(run.lowerBound, run.upperBound).clamped(to: ids)))
            }
            return count
        }
    }

    /// How many of a packed block's first bytes `rowCount` reads for its head: then, when it
    /// does not fit, how many more.
    static let headBytes = [64, 512]

    /// Runs `body` on the facet rows' ids within `range`, in one read transaction (the caller's,
    /// or one of its own); `none` when no facet row is there, nil when no stored block can be
    /// trusted.
    private static func withTrustedBlocks<T>(_ db: Database, within range: ClosedRange<Int64>, none: T,
                                             _ body: (ClosedRange<Int64>) throws -> T?) throws -> T? {
        let own = !db.inTransaction
        if own { try db.execute("BEGIN") }
        defer { if own { try? db.execute("COMMIT") } }
        guard let bounds = try MovieFacetsTable.idBounds(db), bounds.overlaps(range) else { return none }
        // A REPLACE through a unique index of a sqlite3 user's own on movie_facets deletes rows
        // without the delete trigger: with one, no stored block is trusted.
        guard try db.intScalar("SELECT EXISTS (SELECT 1 FROM pragma_index_list('movie_facets') WHERE \"unique\" AND origin <> 'pk')") == 0 else {
            return nil
        }
        return try body(bounds.clamped(to: range))
    }

    /// Whether the blocks `covered` are at least `minimumCoverage` of the blocks of `ids`.
    private static func covers(_ covered: [Int64], of ids: ClosedRange<Int64>, _ minimumCoverage: Double) -> Bool {
        Double(covered.count) >= Double(Int128(ids.upperBound >> shift) - Int128(ids.lowerBound >> shift) + 1) * minimumCoverage
    }

    /// Stores the blocks that have facet rows and no row here (inside the caller's write
    /// transaction): their counts with nothing selected and their packed rows. A block whose
    /// values do not fit an encoding is stored with NULL there, so that it is not tallied again at
    /// every write. `announce` runs first when there is any block to store.
    static func fill(_ db: Database, beginning announce: () -> Void = {}) throws {
        guard try db.hasSchemaObject(name), let ids = try MovieFacetsTable.idBounds(db) else { return }
        let start = FacetTally.nothingSelected
        let runs = uncovered(ids, try storedBlocks(db, within: ids))
        guard !runs.isEmpty else { return }
        announce()
        let insert = try db.prepare("INSERT INTO movie_facet_totals (block, counts, packed) VALUES (?, ?, ?)")
        for run in runs {
            var block: Int64?, tally = start, packed = PackedFacetRows()
            func store() throws {
                guard let block else { return }
                try insert.bind([.integer(block), tally.totals().map { .blob($0) } ?? .null, packed.bytes().map { .blob($0) } ?? .null])
                _ = try insert.step()
                insert.reset()
            }
            try db.forEachRow("SELECT f.id, \(FacetCounter.rowColumns) FROM movie_facets f WHERE f.id BETWEEN ? AND ?",
                              bindings(FacetTotals.ids(run.lowerBound, run.upperBound).clamped(to: ids))) { row in
                let rowBlock = Int64(row.optionalInt(0) ?? 0) >> shift
                if rowBlock != block {
                    try store()
                    block = rowBlock
                    tally = start
                    packed = PackedFacetRows()
                }
                row.withFacetRow(from: 1) {
                    tally.add(genres: $0, rating: $1, minutes: $2, year: $3, certification: $4)
                    packed.add(genres: $0, rating: $1, minutes: $2, year: $3, certification: $4)
                }
            }
            try store()
        }
    }

    /// Stores the blocks a sqlite3 user's writes left without a row, when at least
    /// `worthStoring` of them have facet rows and the write lock is free at once (a read never
    /// waits for a writer): otherwise every `facets` would tally their rows until moviecat's next
    /// write (all of them after an edit of every movie: 2.5 s a screen at 10M movies, 16 ms
    /// stored). A few blocks are tallied from their rows as fast, with no write. Outside any
    /// transaction only; a failure leaves the rows to be tallied.
    static func storeMissing(_ db: Database) {
        guard !db.inTransaction, (try? missingBlocks(db)) ?? 0 >= worthStoring else { return }
        try? db.withBusyTimeout(0) { try db.transaction { try fill(db) } }
    }

    /// The fewest missing blocks with facet rows that `storeMissing` stores.
    static let worthStoring = 8

    /// How many blocks with facet rows have no row here, counted up to `worthStoring`: stored
    /// blocks counted against the span (a few thousand rows at 10M movies), then, when fewer,
    /// the blocks between them probed for a facet row, at most `probes` of them (sparse ids leave
    /// blocks without any: a catalog of spread ids is not probed block by block at every call).
    static func missingBlocks(_ db: Database, probes: Int = 64) throws -> Int {
        guard try db.hasSchemaObject(name), let ids = try MovieFacetsTable.idBounds(db) else { return 0 }
        let first = ids.lowerBound >> shift, last = ids.upperBound >> shift
        let count = try db.intScalar("SELECT count(*) FROM movie_facet_totals WHERE block BETWEEN ? AND ?", [.integer(first), .integer(last)])
        guard Int128(count) < Int128(last) - Int128(first) + 1 else { return 0 }
        // The stored blocks walked in order, each gap before one probed as it is met.
        let probe = try db.prepare("SELECT EXISTS (SELECT 1 FROM movie_facets WHERE id BETWEEN ? AND ?)")
        var missing = 0, probed = 0
        func probeGap(_ gap: ClosedRange<Int64>) throws {
            var block = gap.lowerBound
            while probed < probes, missing < worthStoring {
                try probe.bind(bindings(FacetTotals.ids(block, block).clamped(to: ids)))
                if try probe.step(), probe.optionalInt(0) == 1 { missing += 1 }
                probe.reset()
                probed += 1
                if block == gap.upperBound { return }
                block += 1
            }
        }
        let stored = try db.prepare("SELECT block FROM movie_facet_totals WHERE block BETWEEN ? AND ? ORDER BY block")
        try stored.bind([.integer(first), .integer(last)])
        var next = first
        while probed < probes, missing < worthStoring, try stored.step() {
            let block = Int64(stored.optionalInt(0) ?? 0)
            if block > next { try probeGap(next...(block - 1)) }
            next = block + 1
        }
        if next <= last { try probeGap(next...last) }
        return missing
    }

    /// The stored blocks of the ids `ids`, ascending.
    private static func storedBlocks(_ db: Database, within ids: ClosedRange<Int64>) throws -> [Int64] {
        try db.query("SELECT block FROM movie_facet_totals WHERE block BETWEEN ? AND ? ORDER BY block",
                     [.integer(ids.lowerBound >> shift), .integer(ids.upperBound >> shift)]) { Int64(try $0.int64(0)) }
    }

    private static func bindings(_ ids: ClosedRange<Int64>) -> [SQLValue] { [.integer(ids.lowerBound), .integer(ids.upperBound)] }

    /// Deletes the stored blocks of ids `id` and up: a bulk load appended there with the triggers off.
    static func forget(_ db: Database, from id: Int64) throws {
        guard try db.hasSchemaObject(name) else { return }
        try db.run("DELETE FROM movie_facet_totals WHERE block >= ?", [.integer(id >> shift)])
    }

    /// The runs of blocks within `ids`' blocks that are not in `covered` (ascending).
    static func uncovered(_ ids: ClosedRange<Int64>, _ covered: [Int64]) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        var next = ids.lowerBound >> shift
        let last = ids.upperBound >> shift
        for block in covered where block >= next {
            if block > next { runs.append(next...(block - 1)) }
            if block == last { return runs }
            next = block + 1
        }
        if next <= last { runs.append(next...last) }
        return runs
    }

    /// Tallies the facet rows with ids in `ids`, but those with a genre bit of `excluded`.
    static func tallyRows(into tally: inout FacetTally, _ db: Database, _ ids: ClosedRange<Int64>, excluding excluded: Int64 = 0) throws {
        let query = SQLFragment(rows, bindings(ids))
        try FacetCounter.tally(into: &tally, db, excluded == 0 ? query : query + SQLFragment(" AND (f.genres & ?) = 0", [.integer(excluded)]))
    }
}

extension FacetTally {
    /// A tally with nothing selected (its genre counts by bit only: enough to store).
    static var nothingSelected: FacetTally { FacetTally(set: FilterSet(), bitOfGenre: [:])! }

    /// The array buckets in the stored order: genre bits, ratings, hours, decades.
    private var bucketArrays: [[Int]] { [genreBits, ratingBuckets, hourBuckets, decadeBuckets] }
    /// How many 16-bit counts the arrays take.
    private static let bucketCount = 63 + 11 + 64 + 64

    /// This tally of one block with nothing selected, as movie_facet_totals stores it: nil when a
    /// count went to a dictionary (a value outside the arrays), or a certification or a count is
    /// too long for its field.
    func totals() -> [UInt8]? {
        guard counts.allSatisfy(\.isEmpty) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(2 * FacetTally.bucketCount + 8 * certifications.count)
        func append(_ count: Int) -> Bool {
            guard let count = UInt16(exactly: count) else { return false }
            bytes.append(UInt8(count & 0xFF))
            bytes.append(UInt8(count >> 8))
            return true
        }
        for array in bucketArrays { for count in array { guard append(count) else { return nil } } }
        for (text, count) in certifications {
            guard let length = UInt8(exactly: text.count) else { return nil }
            bytes.append(length)
            bytes.append(contentsOf: text)
            guard append(count) else { return nil }
        }
        return bytes
    }

    /// Adds the counts of a stored block; false, adding nothing, when `bytes` is not what `totals` writes.
    mutating func add(totals bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        func count() -> Int? {
            guard offset + 2 <= bytes.count else { return nil }
            defer { offset += 2 }
            return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
        }
        var buckets: [Int] = []
        buckets.reserveCapacity(FacetTally.bucketCount)
        for _ in 0..<FacetTally.bucketCount {
            guard let n = count() else { return false }
            buckets.append(n)
        }
        var texts: [(Slice<UnsafeRawBufferPointer>, Int)] = []
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1
            guard offset + length <= bytes.count else { return false }
            let text = bytes[offset..<(offset + length)]
            offset += length
            guard let n = count() else { return false }
            texts.append((text, n))
        }
        var position = 0
        func take(_ array: inout [Int]) {
            for i in array.indices { array[i] += buckets[position]; position += 1 }
        }
        take(&genreBits)
        take(&ratingBuckets)
        take(&hourBuckets)
        take(&decadeBuckets)
        for (text, n) in texts { add(certification: text, count: n) }
        return true
    }
}

import MovieDomain
import SQLiteStore

/// A scan of movie_facets split by id range over several connections and threads, all reading
/// one snapshot of the catalog: for the facet list of a large catalog (one core tallies about
/// five million rows a second; a second core halves the wait).
///
/// Separate connections would read separate snapshots if a write landed between their starts.
/// So the calling connection first takes the write lock (`BEGIN IMMEDIATE`, not waiting), which
/// no writer can then commit past, and keeps it until every part has been read. When the lock is
/// taken (an import is running) or the file cannot be written, `run` returns nil and the caller
/// scans alone.
struct ParallelScan {
    /// Below this many ids a single scan is about as fast.
    static let minimumSpan: Int64 = 400_000

    /// The cores, at most 4.
    static var defaultParts: Int { min(4, processorCount) }

    let db: Database
    /// Parts to scan at once.
    var parts = ParallelScan.defaultParts
    /// The id span from which a scan is split.
    var minimumSpan = ParallelScan.minimumSpan
    /// Every part but the first starts at a multiple of this (FacetTotals' blocks).
    var alignment: Int64 = 1
    /// Opens a part's connection to the catalog at a path (tests make it fail).
    var connect: @Sendable (String) throws -> Database = { try Database(path: $0) }
    /// Whether the caller holds the write lock already (read what it read on the same snapshot).
    var locked = false

    /// Whether `run` may split the scan, read before the lock is taken: a catalog file, not in a
    /// transaction, whose ids span enough (`run` reads them again under the lock).
    func mayRun() throws -> Bool {
        guard parts > 1, db.path != ":memory:", !db.path.isEmpty, !db.inTransaction || locked else { return false }
        return try MovieFacetsTable.idBounds(db).map { Int128($0.upperBound) - Int128($0.lowerBound) + 1 >= Int128(minimumSpan) } ?? false
    }

    /// Runs `part` for each id range on its own connection and thread, and returns the results in
    /// order; nil when the scan should not or cannot be split.
    func run<T: Sendable>(_ part: @escaping @Sendable (Database, _ ids: ClosedRange<Int64>) throws -> T) throws -> [T]? {
        guard parts > 1, db.path != ":memory:", !db.path.isEmpty else { return nil }
        if !locked {
            guard (try? db.withBusyTimeout(0, { try db.execute("BEGIN IMMEDIATE") })) != nil else { return nil }
        }
        defer { if !locked { try? db.execute("ROLLBACK") } }
        // Read under the lock: the parts' snapshot has exactly these ids.
        guard let ids = try MovieFacetsTable.idBounds(db) else { return nil }
        // In Int128: a sqlite3 user may spread ids over all of Int64.
        let low = Int128(ids.lowerBound), span = Int128(ids.upperBound) - low + 1
        guard span >= Int128(minimumSpan), span >= Int128(parts) else { return nil }
        // Part i holds ids from low + span * i / parts on (at most the largest id); the first and
        // last are open-ended.
        let starts = (0..<parts).map { i -> Int64 in
            let start = low + span * Int128(i) / Int128(parts), step = Int128(alignment)
            return Int64(start - ((start % step) + step) % step)   // rounded down, also below 0
        }
        guard zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        let ranges = (0..<parts).map { i in
            (i == 0 ? Int64.min : starts[i])...(i == parts - 1 ? Int64.max : starts[i + 1] - 1)
        }
        let results = Results<T>(count: ranges.count)
        let path = db.path, connect = self.connect
        runOnThreads(ranges.enumerated().map { index, ids in
            {
                results.set(index, Result {
                    let connection = try connect(path)
                    defer { try? connection.close() }
                    // A read transaction: the caller's lock keeps every part on one snapshot.
                    try connection.execute("BEGIN")
                    defer { try? connection.execute("ROLLBACK") }
                    return try part(connection, ids)
                })
            }
        })
        return try results.values()
    }

    /// The parts' results: each thread writes its own slot, read after every thread is joined.
    private final class Results<T: Sendable>: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<Result<T, any Error>?>
        private let count: Int

        init(count: Int) {
            self.count = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil, count: count)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        func set(_ index: Int, _ result: Result<T, any Error>) { slots[index] = result }

        func values() throws -> [T] { try (0..<count).map { try slots[$0]!.get() } }
    }
}

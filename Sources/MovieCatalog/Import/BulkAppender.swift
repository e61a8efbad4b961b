import MovieDomain
import SQLiteStore
/// Appends a bulk load's rows without lookups, then folds repeats as row by row would have.
///
/// The unique indexes are dropped first, rows go in as multi-row INSERTs with ids numbered
/// here, and at the end the indexes are rebuilt by sorting (which beats a million random B-tree
/// inserts). When a rebuild finds repeats of the key, `RepeatFolder` folds them.
///
/// Rows are matched on one key for the whole append: the IMDb id when the first row has one,
/// else the title and year. That equals the row-by-row rules only while every row is keyed
/// alike and the stored catalog is too (all stored movies with ids, or none); `accepts` says
/// when a row breaks that, and the writer then stops appending and goes on row by row.
final class BulkAppender {
    private let db: Database
    private let genres: GenreResolver
    /// The key rows are matched on while appending.
    let key: RepeatFolder.Key
    /// The columns every appended row had (folding copies them from the last repeat).
    let fields: MovieFields
    /// Index definitions dropped for the load; the unique ones come back in `stop()`, the rest in `finish()`.
    private(set) var droppedIndexes: [(name: String, sql: String)] = []
    /// The triggers on movies and movie_genres (movie_facets', movie_titles'), off while
    /// appending (rows and their facet rows are written together here, titles indexed after);
    /// back in `stop()`.
    private var droppedTriggers: [String] = []
    /// Appended rows of the current batch, by index; they hold the ids before `nextID`, in order.
    private var pendingRows: [Int] = []
    /// The genre bit set of each pending row (for its movie_facets row).
    private var pendingMasks: [Int64] = []
    /// Their genre links as (movie id, genre id) pairs, inserted after the movies.
    private var pendingLinks: [Int64] = []
    private var nextID: Int64
    private let maxIDBefore: Int64
    /// The appended keys' hashes: which movies may repeat one, so folding looks at those only.
    private var sieve = RepeatSieve()
    private let nowSeconds: Int64
    private static let batchSize = 64
    private let insertMovie: Statement
    private let insertMovieBatch: Statement
    private let insertLink: Statement
    private let insertLinkBatch: Statement
    private let insertFacets: Statement
    private let insertFacetsBatch: Statement

    /// Starts appending rows like `first` (its key and columns) after stored ids up to `maxIDBefore`.
    init(db: Database, genres: GenreResolver, first: ImportRow, maxIDBefore: Int64, nowSeconds: Int64) throws {
        self.db = db
        self.genres = genres
        key = first.imdbID == nil ? .titleYear : .imdbID
        fields = first.present
        nextID = maxIDBefore + 1
        self.maxIDBefore = maxIDBefore
        self.nowSeconds = nowSeconds
        insertMovie = try db.prepare(MovieColumns.insertHead + MovieColumns.insertValues, persistent: true)
        insertMovieBatch = try db.prepare(
            MovieColumns.insertHead + Array(repeating: MovieColumns.insertValues, count: Self.batchSize).joined(separator: ", "),
            persistent: true)
        insertLink = try db.prepare("INSERT OR IGNORE INTO movie_genres (movie_id, genre_id) VALUES (?, ?)", persistent: true)
        insertLinkBatch = try db.prepare("INSERT INTO movie_genres (movie_id, genre_id) VALUES "
            + Array(repeating: "(?, ?)", count: Self.batchSize).joined(separator: ", "), persistent: true)
        insertFacets = try db.prepare(MovieFacetsTable.insertHead + MovieFacetsTable.insertValues, persistent: true)
        insertFacetsBatch = try db.prepare(MovieFacetsTable.insertHead
            + Array(repeating: MovieFacetsTable.insertValues, count: Self.batchSize).joined(separator: ", "), persistent: true)
        droppedTriggers = try db.dropSchemaObjects("trigger", on: ["movies", "movie_genres"]).map(\.sql)
        droppedIndexes = try db.dropSchemaObjects("index", on: ["movies", "movie_genres", "movie_facets"])
        // Appended rows are checked by MovieRules.violation, not by SQLite's CHECKs. A flag
        // pragma re-prepares statements, so only those stepped while appending skip them.
        try db.execute("PRAGMA ignore_check_constraints = ON")
    }

    /// Whether a stored catalog lets rows keyed like `first` be appended: every stored movie
    /// keyed alike (all with an IMDb id, or none), so no stored movie is matched another way.
    static func storedCatalogAllows(_ db: Database, first: ImportRow) throws -> Bool {
        let other = first.imdbID == nil ? "imdb_id IS NOT NULL" : "imdb_id IS NULL"
        return try db.intScalar("SELECT NOT EXISTS (SELECT 1 FROM movies WHERE \(other))") == 1
    }

    /// Whether `row` can be appended: the same columns and the same key as the first.
    func accepts(_ row: ImportRow) -> Bool {
        row.present == fields && (row.imdbID != nil) == (key == .imdbID)
    }

    /// Queues row `index` of `batch` with the next id; its genres follow it. Returns the id.
    func append(_ row: ImportRow, at index: Int, of batch: UnsafeBufferPointer<ImportRow>) throws -> Int64 {
        if let violation = MovieRules.violation(in: row.movie) {
            throw CatalogError(.internalError, "internal error: line \(row.line) passed validation but \(violation)")
        }
        let id = nextID
        nextID += 1
        sieve.add(RepeatSieve.hash(of: row.movie, byIMDbID: key == .imdbID))
        pendingRows.append(index)
        let firstLink = pendingLinks.count
        var mask: Int64 = 0
        for name in row.genres {
            let genreID = try genres.id(for: name)
            // A genre named twice in one cell links once.
            if stride(from: firstLink + 1, to: pendingLinks.count, by: 2).contains(where: { pendingLinks[$0] == genreID }) {
                continue
            }
            pendingLinks.append(id)
            pendingLinks.append(genreID)
            mask |= MovieFacetsTable.bit(ofGenre: genreID)
        }
        pendingMasks.append(mask)
        if pendingRows.count == Self.batchSize { try flush(batch, all: false) }
        return id
    }

    /// Writes the queued movies, then their genre links (which reference them): full batches
    /// only, unless `all`, when the rest go one by one.
    func flush(_ batch: UnsafeBufferPointer<ImportRow>?, all: Bool) throws {
        let firstID = nextID - Int64(pendingRows.count)
        precondition(pendingRows.isEmpty || batch != nil, "appended rows outlived their batch")
        if !pendingRows.isEmpty, let rows = batch {
            if pendingRows.count == Self.batchSize {
                for (i, index) in pendingRows.enumerated() {
                    try MovieColumns.bindInsert(rows[index].movie, id: firstID + Int64(i), now: nowSeconds,
                                                to: insertMovieBatch, at: Int32(MovieColumns.insertWidth * i))
                    try MovieFacetsTable.bind(rows[index].movie, id: firstID + Int64(i), genres: pendingMasks[i],
                                              to: insertFacetsBatch, at: Int32((MovieFacetsTable.fields.count + 2) * i))
                }
                try insertMovieBatch.step()
                insertMovieBatch.reset(clearingBindings: false)
                try insertFacetsBatch.step()
                insertFacetsBatch.reset(clearingBindings: false)
            } else {
                for (i, index) in pendingRows.enumerated() {
                    try MovieColumns.bindInsert(rows[index].movie, id: firstID + Int64(i), now: nowSeconds, to: insertMovie, at: 0)
                    try insertMovie.step()
                    insertMovie.reset(clearingBindings: false)
                    try MovieFacetsTable.bind(rows[index].movie, id: firstID + Int64(i), genres: pendingMasks[i], to: insertFacets, at: 0)
                    try insertFacets.step()
                    insertFacets.reset(clearingBindings: false)
                }
            }
        }
        pendingRows.removeAll(keepingCapacity: true)
        pendingMasks.removeAll(keepingCapacity: true)

        let full = 2 * Self.batchSize
        var offset = 0
        while pendingLinks.count - offset >= full {
            for i in 0..<full { try insertLinkBatch.bind(pendingLinks[offset + i], at: Int32(i + 1)) }
            try insertLinkBatch.step()
            insertLinkBatch.reset(clearingBindings: false)
            offset += full
        }
        while all && offset < pendingLinks.count {
            try insertLink.bind(pendingLinks[offset], at: 1)
            try insertLink.bind(pendingLinks[offset + 1], at: 2)
            try insertLink.step()
            insertLink.reset(clearingBindings: false)
            offset += 2
        }
        pendingLinks.removeFirst(offset)
    }

    /// Forgets rows still queued from a batch that ends with an error (the import rolls back).
    func discardPending() {
        pendingRows.removeAll(keepingCapacity: true)
        pendingMasks.removeAll(keepingCapacity: true)
    }

    /// Ends appending: writes what is queued, turns CHECKs back on, and rebuilds the unique
    /// indexes, folding repeats of the key first when there are any. `fold` does the folding,
    /// told whether `temp.import_candidates` holds the ids of every movie that may repeat.
    func stop(_ batch: UnsafeBufferPointer<ImportRow>?, timings: PhaseTimings, fold: (_ amongCandidates: Bool) throws -> Void) throws {
        try flush(batch, all: true)
        try db.execute("PRAGMA ignore_check_constraints = OFF")
        timings.mark("append rows")
        // The key's own index first: its rebuild is what would meet repeats.
        let unique = droppedIndexes.filter { $0.name == key.index } + droppedIndexes.filter { $0.name == key.otherIndex }
        for (position, index) in unique.enumerated() {
            if position == 0 {
                try buildKeyIndex(index, timings: timings, fold: fold)
            } else {
                try db.execute(index.sql)
            }
            timings.mark("index \(index.name)")
        }
        droppedIndexes.removeAll { $0.name == key.index || $0.name == key.otherIndex }
        if try MovieTitlesTable.exists(db) {
            try MovieTitlesTable.index(db, above: maxIDBefore)
            timings.mark("title index")
        }
        // Later rows go one by one: the triggers keep movie_facets and movie_titles again.
        for sql in droppedTriggers { try db.execute(sql) }
        droppedTriggers = []
        timings.mark("triggers")
    }

    /// Builds the key's unique index, folding repeats first when the sieve saw some or the
    /// build meets one (a repeat of a stored movie, which the sieve does not see alone).
    private func buildKeyIndex(_ index: (name: String, sql: String), timings: PhaseTimings,
                               fold: (_ amongCandidates: Bool) throws -> Void) throws {
        if !sieve.mayRepeat {
            do {
                try db.execute(index.sql)
                return
            } catch let error as DatabaseError where error.code == .constraint {
                timings.mark("index \(index.name) (finding repeats)")
            }
        }
        let narrowed = try markCandidates()
        timings.mark("repeat candidates")
        defer { if narrowed { try? db.execute("DROP TABLE temp.import_candidates") } }
        try fold(narrowed)
        timings.mark("fold repeats")
        try db.execute(index.sql)
    }

    /// Fills `temp.import_candidates` with the ids of the movies whose key hash is a candidate:
    /// every movie of every repeated key, and a few more. False when too many keys repeat to
    /// narrow the fold (the fold then looks at every movie).
    private func markCandidates() throws -> Bool {
        guard !sieve.overflowed else {
            sieve.release()
            return false
        }
        try db.execute("CREATE TEMP TABLE import_candidates (id INTEGER PRIMARY KEY)")
        let insert = try db.prepare("INSERT INTO temp.import_candidates (id) VALUES (?)")
        let byIMDbID = key == .imdbID
        func scan(_ condition: String, _ isCandidate: (UInt64) -> Bool) throws {
            let rows = try db.prepare("SELECT id, title, year, imdb_id FROM movies WHERE \(condition)")
            try rows.bind(.integer(maxIDBefore), at: 1)
            while try rows.step() {
                let hash = rows.withText(1) { title in
                    rows.withText(3) { RepeatSieve.hash(title: title, year: rows.optionalInt(2), imdbID: $0, byIMDbID: byIMDbID) }
                }
                if isCandidate(hash) {
                    try insert.bind(try rows.int64(0), at: 1)
                    _ = try insert.step()
                    insert.reset(clearingBindings: false)
                }
            }
        }
        // Stored movies first: one whose key an appended row may repeat makes it a candidate.
        if maxIDBefore > 0 {
            try scan("id <= ?") { hash in
                guard sieve.contains(hash) else { return false }
                sieve.addCandidate(hash)
                return true
            }
            if sieve.overflowed {
                sieve.release()
                try db.execute("DROP TABLE temp.import_candidates")
                return false
            }
        }
        let candidates = sieve.finish()
        try scan("id > ?") { RepeatSieve.isCandidate($0, in: candidates) }
        return true
    }

    /// Rebuilds the other dropped indexes (inside the same transaction).
    func finish(timings: PhaseTimings) throws {
        for index in droppedIndexes {
            try db.execute(index.sql)
            timings.mark("index \(index.name)")
        }
        droppedIndexes = []
    }
}

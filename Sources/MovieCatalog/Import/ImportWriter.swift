/// What `import` does when a row's natural key is already in the catalog.
public enum DuplicatePolicy: String, CaseIterable, Sendable {
    case update, skip, fail
}

/// Stores validated rows inside the import's transaction, with reused prepared statements.
///
/// For a large first input it bulk-loads: indexes are dropped, rows are appended without
/// natural-key lookups, and the indexes are rebuilt at the end (sorting beats a million
/// random B-tree inserts). Repeats are then folded as they would have been one by one
/// (see `RepeatFolder`).
final class ImportWriter {
    /// What happened to one row.
    enum Outcome { case inserted, updated, skipped, repeated }

    private let db: Database
    private let policy: DuplicatePolicy
    /// Movies with a larger id were inserted by this import: a match there is a repeat within the input.
    private let maxIDBefore: Int64
    private let lookup: Statement
    private let insertMovie: Statement
    private let insertGenreLink: Statement
    private let deleteGenreLinks: Statement
    private let insertGenre: Statement
    private var updates: [MovieFields: (Statement, [MovieField])] = [:]
    private var touched: Statement?
    /// Lower-cased genre code or name -> genre id.
    private var genreIDs: [String: Int64] = [:]
    /// Index definitions dropped for a bulk load, rebuilt by `finish()`.
    private var droppedIndexes: [(name: String, sql: String)] = []
    /// True while appending without natural-key lookups (bulk load, first input).
    private(set) var appending = false
    /// The columns every appended row had; a row with others ends appending (folding needs them equal).
    private var appendedFields: MovieFields?
    /// Genres with a larger id were added by this import.
    private var maxGenreIDBefore: Int64 = 0
    /// How folding changed the counts since the last `endOfInput()`.
    private var folded = FoldCounts()
    /// The first row starts a bulk load (an empty input changes nothing).
    private var bulkEligible = false
    /// The batch being written (valid between `begin(batch:)` and `endBatch()`).
    private var batch: UnsafeBufferPointer<ImportRow>?
    /// Appended rows of `batch`, by index; they go in as multi-row INSERTs, `batchSize` at a
    /// time, and hold the ids up to `nextID`, in order.
    private var pendingRows: [Int] = []
    /// Their genre links as (movie id, genre id) pairs, inserted after the movies.
    private var pendingLinks: [Int64] = []
    private var nextID: Int64 = 1
    private static let batchSize = 64
    private lazy var insertMovieBatch = try? db.prepare(
        MovieColumns.insertHead + Array(repeating: MovieColumns.insertValues, count: ImportWriter.batchSize).joined(separator: ", "),
        persistent: true)
    /// The import's timestamp, bound once rather than computed by a column default per row.
    private var now: SQLValue = .null
    private var nowSeconds: Int64 = 0
    private lazy var insertLinkBatch = try? db.prepare(
        "INSERT INTO movie_genres (movie_id, genre_id) VALUES "
            + Array(repeating: "(?, ?)", count: ImportWriter.batchSize).joined(separator: ", "), persistent: true)

    init(db: Database, policy: DuplicatePolicy, bulkLoad: Bool) throws {
        self.db = db
        self.policy = policy
        maxIDBefore = Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM movies"))
        lookup = try db.prepare("SELECT id, title, year FROM movies WHERE title = ? COLLATE NOCASE AND ifnull(year, 0) = ?", persistent: true)
        // One row with every column; a NULL id lets SQLite number it (the row-by-row path).
        insertMovie = try db.prepare(MovieColumns.insertHead + MovieColumns.insertValues, persistent: true)
        insertGenreLink = try db.prepare("INSERT OR IGNORE INTO movie_genres (movie_id, genre_id) VALUES (?, ?)", persistent: true)
        deleteGenreLinks = try db.prepare("DELETE FROM movie_genres WHERE movie_id = ?", persistent: true)
        insertGenre = try db.prepare("INSERT INTO genres (code, name) VALUES (?, ?)", persistent: true)
        for (id, code, name) in try db.query("SELECT id, code, name FROM genres", [], { ($0.int64(0), $0.text(1), $0.text(2)) }) {
            genreIDs[name.lowercased()] = id
            genreIDs[code] = id
        }
        nextID = maxIDBefore + 1
        maxGenreIDBefore = Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM genres"))
        nowSeconds = Int64(try db.intScalar("SELECT CAST(strftime('%s', 'now') AS INTEGER)"))
        now = .integer(nowSeconds)
        // Stored movies can only be folded into under update or skip; fail needs each row's line.
        bulkEligible = bulkLoad && (maxIDBefore == 0 || policy != .fail)
    }

    /// Starts writing a batch of rows; appended rows are read from it, in place, until `flushBatch()`.
    func begin(batch rows: UnsafeBufferPointer<ImportRow>) throws {
        precondition(pendingRows.isEmpty, "rows of an earlier batch are still pending")
        batch = rows
    }

    /// Writes the batch's appended rows that are still pending.
    func flushBatch() throws {
        if appending { try flush(all: true) }
    }

    /// Forgets the batch (its memory is the caller's again). Rows still pending here were never
    /// written: only when an error is on its way, which rolls the whole import back.
    func endBatch() {
        batch = nil
        pendingRows.removeAll(keepingCapacity: true)
    }

    /// Stores row `index` of the current batch according to the duplicate policy; returns what
    /// happened and the movie's id.
    func write(_ row: ImportRow, at index: Int, file: String) throws -> (outcome: Outcome, id: Int64) {
        if bulkEligible {
            bulkEligible = false
            try dropIndexes()
            // Appended rows are checked by MovieRules.violation (see there), not by SQLite's CHECKs.
            // A flag pragma re-prepares statements, so only those stepped while appending skip them.
            try db.execute("PRAGMA ignore_check_constraints = ON")
            appending = true
        }
        if !appending, let (id, existing) = try find(row) {
            var repeated = id > maxIDBefore
            if !repeated {
                switch policy {
                case .skip: return (.skipped, id)
                case .fail:
                    throw CatalogError(.dataError, "\(file):\(row.line): '\(row.title)' is already in the catalog as \(existing) (--on-duplicate fail)")
                case .update: repeated = try touchStored(id)
                }
            }
            try update(id, with: row)
            return (repeated ? .repeated : .updated, id)
        }
        if appending {
            if appendedFields == nil { appendedFields = row.present }
            if row.present == appendedFields { return (.inserted, try append(row, at: index)) }
            try stopAppending()
            return try write(row, at: index, file: file)
        }
        try MovieColumns.bindInsert(row.movie, id: nil, now: nowSeconds, to: insertMovie, at: 0)
        try insertMovie.step()
        insertMovie.reset(clearingBindings: false)
        let id = db.lastInsertRowID
        try link(id, to: row.genres)
        return (.inserted, id)
    }

    /// Queues row `index` of the batch for a batched insert with the next id; its genres follow it.
    private func append(_ row: ImportRow, at index: Int) throws -> Int64 {
        if let violation = MovieRules.violation(in: row.movie) {
            throw CatalogError(.internalError, "internal error: line \(row.line) passed validation but \(violation)")
        }
        let id = nextID
        nextID += 1
        pendingRows.append(index)
        let firstLink = pendingLinks.count
        for name in row.genres {
            let genreID = try genreID(for: name)
            // A genre named twice in one cell links once.
            if stride(from: firstLink + 1, to: pendingLinks.count, by: 2).contains(where: { pendingLinks[$0] == genreID }) {
                continue
            }
            pendingLinks.append(id)
            pendingLinks.append(genreID)
        }
        if pendingRows.count == ImportWriter.batchSize { try flush(all: false) }
        return id
    }

    /// Writes the queued movies, then their genre links (which reference them): full batches
    /// only, unless `all`, when the rest go one by one.
    private func flush(all: Bool) throws {
        let firstID = nextID - Int64(pendingRows.count)
        precondition(pendingRows.isEmpty || batch != nil, "appended rows outlived their batch")
        if !pendingRows.isEmpty, let rows = batch {
            if pendingRows.count == ImportWriter.batchSize, let statement = insertMovieBatch {
                for (i, index) in pendingRows.enumerated() {
                    try MovieColumns.bindInsert(rows[index].movie, id: firstID + Int64(i), now: nowSeconds,
                                                to: statement, at: Int32(MovieColumns.insertWidth * i))
                }
                try statement.step()
                statement.reset(clearingBindings: false)
            } else {
                for (i, index) in pendingRows.enumerated() {
                    try MovieColumns.bindInsert(rows[index].movie, id: firstID + Int64(i), now: nowSeconds,
                                                to: insertMovie, at: 0)
                    try insertMovie.step()
                    insertMovie.reset(clearingBindings: false)
                }
            }
        }
        pendingRows.removeAll(keepingCapacity: true)

        let full = 2 * ImportWriter.batchSize
        var offset = 0
        if let batch = insertLinkBatch {
            while pendingLinks.count - offset >= full {
                for i in 0..<full { try batch.bind(pendingLinks[offset + i], at: Int32(i + 1)) }
                try batch.step()
                batch.reset(clearingBindings: false)
                offset += full
            }
        }
        while all && offset < pendingLinks.count {
            try insertGenreLink.bind(pendingLinks[offset], at: 1)
            try insertGenreLink.bind(pendingLinks[offset + 1], at: 2)
            try insertGenreLink.step()
            insertGenreLink.reset(clearingBindings: false)
            offset += 2
        }
        pendingLinks.removeFirst(offset)
    }

    /// The stored movie with the row's natural key: its id and a description for messages.
    private func find(_ row: ImportRow) throws -> (Int64, String)? {
        try lookup.bind(.text(row.title), at: 1)
        try lookup.bind(.integer(Int64(row.year ?? 0)), at: 2)
        defer { lookup.reset() }
        guard try lookup.step() else { return nil }
        let id = lookup.int64(0)
        return (id, "movie \(id) '\(lookup.text(1))'" + (lookup.optionalInt(2).map { " (\($0))" } ?? ""))
    }

    /// Records that this import updated stored movie `id`; true when it already had (a repeat).
    /// Kept in a temporary table, not in memory, so a huge update stays flat.
    private func touchStored(_ id: Int64) throws -> Bool {
        try prepareTouched()
        try touched!.bind([.integer(id)])
        try touched!.step()
        return db.changes == 0
    }

    private func prepareTouched() throws {
        guard touched == nil else { return }
        try db.execute("CREATE TEMP TABLE IF NOT EXISTS import_touched (id INTEGER PRIMARY KEY)")
        touched = try db.prepare("INSERT OR IGNORE INTO temp.import_touched (id) VALUES (?)", persistent: true)
    }

    /// Overwrites the fields the input has; genres are replaced when it has a genres column.
    private func update(_ id: Int64, with row: ImportRow) throws {
        let (statement, fields) = try updateStatement(for: row.present)
        for (offset, field) in fields.enumerated() {
            try MovieColumns.bind(row.movie[field], to: statement, at: Int32(offset + 1))
        }
        try statement.bind(now, at: Int32(fields.count + 1))
        try statement.bind(.integer(id), at: Int32(fields.count + 2))
        try statement.step()
        statement.reset()
        if row.present.contains(.genres) {
            try deleteGenreLinks.bind([.integer(id)])
            try deleteGenreLinks.step()
            try link(id, to: row.genres)
        }
    }

    /// The UPDATE for one set of present columns, prepared once per set (an input has one or few).
    private func updateStatement(for present: MovieFields) throws -> (Statement, [MovieField]) {
        if let cached = updates[present] { return cached }
        // The title always: it may change case. Column names come from MovieField, never from input.
        let fields = MovieField.stored.filter { $0 == .title || present.contains($0) }
        let assignments = fields.map { "\($0.column!) = ?" }.joined(separator: ", ")
        let statement = try db.prepare("UPDATE movies SET \(assignments), updated_at = ? WHERE id = ?", persistent: true)
        updates[present] = (statement, fields)
        return (statement, fields)
    }

    private func link(_ movieID: Int64, to genres: [String]) throws {
        for name in genres {
            let genreID = try genreID(for: name)
            try insertGenreLink.bind(.integer(movieID), at: 1)
            try insertGenreLink.bind(.integer(genreID), at: 2)
            try insertGenreLink.step()
            insertGenreLink.reset()
        }
    }

    /// The id of a genre by code or name; an unknown one is added (code = slug, name as first seen).
    private func genreID(for name: String) throws -> Int64 {
        if let id = genreIDs[name] { return id }
        let key = name.lowercased()
        if let id = genreIDs[key] {
            genreIDs[name] = id
            return id
        }
        let code = Genre.slug(name)
        if let id = genreIDs[code] {
            genreIDs[key] = id
            genreIDs[name] = id
            return id
        }
        if let violation = MovieRules.genreViolation(code: code, name: name) {
            throw CatalogError(.internalError, "internal error: genre '\(name)' passed validation but \(violation)")
        }
        try insertGenre.bind([.text(code), .text(name)])
        try insertGenre.step()
        let id = db.lastInsertRowID
        genreIDs[key] = id
        genreIDs[code] = id
        genreIDs[name] = id
        return id
    }

    private func dropIndexes() throws {
        let indexes = try db.query("""
            SELECT name, sql FROM sqlite_master
             WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('movies', 'movie_genres')
            """) { (name: $0.text(0), sql: $0.text(1)) }
        for index in indexes {
            try db.execute("DROP INDEX \"\(index.name.replacing("\"", with: "\"\""))\"")
            droppedIndexes.append(index)
        }
    }

    /// Ends an input: after a bulk append the natural-key index is back, so later inputs
    /// de-duplicate row by row. Returns how folding changed the input's counts.
    func endOfInput() throws -> FoldCounts {
        bulkEligible = false
        try stopAppending()
        defer { folded = FoldCounts() }
        return folded
    }

    /// Leaves bulk appending: writes what is queued, folds repeats, builds the natural-key index.
    private func stopAppending() throws {
        guard appending else { return }
        try flush(all: true)
        try db.execute("PRAGMA ignore_check_constraints = OFF")
        appending = false
        let naturalKey = droppedIndexes.filter { $0.name == "movies_natural_key" }
        do {
            for index in naturalKey { try db.execute(index.sql) }
        } catch let error as DatabaseError where error.code == 19 /* SQLITE_CONSTRAINT */ {
            if policy == .update { try prepareTouched() }
            let counts = try RepeatFolder.fold(db, maxIDBefore: maxIDBefore, maxGenreIDBefore: maxGenreIDBefore,
                                               policy: policy, fields: appendedFields ?? .all, now: now)
            folded.repeated += counts.repeated
            folded.updated += counts.updated
            folded.skipped += counts.skipped
            if counts.skipped > 0 {
                // Genres that only skipped rows named are gone: forget their ids.
                let kept = Set(try db.query("SELECT id FROM genres WHERE id > ?", [.integer(maxGenreIDBefore)]) { $0.int64(0) })
                genreIDs = genreIDs.filter { $0.value <= maxGenreIDBefore || kept.contains($0.value) }
            }
            for index in naturalKey { try db.execute(index.sql) }
        }
        droppedIndexes.removeAll { $0.name == "movies_natural_key" }
    }

    /// Rebuilds any indexes dropped for the bulk load (inside the same transaction).
    func finish() throws {
        _ = try endOfInput()
        if touched != nil {
            touched = nil
            try db.execute("DROP TABLE temp.import_touched")
        }
        for index in droppedIndexes { try db.execute(index.sql) }
        droppedIndexes = []
    }
}

import MovieDomain
import SQLiteStore
/// Appends a bulk load's rows without lookups, then merges repeats as row by row would have.
///
/// The unique indexes are dropped first, rows go in as multi-row INSERTs with ids numbered
/// here, and at the end the indexes are rebuilt by sorting (which beats a million random B-tree
/// inserts). The last `heldRows` new rows are held in memory before they are written, and a
/// repeat of one of them replaces it there. A row whose key `RepeatSieve` may have seen
/// otherwise (in the input or the stored catalog) is set aside, and `RepeatMerger` merges those
/// rows by key (grouped by `RepeatGroups` from every key's hash, recorded here), so a repeat
/// costs about what a new row does.
///
/// Rows are matched on one key for the whole append: the IMDb id when the first row has one,
/// else the title and year. That equals the row-by-row rules only while every row is keyed
/// alike and the stored catalog is too (all stored movies with ids, or none); `accepts` says
/// when a row breaks that, and the writer then stops appending and goes on row by row.
final class BulkAppender {
    private let db: Database
    private let genres: GenreResolver
    /// The key rows are matched on while appending.
    let key: RepeatMerger.Key
    /// The columns every appended row had (the merge copies them from the last repeat).
    let fields: MovieFields
    /// Index definitions dropped for the load; the unique ones come back in `stop()`, the rest in
    /// `finish()` (or in `stop()`, while the title index is built alongside).
    private(set) var droppedIndexes: [(name: String, sql: String)] = []
    /// How many indexes were dropped, and how many of them are built again: for the progress line.
    private var indexCount = 0
    private var indexesBuilt = 0
    /// How many new rows are still set aside, as repeats are, before the indexes are dropped
    /// (nil once they are).
    private var newRowsKept: Int?
    /// The triggers on movies and movie_genres (movie_facets', movie_titles'), off while
    /// appending (rows and their facet rows are written together here, titles indexed after);
    /// back in `stop()`.
    private var droppedTriggers: [String] = []
    /// movie_facet_totals' insert trigger, off while appending (the blocks of appended ids are
    /// forgotten at once instead); back before the merge, whose writes it must see.
    private var totalsTrigger: String?
    /// New rows held back before they are written: a repeat of one is folded into it in memory
    /// (some 300 bytes a row: 5 MB, what a 10M-row import's sieve, sized by the rows it reads,
    /// left of the 50 MB; 8,192 set aside 338k of a generated 10M-row list's repeats for the
    /// merge, this 20k). A list sorted by title has its repeats next to each other.
    static let heldRows = 16384
    /// Rows appended to the catalog, and rows set aside for the merge.
    private let appended: AppendQueue
    private let later: AppendQueue
    private var nextID: Int64
    private let maxIDBefore: Int64
    /// The keys seen so far, stored and appended: which rows may repeat one.
    private var sieve: RepeatSieve
    /// The keys still to come, as the importer projects them (`RepeatSieve.keysToCome`).
    var keysToCome: Int? {
        get { sieve.keysToCome }
        set { sieve.keysToCome = newValue }
    }
    /// Every key's hash and id (and a set-aside row's key), sorted for the merge to group the
    /// repeats by (`RepeatGroups`); nil once it failed (the merge then groups in SQL).
    private(set) var keys: KeyRuns? = KeyRuns()
    /// The key of the row being set aside (one buffer for all).
    private var keyBytes: [UInt8] = []
    /// The genre ids of the row being appended.
    private var genreIDs: [Int64] = []
    /// Genres this load added that held rows named before a repeat replaced them: row by row,
    /// they were added with those rows and stay, so the merge must not take them away.
    private(set) var replacedGenres: Set<Int64> = []
    /// How the rows spelled the genres this load added, into a stored catalog (nil into an empty
    /// one, where no row is skipped).
    private(set) var spellings: GenreSpellings?
    /// The genres this load added that the row being appended names, with its spellings.
    private var addedNames: [(id: Int64, name: String)] = []
    /// The bits of a key's hash that are kept (all but in tests).
    private let hashMask: UInt64
    /// Rows set aside for the merge.
    private var setAside = 0
    private let nowSeconds: Int64
    /// Indexes appended titles on another thread, when the catalog had no movies.
    private var titles: TitleIndexBuilder?

    /// Starts appending rows like `first` (its key and columns) after stored ids up to `maxIDBefore`;
    /// `hadMovies` says whether any are stored (ids may be 0 and below); `titleScratchPages`
    /// limits the title index built alongside; `hashMask` cuts keys' hashes and `heldRows` sets the
    /// rows held back (for tests).
    init(db: Database, genres: GenreResolver, first: ImportRow, maxIDBefore: Int64, hadMovies: Bool, nowSeconds: Int64,
         titleScratchPages: Int? = nil, sieve: RepeatSieve = RepeatSieve(), hashMask: UInt64 = .max,
         heldRows: Int = BulkAppender.heldRows) throws {
        self.db = db
        self.genres = genres
        key = first.imdbID == nil ? .titleYear : .imdbID
        fields = first.present
        // Above the genre links a sqlite3 user's delete left behind too (the shell checks no foreign
        // keys): a movie appended at their id would have their genres in movie_genres but not in
        // its facet row. A row written one by one takes them on in both (movie_facets' trigger).
        // Ids up to Int64.max (a sqlite3 user's) leave no room: then `accepts` takes no row, and
        // the rows are written one by one, where SQLite finds free ids.
        let (next, full) = max(maxIDBefore, Int64(try db.intScalar("SELECT ifnull(max(movie_id), 0) FROM movie_genres"))).addingReportingOverflow(1)
        nextID = full ? Int64.max : next
        self.maxIDBefore = maxIDBefore
        self.nowSeconds = nowSeconds
        self.sieve = sieve
        self.hashMask = hashMask
        // A stored catalog keeps its indexes while its new rows are few (a 32nd of it): a list
        // imported again brings few or none, and rebuilding every index (5–8 s at 1M movies)
        // costs more than writing a few movies into them. Until then new rows are set aside with
        // the repeats and merged at the end (appending them into the live indexes cost some 50 µs
        // a row at 1M; set aside, a tenth of that when the indexes are dropped after all).
        newRowsKept = hadMovies ? max(1, try db.intScalar("SELECT count(*) FROM movies") / 32) : nil
        spellings = hadMovies ? GenreSpellings() : nil
        // A sqlite3 user's trigger anywhere (on genres, which new genres fire; a TEMP one) may
        // insert movies while rows are appended: then ids are bound as numbered, and a clash is
        // that trigger's, said as such.
        let nullIDs = try db.query("SELECT name FROM sqlite_master WHERE type = 'trigger' UNION ALL SELECT name FROM sqlite_temp_master WHERE type = 'trigger'") {
            try $0.text(0)
        }.allSatisfy(DerivedTables.isDerived)
        appended = try AppendQueue(db, table: "movies", linkTable: "movie_genres", facets: true, window: heldRows, nowSeconds: nowSeconds, nullIDs: nullIDs)
        try db.execute(RepeatMerger.tablesSQL)
        later = try AppendQueue(db, table: RepeatMerger.rowTable, linkTable: RepeatMerger.linkTable, facets: false, nowSeconds: nowSeconds, nullIDs: nullIDs)
        // Stored keys first: a row repeating one is set aside like a repeat within the input.
        if hadMovies { try sieveStoredKeys() }
        // Only an index of no titles may be replaced whole by the one built alongside.
        if !hadMovies, let titles = TitleIndexBuilder.start(for: db, pageLimit: titleScratchPages) {
            self.titles = titles
            appended.onWrite = { titles.add(id: $0, title: $1) }
        }
        droppedTriggers = try db.dropSchemaObjects("trigger", on: ["movies", "movie_genres"]).map(\.sql)
        totalsTrigger = try db.dropSchemaObjects("trigger", on: ["movie_facets"]) { $0.name == FacetTotals.triggers[0] }.first?.sql
        if newRowsKept == nil { try dropIndexes() }
        // Appended rows are checked by MovieRules.violation, not by SQLite's CHECKs. A flag
        // pragma re-prepares statements, so only those stepped while appending skip them.
        try db.execute("PRAGMA ignore_check_constraints = ON")
    }

    /// Puts every stored movie's key into the sieve, and its hash into `keys`.
    private func sieveStoredKeys() throws {
        let byIMDbID = key == .imdbID
        let rows = try db.prepare("SELECT title, year, imdb_id, id FROM movies")
        while try rows.step() {
            rows.withText(0) { title in
                rows.withText(2) { RepeatSieve.key(title: title, year: rows.optionalInt(1), imdbID: $0, byIMDbID: byIMDbID, into: &keyBytes) }
            }
            let hash = RepeatSieve.hash(keyBytes) & hashMask
            _ = sieve.insert(hash)
            try record(hash, id: try rows.int64(3), setAside: false)
        }
    }

    /// Records a key's hash and id in `keys`, and its bytes for a set-aside row; a failure (a
    /// full temporary directory, say) leaves the merge to group in SQL.
    private func record(_ hash: UInt64, id: Int64, setAside: Bool) throws {
        do {
            if setAside {
                try keyBytes.withUnsafeBufferPointer { try keys?.add(key: hash, id: id, bytes: $0) }
            } else {
                try keys?.add(key: hash, id: id)
            }
        } catch is KeyRuns.Failure {
            keys = nil
        }
    }

    /// Whether a stored catalog lets rows keyed like `first` be appended, and the title-and-year
    /// keys of the stored movies a row may match another way. Every stored movie keyed alike
    /// (all with an IMDb id, or none) matches no other way: an empty set. Rows with IMDb ids
    /// into a catalog where a few movies have none (the demo's 13, a list without ids) may give
    /// one of those its id: their keys, for such rows to wait for the row-by-row path (when
    /// `waits`: under update, where every row names its genres). Nil when rows cannot be
    /// appended (rows without ids into a catalog with ids: several films of one title and year
    /// make a row ambiguous; or too many movies without ids to hold their keys).
    static func storedKeysMatchedOtherwise(_ db: Database, first: ImportRow, waits: Bool) throws -> Set<[UInt8]>? {
        if first.imdbID == nil {
            return try db.intScalar("SELECT EXISTS (SELECT 1 FROM movies WHERE imdb_id IS NOT NULL)") == 1 ? nil : []
        }
        let untold = try db.intScalar("SELECT count(*) FROM (SELECT 1 FROM movies WHERE imdb_id IS NULL LIMIT \(maxUntoldKeys + 1))")
        if untold == 0 { return [] }
        guard waits, untold <= maxUntoldKeys else { return nil }
        var keys: Set<[UInt8]> = []
        var key: [UInt8] = []
        let rows = try db.prepare("SELECT title, year FROM movies WHERE imdb_id IS NULL")
        while try rows.step() {
            rows.withText(0) { RepeatSieve.key(title: $0, year: rows.optionalInt(1), imdbID: nil, byIMDbID: false, into: &key) }
            keys.insert(key)
        }
        return keys
    }

    /// The most stored movies without IMDb ids whose keys a load by IMDb id holds (some 100
    /// bytes each).
    static let maxUntoldKeys = 100_000

    /// Whether the title index is built on another thread (the merge then notes the movies it
    /// gives other titles).
    var buildsTitlesAlongside: Bool { titles != nil }

    /// Whether `row` can be appended: the same columns and the same key as the first.
    func accepts(_ row: ImportRow) -> Bool {
        row.present == fields && (row.imdbID != nil) == (key == .imdbID) && nextID < Int64.max
    }

    /// Queues `row` with the next id, to be appended, or set aside when its key may repeat one
    /// seen before (or while a stored catalog keeps its indexes); a repeat of a held row replaces
    /// it instead. Returns the movie's id, and whether the row was such a repeat.
    func append(_ row: ImportRow) throws -> (id: Int64, repeated: Bool) {
        if let violation = row.violation {
            throw CatalogError(.internalError, "internal error: line \(row.line) passed validation but \(violation)")
        }
        genreIDs.removeAll(keepingCapacity: true)
        addedNames.removeAll(keepingCapacity: true)
        for name in row.genres {
            let id = try genres.id(for: name)
            // A genre named twice in one cell links once.
            if !genreIDs.contains(id) { genreIDs.append(id) }
            if spellings != nil && id > genres.maxIDBefore { addedNames.append((id, name)) }
        }
        // The key's bytes are made only for the rows set aside (recorded); a possible repeat of a
        // held row is compared in place.
        let hash = row.keyHash(byIMDbID: key == .imdbID) & hashMask
        // The held row with this key, if any. A held row passed over once (its
        // bucket's entry taken by a later row's) is never found again, so no repeat folded here
        // can come after one set aside for the merge: the last repeat still wins.
        if let held = appended.held(hash: hash, sameKeyAs: row.movie, byIMDbID: key == .imdbID) {
            for genre in appended.genreIDs(at: held.slot) where genre > genres.maxIDBefore { replacedGenres.insert(genre) }
            for (genre, name) in addedNames { spellings?.kept(genre, name: name, position: nextID) }
            appended.replace(held.slot, with: row.movie, genreIDs: genreIDs)
            return (held.id, true)
        }
        let id = nextID
        nextID += 1
        var queue = sieve.insert(hash) ? later : appended
        if queue === appended, let kept = newRowsKept {
            if kept > 0 {
                newRowsKept = kept - 1
                queue = later
            } else {
                try dropIndexes()
            }
        }
        if queue === later {
            RepeatSieve.key(of: row.movie, byIMDbID: key == .imdbID, into: &keyBytes)
            setAside += 1
        }
        for (genre, name) in addedNames {
            if queue === later { spellings?.setAside(genre, name: name, id: id) } else { spellings?.kept(genre, name: name, position: id) }
        }
        try record(hash, id: id, setAside: queue === later)
        queue.add(row.movie, id: id, genreIDs: genreIDs, hash: hash)
        try queue.flush(all: false)
        return (id, false)
    }

    /// Ends appending: writes what is queued, calls `merge` when rows were set aside, builds the
    /// unique indexes again (unless the merge did), and the others while the title index is built
    /// alongside, and turns CHECKs back on.
    func stop(timings: PhaseTimings, merge: () throws -> Void) throws {
        try appended.flush(all: true)
        try later.flush(all: true)
        appended.release()
        later.release()
        sieve.release()
        // Every title is with the builder: it indexes them while the indexes below are built.
        titles?.appendDone()
        timings.mark("append rows (\(setAside) set aside)")
        if let totalsTrigger {
            try db.execute(totalsTrigger)
            self.totalsTrigger = nil
        }
        if maxIDBefore < Int64.max { try FacetTotals.forget(db, from: maxIDBefore + 1) }
        if setAside > 0 {
            // Set-aside rows passed MovieRules.violation as appended ones did, so the merge too
            // writes them without SQLite's CHECKs: a CHECK calling a function (upper, trim) makes
            // each multi-row statement keep a statement journal of every page it changes.
            timings.begin("folding repeats")
            try merge()
        }
        keys = nil
        if titles != nil {
            // The builder is still indexing titles on the other core: the facet totals, the
            // writer's work alone, are counted meanwhile, not after the index builds (which
            // share that core with SQLite's sorter threads). ImportWriter.finish fills any
            // block a later input changes.
            try FacetTotals.fill(db) { timings.begin("counting facets") }
            timings.mark("facet totals")
        }
        try buildUniqueIndexes(timings)
        // While the builder still indexes titles on its thread, the other indexes are built now
        // rather than in `finish()`: the writer would wait for it (8 s at 10M rows, once the merge
        // had become faster than the builder).
        if titles != nil { try finish(timings: timings) }
        try db.execute("PRAGMA ignore_check_constraints = OFF")
        timings.begin("indexing titles")
        if try !installTitles(timings) && MovieTitlesTable.exists(db) {
            try MovieTitlesTable.index(db, above: maxIDBefore)
            timings.mark("title index")
        } else {
            timings.mark("title index, built alongside: copied in")
        }
        try db.execute(RepeatMerger.dropTablesSQL)
        // Later rows go one by one: the triggers keep movie_facets and movie_titles again.
        for sql in droppedTriggers { try db.execute(sql) }
        droppedTriggers = []
        timings.mark("triggers")
    }

    /// Puts the title index built alongside in place, then indexes what the merge changed: the new
    /// keys (movies numbered as set-aside rows: a new key keeps its first row's id) and the
    /// appended movies it gave other titles (the builder has their first ones). False when there
    /// is no builder, or it failed (say, its temporary directory was full): the caller then
    /// indexes the titles itself, as they are now.
    private func installTitles(_ timings: PhaseTimings) throws -> Bool {
        guard let titles else { return false }
        self.titles = nil
        do {
            try titles.install(into: db, timings: timings)
        } catch is TitleIndexBuilder.Failure {
            return false
        }
        if setAside > 0 {
            try MovieTitlesTable.remove(db, indexedAs: RepeatMerger.retitledTable)
            try MovieTitlesTable.add(db, where: "m.id IN (SELECT id FROM \(RepeatMerger.rowTable)) OR m.id IN (SELECT id FROM \(RepeatMerger.retitledTable))", [])
        }
        return true
    }

    /// Drops the indexes of movies, movie_genres and movie_facets for the rest of the append, but
    /// those no appended row enters: an index of the non-NULL values of a column these rows lack
    /// (votes, IMDb ids, a rating) stays as it is rather than being built again from every row.
    private func dropIndexes() throws {
        let lacked = MovieField.stored.filter { !fields.contains($0) }
        let absent = ["movies": lacked.map { $0.column! },
                      "movie_facets": MovieFacetsTable.fields.filter { lacked.contains($0.field) }.map(\.column)]
        droppedIndexes = try db.dropSchemaObjects("index", on: ["movies", "movie_genres", "movie_facets"]) { index in
            guard let column = try db.nullSkippingColumn(ofIndex: index),
                  case .text(let table)? = try db.scalar("SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = ?", [.text(index.name)])
            else { return true }
            return !(absent[table]?.contains(column) ?? false)
        }
        indexCount = droppedIndexes.count
        newRowsKept = nil
    }

    /// Builds the unique indexes of movies again, unless built already: after the merge, or for
    /// it when it must find movies by key in SQL (appended rows never repeat a key).
    func buildUniqueIndexes(_ timings: PhaseTimings) throws {
        for index in droppedIndexes where index.name == key.index || index.name == key.otherIndex {
            try build(index, timings)
        }
        droppedIndexes.removeAll { $0.name == key.index || $0.name == key.otherIndex }
    }

    /// Rebuilds the other dropped indexes (inside the same transaction).
    func finish(timings: PhaseTimings) throws {
        for index in droppedIndexes { try build(index, timings) }
        droppedIndexes = []
    }

    private func build(_ index: (name: String, sql: String), _ timings: PhaseTimings) throws {
        indexesBuilt += 1
        timings.begin("building indexes (\(indexesBuilt) of \(indexCount))")
        try db.execute(index.sql)
        timings.mark("index \(index.name)")
    }
}

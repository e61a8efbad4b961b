import MovieDomain
import SQLiteStore
/// What `import` does when a row's movie is already in the catalog.
public enum DuplicatePolicy: String, CaseIterable, Sendable {
    case update, skip, fail
}

/// Stores validated rows inside the import's transaction, with reused prepared statements.
///
/// Each row is matched to a stored movie by the rules of `MovieIdentity`, then inserted,
/// updated, skipped or refused by the duplicate policy. An input large beside the catalog is
/// bulk-loaded instead (`BulkAppender`), which ends as row by row would have.
final class ImportWriter {
    /// What happened to one row.
    enum Outcome: Equatable {
        case inserted, updated, skipped, repeated
        /// An update-only row whose movie is not stored.
        case notInCatalog
        /// The row cannot be stored (ambiguous); the reason is a problem like a validation one.
        case rejected(String)
    }

    private let db: Database
    private let policy: DuplicatePolicy
    /// Movies with a larger id were inserted by the current input: a match there is a repeat
    /// within it. One inserted by an earlier input of the command is a stored movie to this one,
    /// as if the files were imported in turn (`--on-duplicate` applies; its update counts).
    private var maxIDBeforeInput: Int64
    /// The largest id before the command: a larger one is a movie an earlier input added (its
    /// `--on-duplicate fail` says so, as the movie it names is gone once the import fails).
    private let maxIDBeforeImport: Int64
    /// Whether the catalog had movies when the current input began (a sqlite3 user may have
    /// given them ids 0 and below).
    private var hadMovies: Bool
    private let identity: MovieIdentity
    private let saver: MovieSaver
    private var genres: GenreResolver { saver.genres }
    private var touched = TouchedIDs()
    /// The import's timestamp, bound once rather than computed by a column default per row.
    private var nowSeconds: Int64 { saver.nowSeconds }
    private var now: SQLValue { .integer(nowSeconds) }
    /// The input's first row may start a bulk load (an empty input changes nothing).
    private var bulkEligible: Bool
    /// Set while rows are appended in bulk.
    private var bulk: BulkAppender?
    /// Finished bulk appends (one an input at most), with indexes still to rebuild at `finish()`.
    private var finishedBulks: [BulkAppender] = []
    /// How merging repeats changed the counts since the last `endOfInput()`.
    private var folded = FoldCounts()
    /// How long the phases of storing took.
    let timings = PhaseTimings()
    /// Rows appended in bulk so far (tests check which path an import took).
    private(set) var appendedRows = 0
    /// The keys the last bulk load's sieve was sized for.
    private(set) var sieveKeys = 0

    /// Every row set aside and merged (`BulkLoad.alwaysMergingEveryRow`).
    private let mergingEveryRow: Bool
    /// Keys' hashes cut to two bits (`BulkLoad.alwaysWithSharedHashes`).
    private let sharedHashes: Bool
    /// New rows a bulk load holds back, where their repeats fold (`BulkAppender.heldRows`).
    private let heldRows: Int
    /// A page limit for the title index built alongside (`ImportOptions.titleScratchPages`).
    private let titleScratchPages: Int?

    /// The rows still to come of the input being read, projected from the rows read so far and
    /// the bytes they took (nil: an input of unknown size): a bulk load's sieve is sized by them.
    var rowsToCome: Int? {
        didSet { bulk?.keysToCome = rowsToCome }
    }
    /// The movies the catalog held before the import (with the rows appended since, the keys a
    /// later input's sieve starts with).
    var storedMovies = 0
    /// The rows the size of the input being read suggests (`Importer.estimatedRows`; nil:
    /// unknown): they bound what its first batch projects (`RepeatSieve.firstLayerRows`).
    var rowsBySize: Int?

    /// movie_facets kept at the end, for an input large beside the catalog.
    private let deferredFacets: DeferredFacets?
    /// The title index's insert trigger, off while many movies are inserted row by row (not when
    /// a sqlite3 user's own triggers may write movies meanwhile).
    private var deferredTitles: DeferredTitles?

    /// While rows with IMDb ids are appended (under update) into a catalog with movies that have
    /// none: those movies' title-and-year keys. A row with one of them (which may give that movie its id),
    /// or with the IMDb id of such a row, waits in `waiting` and is written row by row once the
    /// append ends; no appended row can match what it matches, nor it what they do, so the
    /// catalog ends as row by row would leave it (a waiting row that is new takes a later id).
    private var matchedOtherwise: Set<[UInt8]> = []
    private var waiting: [(row: ImportRow, file: String)] = []
    private var waitingIDs: Set<String> = []
    private var waitingKey: [UInt8] = []
    /// The most rows that wait: past it, the append ends and the rest go row by row.
    static let maxWaiting = 50_000

    init(db: Database, policy: DuplicatePolicy, bulkLoad: Bool, mergingEveryRow: Bool = false, sharedHashes: Bool = false, heldRows: Int = BulkAppender.heldRows, titleScratchPages: Int? = nil,
         deferFacets: Bool = false) throws {
        self.mergingEveryRow = mergingEveryRow
        self.sharedHashes = sharedHashes
        self.heldRows = heldRows
        self.titleScratchPages = titleScratchPages
        deferredFacets = deferFacets ? DeferredFacets(db: db) : nil
        self.db = db
        self.policy = policy
        maxIDBeforeInput = Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM movies"))
        maxIDBeforeImport = maxIDBeforeInput
        hadMovies = try db.intScalar("SELECT EXISTS (SELECT 1 FROM movies)") == 1
        identity = try MovieIdentity(db: db)
        saver = try MovieSaver(db: db)
        // A sqlite3 user's own triggers on movies or movie_genres (an audit log, a RAISE) see
        // every row only row by row: a bulk load drops the triggers while it appends.
        ownTriggersOnly = try db.schemaObjects("trigger", on: ["movies", "movie_genres"]).allSatisfy { DerivedTables.isDerived($0.name) }
        deferredTitles = ownTriggersOnly ? DeferredTitles(db: db) : nil
        // Stored movies can only be merged into under update or skip; fail needs each row's line.
        bulkEligible = bulkLoad && ownTriggersOnly && (!hadMovies || policy != .fail)
    }

    /// Whether every trigger on movies and movie_genres is moviecat's.
    private let ownTriggersOnly: Bool

    /// Stores a row according to the duplicate policy; returns what happened and the movie's id
    /// (0 when none).
    func write(_ row: ImportRow, file: String) throws -> (outcome: Outcome, id: Int64) {
        if bulkEligible {
            bulkEligible = false
            if row.present.contains(.title), let keys = try hadMovies ? BulkAppender.storedKeysMatchedOtherwise(db, first: row, waits: policy == .update) : [] {
                matchedOtherwise = keys
                // The stored movies' keys go in first.
                let rows = rowsToCome.map { RepeatSieve.firstLayerRows(projected: $0, bySize: rowsBySize ?? 0) }
                var sieve = RepeatSieve(expectedKeys: rows.map { storedMovies + appendedRows + $0 }, seesEverything: mergingEveryRow)
                sieve.keysToCome = rowsToCome
                sieveKeys = sieve.capacities[0]
                bulk = try BulkAppender(db: db, genres: genres, first: row, maxIDBefore: maxIDBeforeInput, hadMovies: hadMovies,
                                        nowSeconds: nowSeconds, titleScratchPages: titleScratchPages,
                                        sieve: sieve, hashMask: sharedHashes ? 3 : .max, heldRows: heldRows)
            }
        }
        if let bulk {
            if bulk.accepts(row) {
                if mustWait(row) {
                    waiting.append((row, file))
                    // Its new genres added now, as row by row would, so each is named as the first
                    // row naming it spells it.
                    for name in row.movie.genres { _ = try genres.id(for: name) }
                    // Counted as inserted for now, as appended rows are; `stopAppending` corrects it.
                    if waiting.count <= Self.maxWaiting { return (.inserted, 0) }
                    try stopAppending()
                    return (.inserted, 0)
                }
                appendedRows += 1
                let (id, repeated) = try bulk.append(row)
                return (repeated ? .repeated : .inserted, id)
            }
            try stopAppending()
        }
        return try writeRowByRow(row, file: file)
    }

    /// Whether an appended row must wait for the row-by-row path (see `matchedOtherwise`).
    private func mustWait(_ row: ImportRow) -> Bool {
        guard !matchedOtherwise.isEmpty, let id = row.imdbID else { return false }
        if !waitingIDs.contains(id) {
            RepeatSieve.key(of: row.movie, byIMDbID: false, into: &waitingKey)
            guard matchedOtherwise.contains(waitingKey) else { return false }
        }
        waitingIDs.insert(id)
        return true
    }

    /// Stores a row by the identity rules, one lookup at a time.
    private func writeRowByRow(_ row: ImportRow, file: String) throws -> (outcome: Outcome, id: Int64) {
        switch try identity.match(row.movie) {
        case .ambiguous(let movies):
            return (.rejected(Self.ambiguity(movies)), 0)
        case .none:
            if !row.present.contains(.title) { return (.notInCatalog, 0) }
            try deferredFacets?.willInsert()
            try deferredTitles?.willInsert()
            return (.inserted, try saver.insert(row.movie))
        case .movie(let id, let attach):
            var repeated = id > maxIDBeforeInput
            if !repeated {
                switch policy {
                case .skip: return (.skipped, id)
                case .fail:
                    // A ratings file's row has no title: it is its IMDb id.
                    let named = row.present.contains(.title) ? "\(row.title.quotedForMessage)" : row.movie.imdbID ?? "the row"
                    let earlier = id > maxIDBeforeImport ? ", added by an earlier file of this import" : ""
                    throw CatalogError(.dataError, "\(file):\(row.line): \(named) is already in the catalog as \(try identity.describe(id))\(earlier) (--on-duplicate fail)")
                case .update: repeated = try touchStored(id)
                }
            }
            try update(id, with: row, attach: attach)
            return (repeated ? .repeated : .updated, id)
        }
    }

    /// Why a row naming `movies` by its title and year is rejected.
    private static func ambiguity(_ movies: String) -> String {
        "ambiguous: movies \(movies) have this title and year; an imdb_id column tells them apart"
    }

    /// Why `row` would be rejected when stored (ambiguous), found without storing it: an import
    /// that stopped writing at an invalid row still counts the rows `--skip-invalid` would reject.
    /// Nil while rows are bulk-appended (their key matches no stored movie another way).
    func rejection(of row: ImportRow) throws -> String? {
        guard bulk == nil, case .ambiguous(let movies) = try identity.match(row.movie) else { return nil }
        return Self.ambiguity(movies)
    }

    /// Records that this import updated stored movie `id`; true when it already had (a repeat).
    private func touchStored(_ id: Int64) throws -> Bool {
        !touched.insert(id)
    }

    /// Overwrites the fields the input has; genres are replaced when it has a genres column.
    /// The IMDb id is written only to `attach` it: a movie found by its id has it already (and
    /// rewriting it would rewrite two indexes), and an empty cell never clears one.
    private func update(_ id: Int64, with row: ImportRow, attach: Bool) throws {
        var present = row.present
        if !attach { present.remove(.imdbID) }
        if present.contains(.title) { try deferredTitles?.willRetitle(id, to: row.movie.title) }
        try deferredFacets?.willUpdate(present)
        try saver.update(id, from: row.movie, fields: present)
    }

    /// The genres this import added to the catalog.
    var addedGenres: [Genre] { genres.added }
    /// The genre codes the catalog knew before.
    var genresBefore: [String] { genres.known.codes }

    /// Starts an input after the first: bulk-loaded when `bulk` (a file large beside the catalog
    /// as it now is), as the first one may be, with the movies stored so far as its stored ones.
    func beginInput(bulk: Bool) throws {
        hadMovies = try db.intScalar("SELECT EXISTS (SELECT 1 FROM movies)") == 1
        bulkEligible = bulk && ownTriggersOnly && (!hadMovies || policy != .fail)
    }

    /// Ends an input: after a bulk append the unique indexes are back, and the next input is
    /// written row by row unless `beginInput` says otherwise. Returns how merging changed the
    /// input's counts.
    func endOfInput() throws -> FoldCounts {
        bulkEligible = false
        try stopAppending()
        try deferredTitles?.flush()
        maxIDBeforeInput = max(maxIDBeforeInput, Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM movies")))
        // The next input updates a stored movie once before repeating it, as imported in turn.
        touched = TouchedIDs()
        defer { folded = FoldCounts() }
        return folded
    }

    /// Leaves bulk appending: writes what is queued, merges repeats, rebuilds the unique indexes.
    private func stopAppending() throws {
        guard let appender = bulk else { return }
        bulk = nil
        finishedBulks.append(appender)
        try appender.stop(timings: timings) {
            let indexKeys = { [timings] in
                try appender.buildUniqueIndexes(timings)
                timings.begin("folding repeats")   // the merge goes on
            }
            let counts = try RepeatMerger.merge(db, key: appender.key, keys: appender.keys, indexKeys: indexKeys,
                                                maxIDBefore: maxIDBeforeInput, maxGenreIDBefore: genres.maxIDBefore, keptGenres: appender.replacedGenres,
                                                policy: policy, fields: appender.fields, now: now, touched: &touched, timings: timings,
                                                recordRetitled: appender.buildsTitlesAlongside)
            folded.repeated += counts.repeated
            folded.updated += counts.updated
            folded.skipped += counts.skipped
            // Genres that only skipped rows named are gone; the others are named by a row kept.
            if counts.skipped > 0 {
                try genres.forgetRemoved()
                try appender.spellings?.rename(db, key: appender.key, maxIDBefore: maxIDBeforeInput, resolver: genres)
            }
        }
        // The rows that waited, in their order, each counted as inserted so far.
        let rows = waiting
        if !rows.isEmpty { timings.begin("storing rows one by one") }
        waiting = []
        waitingIDs = []
        matchedOtherwise = []
        for (row, file) in rows {
            switch try writeRowByRow(row, file: file).outcome {
            case .inserted, .notInCatalog, .rejected: break   // the last two: not for rows with titles and ids
            case .updated: folded.updated += 1
            case .skipped: folded.skipped += 1
            case .repeated: folded.repeated += 1
            }
        }
    }

    /// Rebuilds any indexes dropped for the bulk load (inside the same transaction).
    func finish() throws {
        _ = try endOfInput()
        timings.restart()
        // Facet rows first, while their indexes are still dropped.
        if let deferredFacets {
            timings.begin("storing facet rows")
            try deferredFacets.copyUpdates(now: nowSeconds)
            timings.mark("facet rows of updates")
        }
        for appender in finishedBulks { try appender.finish(timings: timings) }
        finishedBulks = []
        if let deferredFacets {
            timings.begin("building the facet indexes")
            try deferredFacets.rebuildIndexes()
            timings.mark("sort indexes")
        }
        try FacetTotals.fill(db) { timings.begin("counting facets") }
        timings.mark("facet totals")
    }
}

/// How merging repeats changed an input's counts: rows first counted as inserted that were repeats.
struct FoldCounts: Equatable {
    /// Rows that repeated an earlier row of the input (the last one's values were kept).
    var repeated = 0
    /// Stored movies that the input's rows updated (once each).
    var updated = 0
    /// Rows that repeated a stored movie under `--on-duplicate skip`.
    var skipped = 0
    /// All merged rows: each was counted as inserted when appended.
    var notInserted: Int { repeated + updated + skipped }
}

import MovieDomain
import SQLiteStore
/// Rows a bulk load queues for one destination (the catalog's tables, or the merge's scratch
/// tables), written `batchSize` at a time as multi-row INSERTs with typed binds: each row, its
/// facet row (for the catalog) and its genre links.
///
/// A queue with a `window` holds its last rows back, up to that many, and finds them by their
/// keys' hashes: a repeat of one of them replaces it in memory (`replace`) instead of being set
/// aside and merged at the end. Repeats close together, as in a list sorted by title, then cost
/// what a parsed row does.
final class AppendQueue {
    static let batchSize = 64
    private let insertRow: Statement
    private let insertRows: Statement
    private let insertFacets: (one: Statement, many: Statement)?
    /// Parameters a row takes in `insertRows`.
    private let rowWidth: Int32
    private let insertLink: Statement
    private let insertLinks: Statement
    private let nowSeconds: Int64

    /// A queued row: its values, id, genres and key's hash.
    private struct Row {
        var movie: Movie
        var id: Int64
        var genreIDs: [Int64] = []
        var genreBits: Int64 = 0
        var hash: UInt64 = 0
    }
    /// Queued rows, oldest first from `head`: a ring of `window` + `batchSize` slots.
    private var ring: [Row] = []
    private var head = 0
    private var count = 0
    private let window: Int
    /// Slot + 1 of queued rows by their hashes' low bits, `ways` to a bucket (0: none). A row
    /// whose bucket holds `ways` rows still queued takes the oldest one's entry, which then just
    /// goes unfound (with one entry a hash position some 3 % of held rows did, and their repeats,
    /// a fifth of a generated list's set-aside rows, were set aside).
    private var slots: [Int32]
    private static let ways = 4
    /// Genre links of written rows as (movie id, genre id) pairs, written after the rows.
    private var links: [Int64] = []
    /// The texts of the batch being written, bound without SQLite copying them.
    private let texts = TextArena()
    /// Told each row's id and title as it is written, in id order.
    var onWrite: ((Int64, String) -> Void)?
    /// The ids bound in `table` and in movie_facets: NULL where SQLite numbers a row the same.
    private var rowIDs: AscendingIDs
    private var facetIDs: AscendingIDs
    private let db: Database

    /// A queue into `table` (with `movies`' columns) and `linkTable`, and with `facets` into
    /// movie_facets too; else into `table`'s `MovieColumns.genreBits` column goes each row's
    /// genres' bit set, as its facet row would have it. It holds back up to `window` rows. Table
    /// names are the caller's fixed SQL. With `nullIDs`, rows SQLite numbers alike get NULL ids:
    /// only where no statement but this queue's inserts movies while it writes (no trigger of a
    /// sqlite3 user's).
    init(_ db: Database, table: String, linkTable: String, facets: Bool, window: Int = 0, nowSeconds: Int64, nullIDs: Bool) throws {
        func many(_ head: String, _ values: String) -> String {
            head + Array(repeating: values, count: Self.batchSize).joined(separator: ", ")
        }
        let rowHead = MovieColumns.insertHead(into: table, extra: facets ? nil : MovieColumns.genreBits)
        let rowValues = MovieColumns.insertValues(extra: facets ? 0 : 1)
        rowWidth = Int32(MovieColumns.insertWidth + (facets ? 0 : 1))
        insertRow = try db.prepare(rowHead + rowValues, persistent: true)
        insertRows = try db.prepare(many(rowHead, rowValues), persistent: true)
        let linkHead = "INSERT INTO \(linkTable) (movie_id, genre_id) VALUES "
        insertLink = try db.prepare(linkHead + "(?, ?)", persistent: true)
        insertLinks = try db.prepare(many(linkHead, "(?, ?)"), persistent: true)
        insertFacets = facets
            ? (try db.prepare(MovieFacetsTable.insertHead + MovieFacetsTable.insertValues, persistent: true),
               try db.prepare(many(MovieFacetsTable.insertHead, MovieFacetsTable.insertValues), persistent: true))
            : nil
        self.nowSeconds = nowSeconds
        self.window = window
        self.db = db
        rowIDs = AscendingIDs(after: nullIDs ? Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM \(table)")) : nil)
        facetIDs = AscendingIDs(after: nullIDs && facets ? Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM movie_facets")) : nil)
        // 16 entries a held row, in buckets of four: a held row seldom loses its entry.
        slots = window > 0 ? [Int32](repeating: 0, count: 1 << (Int.bitWidth - (window * 16 - 1).leadingZeroBitCount)) : []
    }

    /// Queues `movie` as movie `id`, linked to `genreIDs` (distinct), with its key's `hash`.
    func add(_ movie: Movie, id: Int64, genreIDs: [Int64], hash: UInt64) {
        let slot = slot(count)
        if slot == ring.count { ring.append(Row(movie: movie, id: id)) } else { ring[slot].id = id }
        count += 1
        set(slot, movie, genreIDs: genreIDs, hash: hash)
        if window > 0 { slots[entry(for: hash)] = Int32(slot + 1) }
    }

    /// Whether ring slot `slot` holds a queued row.
    private func isQueued(_ slot: Int) -> Bool { (slot - head + ring.count) % ring.count < count }

    /// The first entry of `hash`'s bucket.
    private func bucket(of hash: UInt64) -> Int { Int(hash & UInt64(slots.count / Self.ways - 1)) * Self.ways }

    /// The entry of `hash`'s bucket a new row takes: a free one (never used, its row written, or
    /// its slot another bucket's row now), else the oldest queued row's.
    private func entry(for hash: UInt64) -> Int {
        let first = bucket(of: hash)
        var oldest = first, oldestAge = Int.max
        for entry in first..<first + Self.ways {
            let slot = Int(slots[entry]) - 1
            guard slot >= 0, isQueued(slot), bucket(of: ring[slot].hash) == first else { return entry }
            let age = (slot - head + ring.count) % ring.count
            if age < oldestAge { (oldest, oldestAge) = (entry, age) }
        }
        return oldest
    }

    /// The slot and id of the held row with `movie`'s key (whose hash is `hash`), if one is held:
    /// compared in place, with no copy of the held row's values.
    func held(hash: UInt64, sameKeyAs movie: Movie, byIMDbID: Bool) -> (slot: Int, id: Int64)? {
        guard !slots.isEmpty else { return nil }
        let first = bucket(of: hash)
        for entry in first..<first + Self.ways {
            let slot = Int(slots[entry]) - 1
            if slot >= 0, isQueued(slot), ring[slot].hash == hash, RepeatSieve.sameKey(movie, ring[slot].movie, byIMDbID: byIMDbID) {
                return (slot, ring[slot].id)
            }
        }
        return nil
    }

    /// The genre ids of the held row in `slot`.
    func genreIDs(at slot: Int) -> [Int64] { ring[slot].genreIDs }

    /// Replaces the held row in `slot` with a later repeat's values and genres (its id stays).
    func replace(_ slot: Int, with movie: Movie, genreIDs: [Int64]) {
        set(slot, movie, genreIDs: genreIDs, hash: ring[slot].hash)
    }

    private func set(_ slot: Int, _ movie: Movie, genreIDs: [Int64], hash: UInt64) {
        ring[slot].movie = movie
        // Their names are not written (the ids are): the parser's list is not held on to.
        ring[slot].movie.genres = []
        ring[slot].genreIDs.removeAll(keepingCapacity: true)
        ring[slot].genreIDs.append(contentsOf: genreIDs)
        ring[slot].genreBits = genreIDs.reduce(0) { $0 | MovieFacetsTable.bit(ofGenre: $1) }
        ring[slot].hash = hash
    }

    /// The ring slot of the `n`th queued row.
    private func slot(_ n: Int) -> Int { (head + n) % (window + Self.batchSize) }

    /// Writes the queued rows beyond the window, a whole batch at a time, then their genre links;
    /// with `all`, every row and link, the rest one by one.
    func flush(all: Bool) throws {
        while count - window >= Self.batchSize || (all && count > 0) {
            let full = count >= Self.batchSize
            let rows = full ? Self.batchSize : 1
            let statement = full ? insertRows : insertRow
            let facets = insertFacets.map { full ? $0.many : $0.one }
            // The last batch's statements were stepped: their texts may go.
            texts.clear(reserving: (0..<rows).reduce(0) { $0 + Self.textBytes(of: ring[slot($1)].movie) })
            for i in 0..<rows {
                let s = slot(i), id = ring[s].id
                let offset = rowWidth * Int32(i)
                try MovieColumns.bindInsert(ring[s].movie, id: rowIDs.bound(id), now: nowSeconds,
                                            to: statement, at: offset, arena: texts)
                if let facets {
                    try MovieFacetsTable.bind(ring[s].movie, id: facetIDs.bound(id), genres: ring[s].genreBits, to: facets,
                                              at: Int32((MovieFacetsTable.fields.count + 2) * i), arena: texts)
                } else {
                    try statement.bind(ring[s].genreBits, at: offset + rowWidth)
                }
                for genre in ring[s].genreIDs {
                    links.append(id)
                    links.append(genre)
                }
                onWrite?(id, ring[s].movie.title)
            }
            try step(statement, facets, lastID: ring[slot(rows - 1)].id)
            head = slot(rows)
            count -= rows
        }
        let full = 2 * Self.batchSize
        var offset = 0
        while links.count - offset >= full {
            for i in 0..<full { try insertLinks.bind(links[offset + i], at: Int32(i + 1)) }
            try step(insertLinks, nil, lastID: nil)
            offset += full
        }
        while all && offset < links.count {
            try insertLink.bind(links[offset], at: 1)
            try insertLink.bind(links[offset + 1], at: 2)
            try step(insertLink, nil, lastID: nil)
            offset += 2
        }
        links.removeFirst(offset)
    }

    /// The bytes a row's texts take in `texts`: its facet row binds the certification again.
    private static func textBytes(of movie: Movie) -> Int {
        movie.title.utf8.count + 2 * (movie.certification?.utf8.count ?? 0) + (movie.imdbID?.utf8.count ?? 0)
    }

    private func step(_ statement: Statement, _ facets: Statement?, lastID: Int64?) throws {
        try statement.step()
        statement.reset(clearingBindings: false)
        try checkNumbered(lastID)
        if let facets {
            try facets.step()
            facets.reset(clearingBindings: false)
            try checkNumbered(lastID)
        }
    }

    /// A row SQLite numbered otherwise than `id` (never: a NULL id is bound only one past the
    /// largest stored, and this writer alone writes in its transaction) stops the import.
    private func checkNumbered(_ id: Int64?) throws {
        guard let id, db.lastInsertRowID != id else { return }
        throw CatalogError(.internalError, "internal error: SQLite numbered movie \(id) as \(db.lastInsertRowID)")
    }

    /// Frees the held rows' memory once everything is written, and lets go of `onWrite` (the
    /// title index builder it feeds is freed once installed).
    func release() {
        precondition(count == 0 && links.isEmpty, "queued rows not written")
        ring = []
        slots = []
        onWrite = nil
    }
}

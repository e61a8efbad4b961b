import MovieDomain
import SQLiteStore
/// Rows a bulk load queues for one destination (the catalog's tables, or the merge's scratch
/// tables), written `batchSize` at a time as multi-row INSERTs with typed binds: each row, its
/// facet row (for the catalog) and its genre links.
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
    /// Queued rows, by index in the caller's batch, with their ids and genre bit sets.
    private var rows: [Int] = []
    private var ids: [Int64] = []
    private var masks: [Int64] = []
    /// Their genre links as (movie id, genre id) pairs, written after the rows.
    private var links: [Int64] = []
    /// Where the last row's links start in `links`.
    private var firstLink = 0

    /// A queue into `table` (with `movies`' columns) and `linkTable`, and with `facets` into
    /// movie_facets too; else into `table`'s `MovieColumns.genreBits` column goes each row's
    /// genres' bit set, as its facet row would have it. Table names are the caller's fixed SQL.
    init(_ db: Database, table: String, linkTable: String, facets: Bool, nowSeconds: Int64) throws {
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
    }

    /// Whether a whole batch of rows is queued.
    var isFull: Bool { rows.count == Self.batchSize }

    /// Queues row `index` of the caller's batch, with `id`; its genres follow with `link`.
    func add(_ index: Int, id: Int64) {
        rows.append(index)
        ids.append(id)
        masks.append(0)
        firstLink = links.count
    }

    /// Links the row queued last to a genre; a genre named twice in one cell links once.
    func link(_ genreID: Int64) {
        if stride(from: firstLink + 1, to: links.count, by: 2).contains(where: { links[$0] == genreID }) { return }
        links.append(ids[ids.count - 1])
        links.append(genreID)
        masks[masks.count - 1] |= MovieFacetsTable.bit(ofGenre: genreID)
    }

    /// Writes the queued rows, then their genre links: full batches only, unless `all`, when the
    /// rest go one by one.
    func flush(_ batch: UnsafeBufferPointer<ImportRow>?, all: Bool) throws {
        precondition(rows.isEmpty || batch != nil, "queued rows outlived their batch")
        if let batch, isFull || (all && !rows.isEmpty) {
            let statement = isFull ? insertRows : insertRow
            let facets = insertFacets.map { isFull ? $0.many : $0.one }
            for (i, index) in rows.enumerated() {
                let movie = batch[index].movie
                let offset = isFull ? rowWidth * Int32(i) : 0
                try MovieColumns.bindInsert(movie, id: ids[i], now: nowSeconds, to: statement, at: offset)
                if let facets {
                    try MovieFacetsTable.bind(movie, id: ids[i], genres: masks[i], to: facets,
                                              at: Int32(isFull ? (MovieFacetsTable.fields.count + 2) * i : 0))
                } else {
                    try statement.bind(masks[i], at: offset + rowWidth)
                }
                if !isFull { try step(statement, facets) }
            }
            if isFull { try step(statement, facets) }
            rows.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            masks.removeAll(keepingCapacity: true)
        }
        let full = 2 * Self.batchSize
        var offset = 0
        while links.count - offset >= full {
            for i in 0..<full { try insertLinks.bind(links[offset + i], at: Int32(i + 1)) }
            try step(insertLinks, nil)
            offset += full
        }
        while all && offset < links.count {
            try insertLink.bind(links[offset], at: 1)
            try insertLink.bind(links[offset + 1], at: 2)
            try step(insertLink, nil)
            offset += 2
        }
        links.removeFirst(offset)
        firstLink = 0
    }

    private func step(_ statement: Statement, _ facets: Statement?) throws {
        try statement.step()
        statement.reset(clearingBindings: false)
        if let facets {
            try facets.step()
            facets.reset(clearingBindings: false)
        }
    }

    /// Forgets the queued rows (an error is on its way, which rolls the import back).
    func discard() {
        rows.removeAll(keepingCapacity: true)
        ids.removeAll(keepingCapacity: true)
        masks.removeAll(keepingCapacity: true)
        links.removeAll(keepingCapacity: true)
        firstLink = 0
    }
}

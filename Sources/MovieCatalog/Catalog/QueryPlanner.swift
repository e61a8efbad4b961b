import MovieDomain
import SQLiteStore

/// A filter query as it will run: the statement, what drives it, and the estimates behind the choice.
public struct QueryPlan: Sendable {
    /// What a plan starts from.
    public enum Driver: Equatable, Sendable, CustomStringConvertible {
        /// The sort key's index, walked in sort order until the page is full (a broad set).
        case sortOrder(SortKey)
        /// The index of the most selective selected facet; its matches are then sorted.
        case facet(Facet)
        /// The IMDb id index (the set names movies by id).
        case imdbID
        /// Every movie: movie_facets, the narrow copy (movies, when a title is tested).
        case scan

        public var description: String {
            switch self {
            case .sortOrder(let key): return "walk the \(key.rawValue) order"
            case .facet(.title): return "start from the title index (FTS5 trigrams)"
            case .facet(let facet): return "start from the \(facet.rawValue) index"
            case .imdbID: return "start from the IMDb id index"
            case .scan: return "scan every movie"
            }
        }
    }

    /// What the statement starts from.
    public let driver: Driver
    /// The statement.
    public let sql: SQLFragment
    /// The estimated cost of each driver considered (rows touched), for `--explain`.
    public let costs: [(driver: Driver, rows: Double)]
    /// The estimated number of movies and matches.
    public let movies: Double, matches: Double
    /// For a count, the driving table's id column when it is read in id order (movie_facets
    /// scanned, the title index's candidates): `AND column BETWEEN ...` then counts one part.
    public internal(set) var idOrder: String? = nil
    /// How a count that scans every movie reads movie_facet_totals' packed rows instead.
    public enum PackedRows: Sendable {
        /// Each row tested against the set.
        case tallied
        /// Nothing selected: each block's row count alone, from the head of its blob.
        case rowCounts
    }
    /// For a count that scans every movie: how it reads movie_facet_totals' packed rows instead
    /// (the statement then counts only when they cannot be read); nil when it does not.
    public internal(set) var packedRows: PackedRows? = nil
    /// For a walk whose page ends inside a large tie: the key and its value there (the tie is
    /// walked in title order, `SortTies.swift`).
    public internal(set) var largeTie: (field: MovieField, value: SQLValue)? = nil
    /// For a listing of every match (no page): the driver's `FROM ... WHERE`, whose rows (`m`) are
    /// exactly the matches, so that a question about them (has one a value?) follows the plan.
    public internal(set) var source: SQLFragment? = nil
    /// For a deep page by a facet column: the matches before the page's first key value, skipped
    /// by counting each value (`KeyValueSkip`), and that value.
    public internal(set) var skipped: (field: MovieField, movies: Int64, before: SQLValue)? = nil
    /// For a walk in sort order: how far it may go before the next cheapest plan runs instead.
    public internal(set) var walkLimit: WalkLimit? = nil
    /// For a limited walk in a facet's order: the steps its look for the page's end took while
    /// planning, when it looked and finished within the walk's budget.
    public internal(set) var lookupSteps: Int? = nil
    /// For the plan run instead of a walk whose lookup of its page's end, while planning, ran
    /// out of the walk's SQLite steps: those steps.
    public internal(set) var walkRanOut: Int? = nil
}

/// Chooses how to run a filter query: walk the sort key's index and stop after the page (broad
/// sets), start from the most selective selected facet's index, or scan the narrow copy.
///
/// SQLite's own planner has no statistics here (ANALYZE made one facet query 4x slower on 3.40):
/// it drives a broad set from whichever range index it sees and sorts every match. The choice
/// comes from a sample of about a thousand movies instead, and the statement pins it with
/// INDEXED BY / NOT INDEXED and CROSS JOIN order. Every plan reads the facet columns from
/// movie_facets (genres as bits), so an index walk probes one narrow row.
struct QueryPlanner {
    /// The facets with an index to start from, and the index.
    static let facetIndexes: [(facet: Facet, index: String)] = [
        (.genre, "movie_genres_genre"), (.rating, "movie_facets_rating"), (.duration, "movie_facets_minutes"),
        (.year, "movie_facets_year"), (.votes, "movie_facets_votes"), (.title, MovieTitlesTable.name),
    ]

    /// movie_facets' index on a sort key's column.
    static func sortIndex(of field: MovieField) -> String { "movie_facets_" + MovieFacetsTable.column(of: field) }

    /// The natural key's index: title order.
    static let titleIndex = "movies_natural_key"

    let db: Database
    let filters: FilterSet
    /// Past this many rows before a page's end, its matches are numbered in one sort, not kept in
    /// ORDER BY's b-tree of the first rows (tests lower it).
    var deepPage = 50_000
    /// Conditions over `movie_facets f`, genres as bits.
    let columns: ConditionColumns
    /// The whole set's condition over `f` and `m`.
    let condition: SQLFragment
    /// The indexes (and tables) the catalog has (a sqlite3 user may have dropped one).
    let indexes: Set<String>
    /// The title index query for the set's title elements, when they can be looked up there.
    let titleQuery: String?
    /// Whether `titleQuery` finds exactly the titles the title elements match (phrases, in an
    /// index that `MovieTitlesTable.findsExactly`), so that no title is read to test it.
    let titleIsExact: Bool
    /// Whether the condition reads movie_facets (else only title and IMDb id, in movies).
    var readsFacets: Bool { filters.elements.contains { $0.facet != .title && $0.facet != .imdb } }
    /// Whether the condition reads movies (title and IMDb id).
    var readsMovies: Bool { filters.elements.contains { $0.facet == .title || $0.facet == .imdb } }

    init(db: Database, filters: FilterSet, genres: GenreCatalogue) throws {
        self.db = db
        self.filters = filters
        var bits: [String: Int64] = [:]
        for genre in genres.genres { bits[genre.code] = MovieFacetsTable.bit(ofGenre: genre.id) }
        let columns = try MovieTitlesTable.testing(filters, on: MovieFacetsTable.conditionColumns(genreBits: bits), db)
        self.columns = columns
        condition = SQLBuilder.condition(for: filters, on: columns)
        let schema = try db.query("SELECT name, sql FROM sqlite_master WHERE type IN ('index', 'table')") {
            (try $0.text(0), $0.optionalText(1))
        }
        indexes = Set(schema.map(\.0))
        let titles = filters.elements(of: .title).map(\.value)
        // Read the index's definition only for a title search (a start-up cost of every count).
        let phrases = !titles.isEmpty
            && schema.first { $0.0 == MovieTitlesTable.name }?.1.map(MovieTitlesTable.findsExactly(definition:)) ?? false
        titleQuery = MovieTitlesTable.matchQuery(titles, phrases: phrases)
        titleIsExact = phrases && titleQuery != nil
    }

    /// The plan for a page (or all) of `query`'s movies, with `select` as the result columns.
    /// `forcing` a driver (tests) skips the choice; it must suit the query (`drivers(for:)`).
    func select(_ query: MovieQuery, columns select: String, forcing forced: QueryPlan.Driver? = nil) throws -> QueryPlan {
        // The first screen, nothing selected and a page in title order: the title index's walk
        // reads the page's rows alone, in any catalog, so no sample is needed to choose it (the
        // sample was a sixth of the command's instructions).
        if forced == nil, filters.isEmpty, query.sort == .title, let limit = query.limit, indexes.contains(Self.titleIndex) {
            let (wanted, overflow) = limit.addingReportingOverflow(query.offset ?? 0)
            // The catalog's size, for --explain: the title index's row count (the open's check read it).
            let movies = Double(try MovieTitlesTable.indexedRows(db))
            let rows = overflow ? movies : min(movies, Double(wanted))
            return QueryPlan(driver: .sortOrder(.title), sql: walkSQL(query, select: select, wanted: overflow ? Int64.max : Int64(wanted), ties: nil),
                             costs: [(.sortOrder(.title), 2 * rows * Self.probeCost)], movies: movies, matches: movies)
        }
        let keyColumn = query.sort.field.map { "f." + MovieFacetsTable.column(of: $0) }
        let (sample, candidates, most) = try estimate(keyColumn: keyColumn, counting: false)
        let matches = min(sample.estimate(sample.matches), most)
        let paged = query.limit != nil
        // The rows a page needs from the start; a sum past Int64 is all of them.
        let (sum, overflow) = (query.limit ?? 0).addingReportingOverflow(query.offset ?? 0)
        let wantedRows = overflow ? Int.max : sum, wanted = Double(wantedRows)
        // A range index's matches come by value, and each one's movie (its title breaks the sort's
        // ties) is looked up at random; a scan and the genre index list ids in order, and the
        // title index's plan reads movies first.
        var costs: [(driver: QueryPlan.Driver, rows: Double)] = candidates.map {
            guard case .facet(let facet) = $0.driver, facet != .title, facet != .genre else { return ($0.driver, $0.rows + matches * Self.sortCost) }
            return ($0.driver, $0.rows + matches * (Self.sortCost + Self.probeCost))
        }
        // Any set but an IMDb id's (one movie) may walk: the empty set, or one of facets without an
        // index of their own (certification, excluded genres), too.
        if paged, candidates.first?.driver != .imdbID, let walk = walkCost(query.sort, wanted: wanted, sample: sample, mostMatches: most) {
            costs.append((.sortOrder(query.sort), walk))
        }
        let driver = forced ?? choose(costs)
        let others = costs.filter { $0.driver != driver }
        // The walk's estimate rests on the sample; when the sample saw few matches it may be far
        // off (2 matches in 9.5M: the whole title order, 20 s). The walk is given a share of the
        // next plan's work (`WalkLimit`), then that plan runs: at most twice its cost, or four
        // times when a look for the page's end finished while planning and the walk gave up.
        var limited: (next: QueryPlan.Driver, rows: Double, steps: Int)?
        if forced == nil, case .sortOrder = driver, wantedRows <= deepPage, !others.isEmpty {
            let next = choose(others), rows = others.first { $0.driver == next }!.rows, walk = costs.first { $0.driver == driver }!.rows
            limited = (next, rows, WalkLimit.steps(rows: rows, walk: walk, seen: sample.matches > 0, wanted: wanted, page: Double(query.limit ?? 0)))
        }
        guard let limited else {
            return try statement(query, select: select, driver: driver, sample: sample, matches: matches, costs: costs, wantedRows: wantedRows)
        }
        var instead = try statement(query, select: select, driver: limited.next, sample: sample, matches: matches, costs: costs, wantedRows: wantedRows)
        do {
            var plan = try statement(query, select: select, driver: driver, sample: sample, matches: matches, costs: costs,
                                     wantedRows: wantedRows, steps: limited.steps)
            // The look for the page's end walked what the walk will, so the walk gets twice that
            // (a walk that it found short gave up where the lookup had not: 0.19 -> 0.57 s).
            let looked = plan.lookupSteps.map { WalkLimit.steps(afterLook: $0, wanted: wanted, page: Double(query.limit ?? 0)) } ?? 0
            plan.walkLimit = WalkLimit(rows: limited.rows, steps: max(limited.steps, looked), instead: instead)
            return plan
        } catch is WalkOutOfSteps {
            instead.walkRanOut = limited.steps
            return instead
        }
    }

    /// The plan of `query` from `driver`, with the estimates behind the choice; `wantedRows`, the
    /// rows from the first to the page's end.
    private func statement(_ query: MovieQuery, select: String, driver: QueryPlan.Driver, sample: QuerySample, matches: Double,
                           costs: [(driver: QueryPlan.Driver, rows: Double)], wantedRows: Int, steps: Int? = nil) throws -> QueryPlan {
        let keyColumn = query.sort.field.map { "f." + MovieFacetsTable.column(of: $0) }
        let paged = query.limit != nil
        // Scans and the IMDb id and title indexes read movies first: sort by its columns.
        let order = [.scan, .imdbID, .facet(.title)].contains(driver) ? query.sort.orderBy(descending: query.descending)
            : query.sort.orderBy(descending: query.descending, column: keyColumn)
        let page = SQLFragment(" LIMIT ? OFFSET ?", [.integer(Int64(query.limit ?? -1)), .integer(Int64(query.offset ?? 0))])
        let sql: SQLFragment, matching = from(driver, sortedByTitle: query.sort == .title, facetsFirst: scansFacetsFirst(sample))
        var ties: SQLValue?, skip: KeyValueSkip?, lookup: Int?
        if case .sortOrder(let key) = driver {
            var spent: Int?
            ties = try key.field.flatMap { try largeTies(of: $0, descending: query.descending, wanted: Int64(wantedRows), sample: sample, steps: steps, spent: &spent) }
            lookup = spent
            sql = walkSQL(query, select: select, wanted: Int64(wantedRows), ties: ties)
        } else if paged && wantedRows <= deepPage {
            // Sort ids only, then read the page's movies: the genre list is built for its rows alone.
            sql = SQLFragment("SELECT \(select) FROM (SELECT m.id AS id ") + matching + SQLFragment(" ORDER BY \(order)") + page
                + SQLFragment(") p CROSS JOIN movies m ON m.id = p.id ORDER BY \(query.sort.orderBy(descending: query.descending))")
        } else if paged || query.offset != nil {
            // A deep page, or all past an offset: the matches numbered in one sort. ORDER BY with
            // LIMIT and OFFSET keeps the first rows in a b-tree that outgrows the page cache (at
            // 10M, `--sort rating --offset 5000000 --limit 5` took 89.6 s, numbered 17.6 s; with
            // no limit, `--offset 9490000` 93 s). The numbered rows come in their order, which the
            // LIMIT takes and the join keeps (movies inside: CROSS JOIN), so none is sorted again
            // (an ORDER BY n sorted every row past the offset again: 8.4 s against 5.1 s).
            var source = matching, offset = Int64(query.offset ?? 0)
            skip = try keySkip(query, driver: driver, offset: offset, matches: matches, keyed: sample.estimate(sample.keyedMatches))
            if let skip {
                source = source + SQLFragment(" AND ") + skip.condition
                offset -= skip.skipped
            }
            sql = SQLFragment("SELECT \(select) FROM (SELECT id FROM (SELECT m.id AS id, row_number() OVER (ORDER BY \(order)) AS n ")
                + source + SQLFragment(") WHERE n > ? LIMIT ?) p CROSS JOIN movies m ON m.id = p.id",
                                       [.integer(offset), .integer(Int64(query.limit ?? -1))])
        } else {
            sql = SQLFragment("SELECT \(select) ") + matching + SQLFragment(" ORDER BY \(order)")
        }
        var plan = QueryPlan(driver: driver, sql: sql, costs: costs, movies: sample.movies, matches: matches)
        if case .sortOrder(let key) = driver, let field = key.field, let ties { plan.largeTie = (field, ties) }
        plan.lookupSteps = lookup
        if !paged && query.offset == nil { plan.source = matching }
        if let skip, let field = query.sort.field { plan.skipped = (field, skip.skipped, skip.first) }
        return plan
    }

    /// A page read by walking the sort key's index (`walk`), then its movies.
    private func walkSQL(_ query: MovieQuery, select: String, wanted: Int64, ties: SQLValue?) -> SQLFragment {
        let page = SQLFragment(" LIMIT ? OFFSET ?", [.integer(Int64(query.limit ?? -1)), .integer(Int64(query.offset ?? 0))])
        return SQLFragment("SELECT \(select) FROM (") + walk(query.sort, descending: query.descending, wanted: wanted, ties: ties)
            + page + SQLFragment(") p CROSS JOIN movies m ON m.id = p.id ORDER BY \(query.sort.orderBy(descending: query.descending))")
    }

    /// The plan that counts the set's movies (`forcing` a driver: tests).
    /// `packedRows`: a scan would tally movie_facet_totals' packed rows instead (it can answer the set).
    func count(forcing forced: QueryPlan.Driver? = nil, packedRows: Bool = false) throws -> QueryPlan {
        var (sample, costs, most) = try estimate(keyColumn: nil, counting: true)
        if packedRows, let scan = costs.firstIndex(where: { $0.driver == .scan }) {
            costs[scan].rows = sample.movies * Self.packedRowCost
        }
        let driver = forced ?? choose(costs)
        // Exact phrases test the titles in the index: movies is read only for an IMDb id.
        let testedInMovies: Set<Facet> = driver == .facet(.title) && titleIsExact ? [.imdb] : [.title, .imdb]
        let needsMovies = filters.elements.contains { testedInMovies.contains($0.facet) }
        let facetsFirst = scansFacetsFirst(sample)
        var idOrder: String?
        switch driver {
        case .facet(.title): idOrder = "t.rowid"
        case .scan where filters.elements(of: .title).isEmpty || facetsFirst: idOrder = "f.id"
        case .scan: idOrder = "m.id"
        default: idOrder = nil
        }
        return QueryPlan(driver: driver, sql: SQLFragment("SELECT count(*) ") + from(driver, joiningMovies: needsMovies, facetsFirst: facetsFirst), costs: costs,
                         movies: sample.movies, matches: min(sample.estimate(sample.matches), most), idOrder: idOrder)
    }

    /// `FROM ... WHERE ...` of a driver: movie_facets f and (unless not `joiningMovies`) movies m,
    /// in the order and with the index the driver says (a scan reads by id, so a count can be
    /// split by id range, unless `sortedByTitle` and the title index gives the order). A scan that
    /// tests a title reads movies first, unless `facetsFirst` (`scansFacetsFirst`).
    func from(_ driver: QueryPlan.Driver, joiningMovies: Bool = true, sortedByTitle: Bool = false, facetsFirst: Bool = false) -> SQLFragment {
        let movies = joiningMovies ? " CROSS JOIN movies m ON m.id = f.id" : ""
        // Random lookups into movie_facets cost more than they save when no condition reads it.
        let facets = readsFacets ? " CROSS JOIN movie_facets f ON f.id = m.id" : ""
        switch driver {
        case .facet(.genre):
            // Rows by id from the selected genres' ids (NOT INDEXED: no other index of f).
            let byID = ConditionColumns(alias: "f") { MovieFacetsTable.column(of: $0) }
            return SQLFragment("FROM movie_facets f NOT INDEXED\(movies) WHERE ")
                + SQLBuilder.condition(facet: .genre, elements: filters.elements(of: .genre), on: byID)
                + SQLFragment(" AND ") + condition
        case .facet(.title) where titleIsExact:
            // The phrases find exactly the matching titles, in id order: the rest of the set
            // decides, reading movies and movie_facets only when it (or the result) needs them.
            let rest = filters.removing(.title)
            var tables = "FROM movie_titles t"
            if joiningMovies { tables += " CROSS JOIN movies m ON m.id = t.rowid" }
            if readsFacets { tables += " CROSS JOIN movie_facets f ON f.id = t.rowid" }
            let match = MovieTitlesTable.match(titleQuery!, alias: "t")
            return SQLFragment(tables + " WHERE ") + (rest.isEmpty ? match : match + SQLFragment(" AND ") + SQLBuilder.condition(for: rest, on: columns))
        case .facet(.title):
            // The title index narrows to candidates, in id order; the condition's exact test decides.
            // A join, not `m.id IN (...)`: no temporary b-tree of the candidates' ids.
            return SQLFragment("FROM movie_titles t CROSS JOIN movies m ON m.id = t.rowid\(facets) WHERE ")
                + MovieTitlesTable.match(titleQuery!, alias: "t") + SQLFragment(" AND ") + condition
        case .facet(let facet):
            let field = facet.sortKey!.field!
            let column = "f." + MovieFacetsTable.column(of: field)
            // The partial index serves rows where the column IS NOT NULL, as every element implies.
            return SQLFragment("FROM movie_facets f INDEXED BY \(Self.sortIndex(of: field))\(movies) WHERE \(column) IS NOT NULL AND ")
                + condition
        case .imdbID:
            return SQLFragment("FROM movies m\(facets) WHERE ") + condition
        case .scan, .sortOrder:
            if !filters.elements(of: .title).isEmpty && !facetsFirst {
                // The title test reads movies: scan it, and look up the narrow row of its matches
                // only. In id order, but for titles alone in title order: there the natural key
                // index (it covers the title) gives the order, and a listing streams. Elsewhere in
                // title order each match's lookups (the narrow row, the sort's column) land at
                // random, a page read each (`title:x genre:action`, 348,000 titles with an x at
                // 9.5M movies: 2.37 s against 1.23 s in id order).
                let titleOrder = sortedByTitle && !readsFacets && indexes.contains(Self.titleIndex)
                return SQLFragment("FROM movies m \(titleOrder ? "INDEXED BY \(Self.titleIndex)" : "NOT INDEXED")\(facets) WHERE ") + condition
            }
            return SQLFragment("FROM movie_facets f NOT INDEXED\(movies) WHERE ") + condition
        }
    }

    /// The ids of the first `wanted` matches in sort order, walking the key's index: first the
    /// movies with a value for the key, then (unless the set requires one) those without, in
    /// title order, as the sort puts them last. Each arm stops after `wanted` rows. A page that
    /// ends in a large tie (`ties`, see `largeTies`) walks the tie in title order.
    private func walk(_ key: SortKey, descending: Bool, wanted: Int64, ties: SQLValue? = nil) -> SQLFragment {
        let limit = SQLFragment(" LIMIT ?", [.integer(wanted)])
        let byTitle = titleWalk
        guard let field = key.field else {
            // Nothing selected: no facet row is tested, so none is read (a page read 50 more).
            let walked = filters.isEmpty ? SQLFragment("SELECT m.id AS id FROM movies m INDEXED BY \(Self.titleIndex) WHERE ") : byTitle
            return SQLFragment("SELECT * FROM (") + walked + condition
                + SQLFragment(" ORDER BY \(SortKey.titleOrder(descending: descending))") + limit + SQLFragment(")")
        }
        let column = "f." + MovieFacetsTable.column(of: field)
        // The page ends in a large tie: no movie without the key is needed.
        if let ties { return walkSplit(at: ties, field: field, descending: descending, limit: limit) }
        var sql = SQLFragment.join(walkConditions(field, descending: descending).map { walked in
            SQLFragment("SELECT * FROM (SELECT m.id AS id FROM movie_facets f INDEXED BY \(Self.sortIndex(of: field)) CROSS JOIN movies m ON m.id = f.id WHERE \(column) IS NOT NULL AND ")
                + walked + SQLFragment(" ORDER BY \(column)\(descending ? " DESC" : ""), \(SortKey.titleOrder(descending: false))") + limit + SQLFragment(")")
        }, separator: " UNION ALL ")
        if Facet(sortKey: key).map({ filters.elements(of: $0).isEmpty }) ?? true {
            sql = sql + SQLFragment(" UNION ALL SELECT * FROM (") + byTitle + SQLFragment("\(column) IS NULL AND ") + condition
                + SQLFragment(" ORDER BY \(SortKey.titleOrder(descending: false))") + limit + SQLFragment(")")
        }
        return sql
    }
}

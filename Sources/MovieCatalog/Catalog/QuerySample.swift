import MovieDomain
import SQLiteStore

/// What about a thousand movies, spread over the catalog, say about a filter set: how many match
/// it, each selected facet alone, and the sort key. The planner's only statistics: cheap (one
/// statement over 32 short id ranges) and always current, unlike ANALYZE's.
struct QuerySample {
    /// Ranges sampled, and ids in each.
    static let ranges = 32, width = 32

    /// Movies estimated in the catalog (the id span times the share of ids in use).
    var movies = 0.0
    /// Sampled movies.
    var rows = 0.0
    /// Sampled movies matching the whole set.
    var matches = 0.0
    /// Sampled movies matching each selected facet's elements alone.
    var facetMatches: [Facet: Double] = [:]
    /// Sampled movies with a value for the sort key, and those of them matching the set.
    var keyed = 0.0, keyedMatches = 0.0
    /// The sort key's distinct values among the sampled movies.
    var keyValues = 0.0
    /// The sampled movies as a FROM clause over `movie_facets f` (nil: no sample), for a second look.
    private(set) var sampled: SQLFragment?
    /// Whether the sample's condition reads `movies m` (a title or IMDb id is selected).
    private var joiningMovies = false

    /// No sample (the set picks its movies by id).
    init() {}

    /// Samples `movie_facets f` (joined to `movies m` when `joiningMovies`: a title condition) under
    /// `condition` (over those aliases), each of `facets` alone, and `keyColumn` (e.g. `f.rating`; nil for none).
    /// `with` names tables the conditions read (`WITH ...`).
    init(_ db: Database, with tables: SQLFragment? = nil, condition: SQLFragment, facets: [(Facet, SQLFragment)], keyColumn: String?,
         joiningMovies: Bool) throws {
        guard let ids = try MovieFacetsTable.idBounds(db) else { return }
        // In Int128: a sqlite3 user may spread ids over all of Int64.
        let low = Int128(ids.lowerBound), high = Int128(ids.upperBound)
        let span = high - low + 1
        let count = Int128(Self.ranges), width = Int128(Self.width)
        var ranges: [(Int64, Int64)] = []
        if span <= count * width {
            ranges = [(ids.lowerBound, ids.upperBound)]
        } else {
            for i in 0..<count {
                // Each range starts and ends within low...high, so within Int64.
                let start = low + i * (span / count)
                ranges.append((Int64(start), Int64(min(start + width - 1, high))))
            }
        }
        let requested = ranges.reduce(0.0) { $0 + Double($1.1 - $1.0 + 1) }
        let key = keyColumn ?? "NULL"
        var columns = [SQLFragment("count(*), total(") + condition + SQLFragment("), total(\(key) IS NOT NULL), total(\(key) IS NOT NULL AND (")
                       + condition + SQLFragment(")), count(DISTINCT \(key))")]
        columns += facets.map { SQLFragment("total(") + $0.1 + SQLFragment(")") }
        // A row of ranges joined by id, not 32 ORs: SQLite prepares and runs the ORs as a union of
        // rowid sets, two thirds of a count's instructions after its start (callgrind).
        let values = SQLFragment.join(ranges.map { SQLFragment("(?, ?)", [.integer($0.0), .integer($0.1)]) }, separator: ", ")
        let within = SQLFragment("(VALUES ") + values
            + SQLFragment(") r CROSS JOIN movie_facets f ON f.id BETWEEN r.column1 AND r.column2")
        sampled = within
        self.joiningMovies = joiningMovies
        let sql = (tables ?? SQLFragment("")) + SQLFragment("SELECT ") + SQLFragment.join(columns, separator: ", ") + SQLFragment(" FROM ") + within
            + SQLFragment(joiningMovies ? " CROSS JOIN movies m ON m.id = f.id" : "")
        let statement = try db.prepare(sql.sql)
        try statement.bind(sql.bindings)
        guard try statement.step() else { return }
        rows = Double(try statement.int64(0))
        movies = Double(span) * rows / requested
        matches = statement.optionalDouble(1) ?? 0
        keyed = statement.optionalDouble(2) ?? 0
        keyedMatches = statement.optionalDouble(3) ?? 0
        keyValues = Double(statement.optionalInt(4) ?? 0)
        for (index, facet) in facets.enumerated() {
            facetMatches[facet.0] = statement.optionalDouble(Int32(5 + index)) ?? 0
        }
    }

    /// A generous bound on the movies sharing one value of `column` (over `movie_facets f`), from
    /// the most sampled movies that do.
    func largestTie(_ db: Database, column: String) throws -> Double {
        guard let sql = largestTieStatement(column: column), rows > 0 else { return movies }
        let most = Double(try db.intScalar(sql.sql, sql.bindings))
        // Three standard deviations and a little more above the sampled count: a sample that
        // happens to miss most of a large tie still lets it through.
        return min(movies, (most + 3 * most.squareRoot() + 3) / rows * movies)
    }

    /// The most sampled movies sharing one value of `column`. The `+`s keep SQLite from walking
    /// the key's whole index (in its order, or for IS NOT NULL) instead of reading the sample.
    func largestTieStatement(column: String) -> SQLFragment? {
        sampled.map {
            SQLFragment("SELECT max(n) FROM (SELECT count(*) AS n FROM ") + $0
                + SQLFragment(" WHERE +\(column) IS NOT NULL GROUP BY +\(column))")
        }
    }

    /// The sampled movies whose `column` is `value`, and how many of them match `condition`
    /// (the set's, as sampled); nil without a sample.
    func tie(_ db: Database, column: String, value: SQLValue, condition: SQLFragment) throws -> (rows: Double, matches: Double)? {
        guard let sampled else { return nil }
        let sql = SQLFragment("SELECT count(*), total(") + condition + SQLFragment(") FROM ") + sampled
            + SQLFragment(joiningMovies ? " CROSS JOIN movies m ON m.id = f.id" : "")
            + SQLFragment(" WHERE +\(column) = ?", [value])
        let statement = try db.prepare(sql.sql)
        try statement.bind(sql.bindings)
        guard try statement.step() else { return nil }
        return (Double(try statement.int64(0)), statement.optionalDouble(1) ?? 0)
    }

    /// The share of movies `count` sampled ones stand for; never 0, as a sample may miss a few.
    func share(_ count: Double) -> Double { rows == 0 ? 1 : (count + 0.5) / (rows + 1) }

    /// The estimated number of movies `count` sampled ones stand for.
    func estimate(_ count: Double) -> Double { share(count) * movies }

    /// The estimated number of movies sharing one value of the sort key: the rows a walk in key
    /// order reads past the page's end, as ties are sorted by title. Values that repeat in the
    /// sample are taken to be all there are; values that mostly do not, to be nearly unique.
    var keyTies: Double {
        guard keyValues > 0 else { return 0 }
        let perValue = keyed / keyValues
        return perValue >= 2 ? estimate(keyed) / keyValues : perValue
    }
}

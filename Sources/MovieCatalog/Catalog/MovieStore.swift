import MovieDomain
import SQLiteStore
/// Reading and changing movies.
extension Catalog {
    /// The movies matching a query, in order.
    public func movies(_ query: MovieQuery) throws -> [Movie] {
        let sql = query.selectSQL
        return try db.query(sql.sql, sql.bindings, MovieColumns.movie(from:))
    }

    /// Visits the matching movies one at a time, so output streams in flat memory.
    public func forEachMovie(_ query: MovieQuery, _ body: (Movie) throws -> Void) throws {
        let sql = query.selectSQL
        try db.forEachRow(sql.sql, sql.bindings) { try body(try MovieColumns.movie(from: $0)) }
    }

    /// Which of `fields` some movie of the query's result has a value for (tables leave out the
    /// others' columns). One query: the page itself when the query is paged, else an EXISTS per field.
    public func fieldsWithValues(_ fields: [MovieField], in query: MovieQuery) throws -> Set<MovieField> {
        let stored = fields.filter { $0.column != nil }
        guard !stored.isEmpty else { return [] }
        let sql: SQLFragment
        if query.limit != nil || query.offset != nil {
            let flags = stored.map { "max(\($0.column!) IS NOT NULL)" }.joined(separator: ", ")
            sql = SQLFragment("SELECT \(flags) FROM (") + query.selectSQL + SQLFragment(")")
        } else {
            let condition = SQLBuilder.condition(for: query.filters)
            sql = SQLFragment.join(stored.map { field in
                SQLFragment("EXISTS (SELECT 1 FROM movies m WHERE m.\(field.column!) IS NOT NULL AND ") + condition + SQLFragment(")")
            }, separator: ", ").prefixed("SELECT ")
        }
        let statement = try db.prepare(sql.sql)
        try statement.bind(sql.bindings)
        guard try statement.step() else { return [] }
        return Set(try stored.enumerated().filter { try statement.int64(Int32($0.offset)) == 1 }.map(\.element))
    }

    /// How many movies match a set.
    public func count(_ filters: FilterSet) throws -> Int {
        let sql = try countSQL(filters)
        return try db.intScalar(sql.sql, sql.bindings)
    }

    /// The SQL that counts a set. Over movie_facets, the narrow copy (a third of the time on a
    /// million movies), when it has every column the set tests and each selected genre has a
    /// bit of its own; else over movies.
    public func countSQL(_ filters: FilterSet) throws -> SQLFragment {
        let plain = MovieQuery(filters: filters).countSQL
        guard !filters.elements.contains(where: { $0.facet == .title || $0.facet == .imdb }) else { return plain }
        var bits: [String: Int64] = [:]
        if filters.elements.contains(where: { $0.facet == .genre || $0.facet == .excludeGenre }) {
            for genre in try genres().genres { bits[genre.code] = MovieFacetsTable.bit(ofGenre: genre.id) }
        }
        var parts: [SQLFragment] = []
        for facet in Facet.allCases {
            let elements = filters.elements(of: facet)
            if elements.isEmpty { continue }
            switch facet {
            case .genre, .excludeGenre:
                // A code the catalog lacks adds no bit: it matches no movie.
                let selected = elements.compactMap { bits[$0.value] }
                if selected.contains(MovieFacetsTable.overflowBit) { return plain }
                let test = facet == .genre ? "(m.genres & ?) <> 0" : "(m.genres & ?) = 0"
                parts.append(SQLFragment(test, [.integer(selected.reduce(0, |))]))
            default:
                parts.append(SQLBuilder.condition(facet: facet, elements: elements))
            }
        }
        return SQLFragment("SELECT count(*) FROM (\(MovieFacetsTable.asMovies)) m WHERE ")
            + (parts.isEmpty ? SQLFragment("1") : SQLFragment.join(parts, separator: " AND "))
    }

    /// SQLite's `EXPLAIN QUERY PLAN` lines for a statement, indented as the sqlite3 shell does.
    public func queryPlan(_ sql: SQLFragment) throws -> [String] {
        var depthByID: [Int64: Int] = [:]
        return try db.query("EXPLAIN QUERY PLAN " + sql.sql, sql.bindings) { row in
            let id = try row.int64(0), parent = try row.int64(1)
            let depth = (depthByID[parent] ?? -1) + 1
            depthByID[id] = depth
            return try String(repeating: "  ", count: depth) + row.text(3)
        }
    }

    /// Counts of movies, genres and presets.
    public func counts() throws -> (movies: Int, genres: Int, presets: Int) {
        (try db.intScalar("SELECT count(*) FROM movies"),
         try db.intScalar("SELECT count(*) FROM genres"),
         try db.intScalar("SELECT count(*) FROM presets"))
    }
}

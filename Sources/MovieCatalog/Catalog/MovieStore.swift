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
        try db.forEachRow(sql.sql, sql.bindings) { try body(MovieColumns.movie(from: $0)) }
    }

    /// How many movies match a set.
    public func count(_ filters: FilterSet) throws -> Int {
        let sql = MovieQuery(filters: filters).countSQL
        return try db.intScalar(sql.sql, sql.bindings)
    }

    /// SQLite's `EXPLAIN QUERY PLAN` lines for a statement, indented as the sqlite3 shell does.
    public func queryPlan(_ sql: SQLFragment) throws -> [String] {
        var depthByID: [Int64: Int] = [:]
        return try db.query("EXPLAIN QUERY PLAN " + sql.sql, sql.bindings) { row in
            let id = row.int64(0), parent = row.int64(1)
            let depth = (depthByID[parent] ?? -1) + 1
            depthByID[id] = depth
            return String(repeating: "  ", count: depth) + row.text(3)
        }
    }

    /// The movie with this natural key (title ignoring case, year), if any.
    public func movieID(title: String, year: Int?) throws -> Int64? {
        let value = try db.scalar("SELECT id FROM movies WHERE title = ? COLLATE NOCASE AND ifnull(year, 0) = ?",
                                  [.text(title), .integer(Int64(year ?? 0))])
        if case .integer(let id)? = value { return id }
        return nil
    }

    /// Counts of movies, genres and presets.
    public func counts() throws -> (movies: Int, genres: Int, presets: Int) {
        (try db.intScalar("SELECT count(*) FROM movies"),
         try db.intScalar("SELECT count(*) FROM genres"),
         try db.intScalar("SELECT count(*) FROM presets"))
    }
}

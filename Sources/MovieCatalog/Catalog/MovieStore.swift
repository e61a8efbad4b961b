import MovieDomain
import SQLiteStore
/// Reading and changing movies.
extension Catalog {
    /// The movies matching a query, in order; `plan` as for `forEachMovie`.
    public func movies(_ query: MovieQuery, plan: QueryPlan? = nil) throws -> [Movie] {
        try running(plan ?? self.plan(query)) { plan, arrived in
            try db.query(plan.sql.sql, plan.sql.bindings) { arrived(); return try MovieColumns.movie(from: $0) }
        }.0
    }

    /// Visits the matching movies one at a time, so output streams in flat memory; `plan`, when
    /// given, is `plan(query)` already made (the sample is then not taken again).
    public func forEachMovie(_ query: MovieQuery, plan: QueryPlan? = nil, _ body: (Movie) throws -> Void) throws {
        _ = try running(plan ?? self.plan(query)) { plan, arrived in
            try db.forEachRow(plan.sql.sql, plan.sql.bindings) { arrived(); try body(try MovieColumns.movie(from: $0)) }
        }
    }

    /// How `query` will run: the statement and the index it starts from (`QueryPlanner`).
    public func plan(_ query: MovieQuery) throws -> QueryPlan {
        try QueryPlanner(db: db, filters: query.filters, genres: genres()).select(query, columns: MovieColumns.select)
    }

    /// How counting a set will run.
    public func countPlan(_ filters: FilterSet) throws -> QueryPlan {
        // A scan of every movie reads the stored packed facet rows instead, where they answer:
        // then it is costed so.
        let packed = try FacetCounter(catalog: self).canCountFromPackedRows(filters)
        var plan = try QueryPlanner(db: db, filters: filters, genres: genres()).count(packedRows: packed)
        plan.packedRows = !packed || plan.driver != .scan ? nil : filters.isEmpty ? .rowCounts : .tallied
        return plan
    }

    /// Which of `fields` some movie of the query's result has a value for (tables leave out the
    /// others' columns); `plan` as for `forEachMovie`.
    public func fieldsWithValues(_ fields: [MovieField], in query: MovieQuery, plan: QueryPlan? = nil) throws -> Set<MovieField> {
        var plan = try plan ?? self.plan(query)
        return try fieldsWithValues(fields, running: &plan)
    }

    /// `fieldsWithValues` of `plan`'s movies; `plan` becomes the plan that ran (a limited walk's
    /// replacement, when it gave up), so that the listing after does not walk again.
    public func fieldsWithValues(_ fields: [MovieField], running plan: inout QueryPlan) throws -> Set<MovieField> {
        let stored = fields.filter { $0.column != nil }
        guard !stored.isEmpty else { return [] }
        let (found, ran) = try running(plan) { plan, _ in
            let sql = try fieldsWithValuesSQL(stored, plan: plan)
            let statement = try db.prepare(sql.sql)
            try statement.bind(sql.bindings)
            guard try statement.step() else { return Set<MovieField>() }
            return Set(try stored.enumerated().filter { try statement.int64(Int32($0.offset)) == 1 }.map(\.element))
        }
        plan = ran
        return found
    }

    /// One row of 0/1 flags, one per field: the page itself when the plan is paged, else an EXISTS
    /// per field over the plan's own rows, which stops at the first movie with a value (a check
    /// over `movies` with the bare condition scanned all 10M when no match had one: half a second).
    /// A field no movie has (no IMDb ids or votes in the catalog) is answered from an index first.
    func fieldsWithValuesSQL(_ fields: [MovieField], plan: QueryPlan) throws -> SQLFragment {
        guard let source = plan.source else {
            let flags = fields.map { "ifnull(max(\($0.column!) IS NOT NULL), 0)" }.joined(separator: ", ")
            return SQLFragment("SELECT \(flags) FROM (") + plan.sql + SQLFragment(")")
        }
        return SQLFragment.join(fields.map { field in
            // movie_facets' copies have partial indexes (votes, rating, minutes, year); movies' IMDb id has one.
            let anywhere = MovieFacetsTable.fields.contains { $0.field == field }
                ? "movie_facets WHERE \(MovieFacetsTable.column(of: field)) IS NOT NULL" : "movies WHERE \(field.column!) IS NOT NULL"
            return SQLFragment("CASE WHEN EXISTS (SELECT 1 FROM \(anywhere)) THEN EXISTS (SELECT 1 FROM (SELECT m.\(field.column!) AS value ")
                + source + SQLFragment(") WHERE value IS NOT NULL) ELSE 0 END")
        }, separator: ", ").prefixed("SELECT ")
    }

    /// How many movies match a set.
    public func count(_ filters: FilterSet) throws -> Int {
        try count(filters, split: ParallelScan(db: db))
    }

    /// How many movies match a set, counted by id range in `split`'s parts when the plan reads
    /// movies in id order (a scan, the title index's candidates) and the catalog is large.
    func count(_ filters: FilterSet, split: ParallelScan) throws -> Int {
        let plan = try countPlan(filters)
        if plan.packedRows != nil, let count = try FacetCounter(catalog: self).countFromPackedRows(filters) { return count }
        // A part that fails (say, no file descriptor to spare for its connection) leaves the
        // count to one connection, as the facet tally does.
        if let column = plan.idOrder, let parts = try? split.run({ db, ids in
            // The count's condition is AND-ed terms: one more bounds the part.
            let sql = plan.sql + SQLFragment(" AND \(column) BETWEEN ? AND ?", [.integer(ids.lowerBound), .integer(ids.upperBound)])
            return try db.intScalar(sql.sql, sql.bindings)
        }) {
            return parts.reduce(0, +)
        }
        return try db.intScalar(plan.sql.sql, plan.sql.bindings)
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

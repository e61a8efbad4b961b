import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The planner: every driver gives the plain query's rows in its order, and each query class
/// gets the shape it is planned for (`EXPLAIN QUERY PLAN`), so a regression to a full scan fails here.
@Suite struct QueryPlannerTests {
    /// The plain statement's ids (SQLite's own plan over movies, no movie_facets).
    static func plainIDs(_ catalog: Catalog, _ query: MovieQuery) throws -> [Int64] {
        let sql = query.selectSQL
        return try catalog.db.query(sql.sql, sql.bindings) { try $0.int64(0) }
    }

    static func planner(_ catalog: Catalog, _ filters: FilterSet) throws -> QueryPlanner {
        try QueryPlanner(db: catalog.db, filters: filters, genres: catalog.genres())
    }

    @Test("every driver lists the plain query's movies in its order, and counts as it does", arguments: [1, 2] as [UInt64])
    func driversAgree(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<150 { _ = try? catalog.add(FacetStructureTests.randomMovie(&rng)) }
        // Some IMDb ids, so that a table's IMDb column is shown for some sets and not others.
        try catalog.db.execute("UPDATE movies SET imdb_id = printf('tt%07d', id) WHERE id % 7 = 0")
        for round in 0..<60 {
            if round % 10 == 0 {
                for _ in 0..<4 { try FacetStructureTests.randomWrite(catalog, dir, &rng) }
                try FacetStructureTests.reopen(catalog)
            }
            var query = MovieQuery(filters: FacetStructureTests.randomSet(&rng))
            query.sort = SortKey.allCases.randomElement(using: &rng)!
            query.descending = Bool.random(using: &rng)
            query.limit = [nil, 1, 5, 20, 400].randomElement(using: &rng)!
            query.offset = [nil, 0, 3, 30].randomElement(using: &rng)!
            var planner = try Self.planner(catalog, query.filters)
            planner.deepPage = [50_000, 0, 10].randomElement(using: &rng)!   // deep pages numbered in one sort, too
            let expected = try Self.plainIDs(catalog, query)
            let plainCount = try catalog.db.intScalar(query.countSQL.sql, query.countSQL.bindings)
            for driver in planner.drivers(for: query) {
                let sql = try planner.select(query, columns: MovieColumns.select, forcing: driver).sql
                let ids = try catalog.db.query(sql.sql, sql.bindings) { try $0.int64(0) }
                #expect(ids == expected, "\(driver): \(query.filters) sort \(query.sort) desc \(query.descending) limit \(String(describing: query.limit)) offset \(String(describing: query.offset))")
                let count = try planner.count(forcing: driver).sql
                #expect(try catalog.db.intScalar(count.sql, count.bindings) == plainCount, "count, \(driver): \(query.filters)")
            }
            let listed = try catalog.movies(query)
            #expect(listed.map(\.id) == expected, "the chosen plan: \(query.filters)")
            // The table's optional columns: shown exactly when a listed movie has a value.
            var filled: Set<MovieField> = []
            if listed.contains(where: { $0.votes != nil }) { filled.insert(.votes) }
            if listed.contains(where: { $0.imdbID != nil }) { filled.insert(.imdbID) }
            #expect(try catalog.fieldsWithValues([.votes, .imdbID], in: query) == filled, "columns: \(query.filters) limit \(String(describing: query.limit)) offset \(String(describing: query.offset))")
        }
    }

    /// A catalog of `count` movies made in SQL: ratings 0.0...10.0, years 1900...2019, 60...209
    /// minutes, votes on most; every movie a comedy or drama, one in 97 a western.
    static func syntheticCatalog(_ count: Int) throws -> (Catalog, URL) {
        let (catalog, dir) = try BulkLoadTests.catalog([:])
        try catalog.db.transaction {
            try catalog.db.run("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO movies (id, title, year, rating, votes, duration_minutes)
                SELECT i, 'Movie ' || i, 1900 + i % 120, (i * 7 % 101) / 10.0,
                       CASE WHEN i % 10 THEN i * 13 % 100000 END, 60 + i % 150 FROM n
                """, [.integer(Int64(count))])
            try catalog.db.execute("""
                INSERT INTO movie_genres (movie_id, genre_id)
                SELECT m.id, g.id FROM movies m JOIN genres g ON g.code = CASE WHEN m.id % 2 THEN 'comedy' ELSE 'drama' END;
                INSERT INTO movie_genres (movie_id, genre_id)
                SELECT m.id, g.id FROM movies m JOIN genres g ON g.code = 'western' WHERE m.id % 97 = 0;
                """)
        }
        return (catalog, dir)
    }

    struct Shape: CustomTestStringConvertible, Sendable {
        let name: String
        let query: MovieQuery
        let count: Bool
        let driver: QueryPlan.Driver
        /// A plan line that must appear (SQLite's wording).
        let uses: String
        /// The start of plan lines that must not appear.
        var avoids: String? = nil
        var testDescription: String { name }
    }

    static let broad = FilterSet([.genre("comedy"), .genre("drama"), .rating(.range(3, nil)), .duration(.range(70, 200))])
    static let shapes: [Shape] = [
        Shape(name: "broad page by rating walks the rating index", query: MovieQuery(filters: broad, sort: .rating, descending: true, limit: 50),
              count: false, driver: .sortOrder(.rating), uses: "SEARCH f USING INDEX movie_facets_rating (rating>?)"),
        Shape(name: "broad page by year walks the year index", query: MovieQuery(filters: broad, sort: .year, limit: 50, offset: 10),
              count: false, driver: .sortOrder(.year), uses: "SEARCH f USING INDEX movie_facets_year (year>?)"),
        Shape(name: "broad page by votes walks the votes index", query: MovieQuery(filters: broad, sort: .votes, descending: true, limit: 50),
              count: false, driver: .sortOrder(.votes), uses: "SEARCH f USING INDEX movie_facets_votes (votes>?)"),
        Shape(name: "broad page by duration walks the minutes index", query: MovieQuery(filters: broad, sort: .duration, limit: 50),
              count: false, driver: .sortOrder(.duration), uses: "SEARCH f USING INDEX movie_facets_minutes (minutes>? AND minutes<?)"),
        Shape(name: "broad page by title walks the natural key", query: MovieQuery(filters: broad, sort: .title, limit: 50),
              count: false, driver: .sortOrder(.title), uses: "SCAN m USING INDEX movies_natural_key"),
        // The broadest sets: nothing selected, or only facets without an index to start from.
        Shape(name: "the first page of every movie walks the natural key, reading no facet row", query: MovieQuery(filters: FilterSet(), limit: 50),
              count: false, driver: .sortOrder(.title), uses: "SCAN m USING INDEX movies_natural_key", avoids: "SEARCH f"),
        Shape(name: "a deep page of every movie in reverse title order walks the natural key", query: MovieQuery(filters: FilterSet(), descending: true, limit: 50, offset: 300),
              count: false, driver: .sortOrder(.title), uses: "SCAN m USING INDEX movies_natural_key"),
        Shape(name: "every movie by rating walks the rating index", query: MovieQuery(filters: FilterSet(), sort: .rating, descending: true, limit: 50),
              count: false, driver: .sortOrder(.rating), uses: "SEARCH f USING COVERING INDEX movie_facets_rating (rating>?)"),
        Shape(name: "every movie by year walks the year index", query: MovieQuery(filters: FilterSet(), sort: .year, limit: 50, offset: 100),
              count: false, driver: .sortOrder(.year), uses: "SEARCH f USING COVERING INDEX movie_facets_year (year>?)"),
        Shape(name: "a set of excluded genres alone walks the sort order", query: MovieQuery(filters: FilterSet([.excludeGenre("western")]), sort: .duration, limit: 50),
              count: false, driver: .sortOrder(.duration), uses: "SEARCH f USING INDEX movie_facets_minutes (minutes>?)"),
        Shape(name: "rare genre starts from the genre index", query: MovieQuery(filters: FilterSet([.genre("western"), .rating(.range(2, nil))]), sort: .rating, descending: true, limit: 50),
              count: false, driver: .facet(.genre), uses: "SEARCH mg USING COVERING INDEX movie_genres_genre (genre_id=?)"),
        Shape(name: "a narrow year range starts from the year index", query: MovieQuery(filters: FilterSet([.year(.exact(1950)), .genre("drama")]), limit: 50),
              count: false, driver: .facet(.year), uses: "SEARCH f USING INDEX movie_facets_year (year=?)"),
        Shape(name: "a rare genre is counted from the genre index", query: MovieQuery(filters: FilterSet([.genre("western")])),
              count: true, driver: .facet(.genre), uses: "SEARCH mg USING COVERING INDEX movie_genres_genre (genre_id=?)"),
        Shape(name: "a broad set is counted in one scan of movie_facets", query: MovieQuery(filters: broad),
              count: true, driver: .scan, uses: "SCAN f"),
        Shape(name: "a title substring starts from the title index", query: MovieQuery(filters: FilterSet([.title("vie 123"), .genre("drama")]), limit: 50),
              count: false, driver: .facet(.title), uses: "SCAN t VIRTUAL TABLE INDEX 0:M1"),
        Shape(name: "a title substring is counted from the title index alone", query: MovieQuery(filters: FilterSet([.title("vie 123")])),
              count: true, driver: .facet(.title), uses: "SCAN t VIRTUAL TABLE INDEX 0:M1", avoids: "SEARCH m"),
        Shape(name: "a substring of every title is counted from the title index too", query: MovieQuery(filters: FilterSet([.title("MOVIE")])),
              count: true, driver: .facet(.title), uses: "SCAN t VIRTUAL TABLE INDEX 0:M1", avoids: "SEARCH m"),
        Shape(name: "a title substring and a rating are counted from the title index and the narrow rows",
              query: MovieQuery(filters: FilterSet([.title("vie 12"), .rating(.range(5, nil))])),
              count: true, driver: .facet(.title), uses: "SEARCH f USING INTEGER PRIMARY KEY (rowid=?)", avoids: "SEARCH m"),
        Shape(name: "a title too short for the index, rarer than the rest of the set, is counted in one scan of movies, by id",
              query: MovieQuery(filters: FilterSet([.title("77"), .genre("drama")])),
              count: true, driver: .scan, uses: "SCAN m"),
        Shape(name: "the movies of a rare title too short for the index are listed from one scan of movies, by id, not title",
              query: MovieQuery(filters: FilterSet([.title("77"), .genre("drama")]), sort: .duration),
              count: false, driver: .scan, uses: "SCAN m", avoids: "SCAN m USING"),
        Shape(name: "a title too short for the index that most movies pass is counted from one scan of movie_facets, its movies looked up only when they pass the rest",
              query: MovieQuery(filters: FilterSet([.title("ie"), .rating(.range(5, nil))])),
              count: true, driver: .scan, uses: "SCAN f", avoids: "SCAN m"),
        Shape(name: "the movies of a title that most movies pass are listed from one scan of movie_facets, by id",
              query: MovieQuery(filters: FilterSet([.title("ie"), .rating(.range(5, nil))]), sort: .duration),
              count: false, driver: .scan, uses: "SCAN f", avoids: "SCAN m"),
        Shape(name: "the movies of a title too short for the index, sorted by title, come in the natural key's order",
              query: MovieQuery(filters: FilterSet([.title("ie")])),
              count: false, driver: .scan, uses: "SCAN m USING INDEX movies_natural_key"),
        Shape(name: "two ranges of the sort key are tested on the walk's rows, not run as a union of index ranges and sorted",
              query: MovieQuery(filters: FilterSet([.duration(.range(nil, 138)), .duration(.range(129, nil)), .genre("drama")]), sort: .duration, limit: 3),
              count: false, driver: .sortOrder(.duration), uses: "SEARCH f USING INDEX movie_facets_minutes (minutes>?)", avoids: "MULTI-INDEX OR"),
        Shape(name: "an IMDb id starts from its index", query: MovieQuery(filters: FilterSet([.imdb("tt0000042"), .genre("drama")]), limit: 50),
              count: false, driver: .imdbID, uses: "SEARCH m USING INDEX movies_imdb_id (imdb_id=?)"),
    ]

    @Test("each query class gets its plan", arguments: shapes)
    func planShape(_ shape: Shape) throws {
        let (catalog, dir) = try Self.syntheticCatalog(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = shape.count ? try catalog.countPlan(shape.query.filters) : try catalog.plan(shape.query)
        #expect(plan.driver == shape.driver, "costs: \(plan.costs)")
        let lines = try catalog.queryPlan(plan.sql).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains(shape.uses), "plan: \(lines)")
        if let avoids = shape.avoids { #expect(!lines.contains { $0.hasPrefix(avoids) }, "plan: \(lines)") }
        if shape.driver != .scan {
            // No full scan of a table: each table is searched, or walked through an index.
            let scans = lines.filter { ($0.hasPrefix("SCAN f") || $0.hasPrefix("SCAN m")) && !$0.contains("USING INDEX") }
            #expect(scans.isEmpty, "plan: \(lines)")
        }
        // And the plan's rows are the plain query's.
        if !shape.count {
            #expect(try catalog.movies(shape.query).map(\.id) == Self.plainIDs(catalog, shape.query))
        } else {
            #expect(try catalog.count(shape.query.filters) == catalog.db.intScalar(shape.query.countSQL.sql, shape.query.countSQL.bindings))
        }
    }

    @Test("whether a listing's movies have votes or IMDb ids is asked of the plan's own rows, never a scan", arguments: [
        FilterSet([.title("vie 123")]), FilterSet([.year(.exact(1950)), .rating(.range(9, nil))]), FilterSet([.genre("western")]),
    ])
    func columnsFollowThePlan(_ filters: FilterSet) throws {
        let (catalog, dir) = try Self.syntheticCatalog(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let query = MovieQuery(filters: filters)
        let plan = try catalog.plan(query)
        #expect(plan.driver != .scan, "costs: \(plan.costs)")
        let lines = try catalog.queryPlan(catalog.fieldsWithValuesSQL([.votes, .imdbID], plan: plan)).map { $0.trimmingCharacters(in: .whitespaces) }
        // (With the set's bare condition over movies, SQLite scanned them all when no match had votes.)
        let scans = lines.filter { ($0.hasPrefix("SCAN f") || $0.hasPrefix("SCAN m")) && !$0.contains("USING") }
        #expect(scans.isEmpty, "plan: \(lines)")
        // The synthetic catalog has votes on nine movies in ten and no IMDb id.
        let listed = try catalog.movies(query)
        #expect(try catalog.fieldsWithValues([.votes, .imdbID], in: query) == (listed.contains { $0.votes != nil } ? [.votes] : []))
    }

    @Test("a deep page is numbered in one sort of the matches and is the plain query's page", arguments: SortKey.allCases)
    func deepPage(_ key: SortKey) throws {
        let (catalog, dir) = try Self.syntheticCatalog(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        for filters in [FilterSet(), FilterSet([.genre("comedy"), .rating(.range(2, nil))])] {
            for descending in [false, true] {
                let query = MovieQuery(filters: filters, sort: key, descending: descending, limit: 50, offset: 7_000)
                var planner = try Self.planner(catalog, filters)
                planner.deepPage = 5_000
                let plan = try planner.select(query, columns: MovieColumns.select, forcing: .scan)
                #expect(plan.sql.sql.contains("row_number() OVER"))
                #expect(try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) } == Self.plainIDs(catalog, query), "\(filters) \(key) desc \(descending)")
            }
        }
        // Past 50,000 rows, the chosen plan numbers them (the catalog has fewer: an empty page).
        let deep = MovieQuery(filters: FilterSet(), sort: key, limit: 10, offset: 60_000)
        let plan = try catalog.plan(deep)
        #expect(plan.sql.sql.contains("row_number() OVER") || plan.driver == .sortOrder(key), "\(plan.driver)")
        #expect(try catalog.movies(deep).isEmpty)
    }

    @Test("a deep page by a facet column numbers only the key values it spans, found by counting each: the plain query's page at any offset, NULLs last",
          arguments: [SortKey.rating, .year, .votes, .duration])
    func deepPageSkipsValues(_ key: SortKey) throws {
        let (catalog, dir) = try Self.syntheticCatalog(5_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Movies without a rating or a duration too (votes: one in ten already).
        try catalog.db.execute("UPDATE movies SET rating = NULL WHERE id % 9 = 0; UPDATE movies SET duration_minutes = NULL WHERE id % 11 = 0")
        var skips = 0
        for filters in [FilterSet(), FilterSet([.genre("comedy"), .rating(.range(2, nil))])] {
            for descending in [false, true] {
                for offset in [1_001, 2_345, 4_400, 4_990, 6_000] {
                    for limit in [1, 50, 700, nil] as [Int?] {
                        let query = MovieQuery(filters: filters, sort: key, descending: descending, limit: limit, offset: offset)
                        var planner = try Self.planner(catalog, filters)
                        planner.deepPage = 1_000
                        let expected = try Self.plainIDs(catalog, query)
                        for driver in [try planner.select(query, columns: MovieColumns.select).driver, .scan] {
                            let plan = try planner.select(query, columns: MovieColumns.select, forcing: driver)
                            #expect(try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) } == expected,
                                    "\(filters) \(key) desc \(descending) offset \(offset) limit \(String(describing: limit)) \(driver)")
                            if let skipped = plan.skipped {
                                skips += 1
                                #expect(skipped.field == key.field && skipped.movies <= Int64(offset))
                            }
                        }
                    }
                }
            }
        }
        #expect(skips > 40, "the skip was used \(skips) times")
        // Past `mostValues` key values the count stops (memory stays flat) and every match is numbered.
        let source = SQLFragment("FROM movie_facets f WHERE 1")
        let votes = try KeyValueSkip.find(catalog.db, field: .votes, column: "f.votes", from: source, descending: false, offset: 2_000, limit: 5)
        #expect(votes != nil)
        #expect(try KeyValueSkip.find(catalog.db, field: .votes, column: "f.votes", from: source, descending: false, offset: 2_000, limit: 5, mostValues: 100) == nil)
    }

    @Test("a deep page's count is skipped where it cannot pay: a page past the matches, one among the many movies without a key, titles tested one by one")
    func deepPageWithoutCount() throws {
        let (catalog, dir) = try Self.syntheticCatalog(5_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("UPDATE movies SET votes = NULL WHERE id % 4 <> 0")
        for (filters, sort, offset) in [(FilterSet([.genre("western")]), SortKey.rating, 1_001),
                                        (FilterSet(), .votes, 4_000),
                                        (FilterSet([.title("movie 1")]), .rating, 1_001)] {
            let query = MovieQuery(filters: filters, sort: sort, limit: 5, offset: offset)
            var planner = try Self.planner(catalog, filters)
            planner.deepPage = 1_000
            let plan = try planner.select(query, columns: MovieColumns.select)
            #expect(plan.skipped == nil && plan.sql.sql.contains("row_number() OVER"), "\(filters) \(sort)")
            #expect(try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) } == Self.plainIDs(catalog, query))
        }
    }

    @Test("a walk over several elements of its key's facet searches each stretch of the index they cover, one after the other, tests them on each row, and lists the plain query's movies",
          arguments: [
            (FilterSet([.year(.exact(1950)), .year(.exact(1951))]), SortKey.year, "(year>? AND year<?)", 2),
            (FilterSet([.year(.exact(1901)), .year(.exact(2015)), .year(.range(1990, 2000)), .year(.decade(1990))]), .year, "(year>? AND year<?)", 3),
            (FilterSet([.rating(.bucket(3)), .rating(.bucket(4)), .genre("drama")]), .rating, "(rating>? AND rating<?)", 1),
            (FilterSet([.duration(.hours(1)), .duration(.minutes(200))]), .duration, "(minutes>? AND minutes<?)", 2),
            (FilterSet([.duration(.range(nil, 138)), .duration(.range(129, nil))]), .duration, "(minutes>?)", 1),
            (FilterSet([.votes(.exact(1 << 53 + 1)), .votes(.exact(1 << 53)), .votes(.range(5, 90))]), .votes, "(votes>? AND votes<?)", 3),
          ] as [(FilterSet, SortKey, String, Int)])
    func walkSpan(filters: FilterSet, sort: SortKey, searched: String, stretches: Int) throws {
        let (catalog, dir) = try Self.syntheticCatalog(5_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("UPDATE movies SET votes = 9007199254740992 WHERE id IN (7, 8)")
        for descending in [false, true] {
            let query = MovieQuery(filters: filters, sort: sort, descending: descending, limit: 20)
            let plan = try Self.planner(catalog, filters).select(query, columns: "m.id", forcing: .sortOrder(sort))
            let lines = try catalog.queryPlan(plan.sql).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.filter { $0.hasPrefix("SEARCH f USING") && $0.hasSuffix(searched) }.count == stretches, "\(lines)")
            #expect(!lines.contains("MULTI-INDEX OR"), "\(lines)")
            #expect(try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) } == Self.plainIDs(catalog, query))
        }
    }

    @Test("a page at the end of Int64 neither overflows nor walks")
    func hugePage() throws {
        let (catalog, dir) = try Self.syntheticCatalog(2_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (limit, offset) in [(1, Int.max), (Int.max, 1), (Int.max, Int.max)] {
            let query = MovieQuery(filters: Self.broad, sort: .rating, descending: true, limit: limit, offset: offset)
            #expect(try catalog.movies(query).map(\.id) == Self.plainIDs(catalog, query), "\(limit) \(offset)")
            // The first screen's plan, chosen without a sample, too.
            let first = MovieQuery(filters: FilterSet(), limit: limit, offset: offset)
            #expect(try catalog.movies(first).map(\.id) == Self.plainIDs(catalog, first), "\(limit) \(offset)")
        }
        // Its estimate of the catalog (for --explain) is the movies the title index holds, ids' gaps or not.
        #expect(try catalog.plan(MovieQuery(filters: FilterSet(), limit: 50)).movies == 2_000)
        try catalog.db.execute("DELETE FROM movies WHERE id % 2 = 0")
        #expect(try catalog.plan(MovieQuery(filters: FilterSet(), limit: 50)).movies == 1_000)
    }

    @Test("without the natural key index (dropped by a sqlite3 user) titles are still searched and sorted")
    func droppedNaturalKey() throws {
        let (catalog, dir) = try Self.syntheticCatalog(3_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("DROP INDEX movies_natural_key")
        for query in [MovieQuery(filters: FilterSet([.title("ie 12")])), MovieQuery(filters: FilterSet([.title("12")]), limit: 5),
                      MovieQuery(filters: Self.broad, sort: .title, limit: 10)] {
            #expect(try catalog.movies(query).map(\.id) == Self.plainIDs(catalog, query), "\(query.filters)")
            #expect(try catalog.count(query.filters) == catalog.db.intScalar(query.countSQL.sql, query.countSQL.bindings))
        }
    }

    @Test("without its index (dropped by a sqlite3 user) a sort walks no index and still answers")
    func droppedIndex() throws {
        let (catalog, dir) = try Self.syntheticCatalog(5_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("DROP INDEX movie_facets_rating")
        let query = MovieQuery(filters: Self.broad, sort: .rating, descending: true, limit: 20)
        let plan = try catalog.plan(query)
        #expect(plan.driver != .sortOrder(.rating) && plan.driver != .facet(.rating))
        #expect(try catalog.movies(query).map(\.id) == Self.plainIDs(catalog, query))
    }
}

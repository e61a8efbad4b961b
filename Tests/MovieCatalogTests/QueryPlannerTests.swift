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
        Shape(name: "a title too short for the index is counted in one scan of movies, by id", query: MovieQuery(filters: FilterSet([.title("ie"), .genre("drama")])),
              count: true, driver: .scan, uses: "SCAN m"),
        Shape(name: "the movies of a title too short for the index are listed from one scan of movies, by id, not title",
              query: MovieQuery(filters: FilterSet([.title("ie"), .genre("drama")]), sort: .duration),
              count: false, driver: .scan, uses: "SCAN m", avoids: "SCAN m USING"),
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

    @Test("a selection the sample barely sees is counted exactly in its own index: the plan knows its few matches and walks no sort order for them")
    func rareSelection() throws {
        let (catalog, dir) = try Self.syntheticCatalog(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        try catalog.db.execute("""
            INSERT INTO genres (code, name) VALUES ('noir', 'Noir');
            INSERT INTO movie_genres (movie_id, genre_id) SELECT 777, id FROM genres WHERE code = 'noir';
            UPDATE movies SET year = 2050 WHERE id IN (5, 15000);
            INSERT INTO genres (code, name) VALUES ('clustered', 'Clustered');
            INSERT INTO movie_genres (movie_id, genre_id) SELECT m.id, g.id FROM movies m, genres g WHERE m.id <= 3 AND g.code = 'clustered';
            """)
        // Ids 1 to 3 lie in the first sampled range: the sample sees all three.
        for (filters, exact) in [(FilterSet([.genre("noir")]), 1.0), (FilterSet([.year(.range(2050, 2050))]), 2.0),
                                 (FilterSet([.genre("clustered")]), 3.0),
                                 (FilterSet([.genre("noir"), .year(.range(2050, 2050))]), 1.0)] {
            let query = MovieQuery(filters: filters, sort: .title, limit: 5)
            let planner = try Self.planner(catalog, filters)
            let plan = try planner.select(query, columns: MovieColumns.select)
            // A combination's matches are at most its rarest facet's (its shares multiplied: fewer).
            #expect(filters.elements.count == 1 ? plan.matches == exact : plan.matches <= exact, "\(filters)")
            // The walk would read every movie to find five: costed so.
            let walk = try #require(plan.costs.first { $0.driver == .sortOrder(.title) })
            #expect(walk.rows >= 20_000, "\(filters): \(plan.costs)")
            #expect(plan.driver != .sortOrder(.title) && plan.driver != .scan, "\(filters): \(plan.driver)")
            #expect(try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) } == Self.plainIDs(catalog, query))
        }
        // A selection the sample sees often is not counted.
        let broad = try Self.planner(catalog, FilterSet([.genre("comedy")]))
        let sample = try QuerySample(catalog.db, condition: broad.condition, facets: [(.genre, broad.condition)], keyColumn: nil, joiningMovies: false)
        #expect(try broad.rareFacetCounts(sample).isEmpty)
    }

    @Test("a walk the sample misjudges gives up past the next plan's rows and that plan runs: the same page; a walk it judges well finishes")
    func walkGivesUp() throws {
        let (catalog, dir) = try Self.syntheticCatalog(50_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every drama rated 9 or more, no comedy but two that come last in title order: a set of
        // broad facets whose two matches the sample cannot see.
        try catalog.db.execute("""
            UPDATE movies SET rating = 9.0 + (id % 10) / 10.0 WHERE id % 2 = 0;
            UPDATE movies SET rating = min(rating, 8.9) WHERE id % 2 = 1;
            UPDATE movies SET rating = 9.9, title = 'Zz ' || id WHERE id IN (1001, 3003);
            """)
        func run(_ query: MovieQuery) throws -> (ids: [Int64], ran: QueryPlan.Driver, plan: QueryPlan) {
            let plan = try Self.planner(catalog, query.filters).select(query, columns: MovieColumns.select)
            let (ids, ran) = try catalog.running(plan) { plan, arrived in
                try catalog.db.query(plan.sql.sql, plan.sql.bindings) { arrived(); return try $0.int64(0) }
            }
            #expect(ids == (try Self.plainIDs(catalog, query)), "\(query.filters)")
            // The limit holds until the first row: the walk must be over by then, its page sorted
            // again as the statement's last step.
            let lines = try catalog.queryPlan(plan.sql)
            #expect(lines.last == "USE TEMP B-TREE FOR ORDER BY", "\(lines)")
            return (ids, ran.driver, plan)
        }
        // By year: at this size a walk in title order, its probes at random, costs more than a scan.
        let rare = try run(MovieQuery(filters: FilterSet([.genre("comedy"), .rating(.range(9, nil))]), sort: .year, limit: 3))
        #expect(rare.ids == [3003, 1001])
        #expect(rare.plan.driver == .sortOrder(.year), "\(rare.plan.costs)")
        let limit = try #require(rare.plan.walkLimit)
        // At this size a scan of the narrow rows is the next plan.
        #expect(limit.instead.driver == .scan && rare.ran == .scan, "\(rare.plan.costs) \(limit.instead.driver) \(rare.ran)")
        // A table's question about its columns gives up the walk once, for the listing after too.
        var plan = rare.plan
        #expect(try catalog.fieldsWithValues([.votes], running: &plan) == [.votes])
        #expect(plan.driver == .scan)
        // Only a walk is limited, and a walk the sample judges well ends within its limit.
        for (sort, descending, limit) in [(SortKey.title, false, 50), (.rating, true, 50), (.year, false, 5_000), (.title, false, 3_000)] {
            let broad = try run(MovieQuery(filters: FilterSet([.genre("drama")]), sort: sort, descending: descending, limit: limit))
            #expect(broad.plan.walkLimit != nil && broad.ran == .sortOrder(sort), "\(sort) \(limit): \(broad.plan.costs)")
        }
        let counted = try Self.planner(catalog, FilterSet([.genre("comedy"), .rating(.range(9, nil))])).count()
        #expect(counted.walkLimit == nil)
    }

    @Test("a combination the sample sees none of is taken to match its facets' shares multiplied: a page starts from a facet's index, not a walk costed on half a sampled match")
    func independentShares() throws {
        let (catalog, dir) = try Self.syntheticCatalog(100_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Four facets of a tenth each, spread independently of one another by hashes of the id:
        // 8 movies have all four, too few for the sample's thousand to see one.
        try catalog.db.execute("""
            UPDATE movies SET rating = CASE WHEN id * 7919 % 1000 < 100 THEN 9.5 ELSE 5.0 END,
                year = CASE WHEN id * 104729 % 997 < 100 THEN 2020 ELSE 1990 END,
                duration_minutes = CASE WHEN id * 1299709 % 1009 < 100 THEN 30 ELSE 100 END,
                votes = CASE WHEN id * 15485863 % 1013 < 100 THEN 500000 ELSE 10 END
            """)
        let filters = FilterSet([.rating(.range(9, nil)), .year(.range(2015, nil)), .duration(.range(nil, 45)), .votes(.range(100_000, nil))])
        let planner = try Self.planner(catalog, filters)
        let sample = try QuerySample(catalog.db, condition: planner.condition, facets: [], keyColumn: nil, joiningMovies: false)
        try #require(sample.matches == 0)
        for limit in [3, 5] {
            let query = MovieQuery(filters: filters, sort: .title, limit: limit)
            let plan = try planner.select(query, columns: "m.id")
            // Half a sampled match is some 50 movies, a walk of 2,050 titles a row; the shares say 9.
            #expect(plan.matches < 20, "\(plan.matches)")
            #expect(![.sortOrder(.title), .scan].contains(plan.driver), "\(plan.costs)")
            let ids = try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) }
            let plain = try Self.plainIDs(catalog, query)
            #expect(ids.count == limit && ids == plain)
        }
        // A set the sample sees is costed as before: the walk, for a page of a broad set.
        let broad = MovieQuery(filters: FilterSet([.rating(.range(9, nil)), .genre("drama")]), sort: .title, limit: 3)
        #expect(try Self.planner(catalog, broad.filters).select(broad, columns: "m.id").driver == .sortOrder(.title))
    }

    @Test("rows in title order cost their random probes: a rare set's page scans a small catalog, a facet's index pays a title lookup a match when sorted by title, a title test in the natural key spares the probes")
    func titleOrderCosts() throws {
        let (catalog, dir) = try Self.syntheticCatalog(50_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every drama rated 9 or more, no comedy but two (as in walkGivesUp).
        try catalog.db.execute("""
            UPDATE movies SET rating = 9.0 + (id % 10) / 10.0 WHERE id % 2 = 0;
            UPDATE movies SET rating = min(rating, 8.9) WHERE id % 2 = 1;
            UPDATE movies SET rating = 9.9 WHERE id IN (1001, 3003);
            """)
        func plan(_ filters: FilterSet, _ sort: SortKey, limit: Int = 3) throws -> QueryPlan {
            try Self.planner(catalog, filters).select(MovieQuery(filters: filters, sort: sort, limit: limit), columns: "m.id")
        }
        func cost(_ plan: QueryPlan, _ driver: QueryPlan.Driver) throws -> Double { try #require(plan.costs.first { $0.driver == driver }).rows }
        // Some 24 matches guessed: 6,150 titles walked at random cost more than 50,000 narrow rows read in order.
        let rare = try plan(FilterSet([.genre("comedy"), .rating(.range(9, nil))]), .title)
        #expect(rare.driver == .scan, "\(rare.costs)")
        // The rating index's matches, sorted by title, are each looked up in movies.
        let rated = FilterSet([.rating(.range(9.5, nil))])
        let byTitle = try plan(rated, .title, limit: 100), byYear = try plan(rated, .year, limit: 100)
        #expect(try cost(byTitle, .facet(.rating)) - cost(byYear, .facet(.rating)) >= 0.99 * byTitle.matches, "\(byTitle.costs) \(byYear.costs)")
        // A title element is tested in the natural key: a row that fails it costs no probe.
        let titled = try plan(FilterSet([.title("movie 4"), .genre("drama")]), .title, limit: 20)
        let untitled = try plan(FilterSet([.genre("drama"), .duration(.range(60, 92))]), .title, limit: 20)
        #expect(titled.driver == .sortOrder(.title) && untitled.driver == .sortOrder(.title))
        #expect(try cost(titled, .sortOrder(.title)) < cost(untitled, .sortOrder(.title)) / 2, "\(titled.costs) \(untitled.costs)")
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

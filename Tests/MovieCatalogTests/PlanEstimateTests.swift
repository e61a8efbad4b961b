import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The planner's estimates where its sample sees little: rare facets counted exactly, a set
/// the sample sees none of guessed from its facets' shares, walks that give up, and what rows
/// in title order cost.
@Suite struct PlanEstimateTests {
    @Test("a selection the sample barely sees is counted exactly in its own index: the plan knows its few matches and walks no sort order for them")
    func rareSelection() throws {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(20_000)
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
            let planner = try QueryPlannerTests.planner(catalog, filters)
            let plan = try planner.select(query, columns: MovieColumns.select)
            // A combination's matches are at most its rarest facet's (its shares multiplied: fewer).
            #expect(filters.elements.count == 1 ? plan.matches == exact : plan.matches <= exact, "\(filters)")
            // The walk would read every movie to find five: costed so.
            let walk = try #require(plan.costs.first { $0.driver == .sortOrder(.title) })
            #expect(walk.rows >= 20_000, "\(filters): \(plan.costs)")
            #expect(plan.driver != .sortOrder(.title) && plan.driver != .scan, "\(filters): \(plan.driver)")
            #expect(try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) } == QueryPlannerTests.plainIDs(catalog, query))
        }
        // A selection the sample sees often is not counted.
        let broad = try QueryPlannerTests.planner(catalog, FilterSet([.genre("comedy")]))
        let sample = try QuerySample(catalog.db, condition: broad.condition, facets: [(.genre, broad.condition)], keyColumn: nil, joiningMovies: false)
        #expect(try broad.rareFacetCounts(sample).isEmpty)
    }

    /// 50,000 movies, every drama rated 9 or more, no comedy but two that come last in title
    /// order: a set of broad facets (comedy, rating 9..) whose two matches the sample cannot see.
    static func misjudgedCatalog() throws -> (Catalog, URL) {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(50_000)
        try catalog.db.execute("""
            UPDATE movies SET rating = 9.0 + (id % 10) / 10.0 WHERE id % 2 = 0;
            UPDATE movies SET rating = min(rating, 8.9) WHERE id % 2 = 1;
            UPDATE movies SET rating = 9.9, title = 'Zz ' || id WHERE id IN (1001, 3003);
            """)
        return (catalog, dir)
    }

    @Test("a walk the sample misjudges gives up past the next plan's rows and that plan runs: the same page; a walk it judges well finishes")
    func walkGivesUp() throws {
        let (catalog, dir) = try Self.misjudgedCatalog()
        defer { try? FileManager.default.removeItem(at: dir) }
        func run(_ query: MovieQuery) throws -> (ids: [Int64], ran: QueryPlan.Driver, plan: QueryPlan) {
            let plan = try QueryPlannerTests.planner(catalog, query.filters).select(query, columns: MovieColumns.select)
            let (ids, ran) = try catalog.running(plan) { plan, arrived in
                try catalog.db.query(plan.sql.sql, plan.sql.bindings) { arrived(); return try $0.int64(0) }
            }
            #expect(ids == (try QueryPlannerTests.plainIDs(catalog, query)), "\(query.filters)")
            // The limit holds until the first row: the walk must be over by then, its page sorted
            // again as the statement's last step.
            let lines = try catalog.queryPlan(plan.sql)
            #expect(lines.last == "USE TEMP B-TREE FOR ORDER BY", "\(lines)")
            return (ids, ran.driver, plan)
        }
        // By year: the walk is the cheapest plan, but the look for a large tie at its page's end
        // walks the year index while the plan is made, within the walk's steps, and runs out:
        // the next plan (at this size a scan of the narrow rows) is the plan, and no walk runs.
        // The two matches are the last years: the look would read every row, for a page of one
        // estimated at a third of the scan.
        try catalog.db.execute("UPDATE movies SET year = 2099 WHERE id = 3003; UPDATE movies SET year = 2100 WHERE id = 1001")
        let rare = try run(MovieQuery(filters: FilterSet([.genre("comedy"), .rating(.range(9, nil))]), sort: .year, limit: 1))
        #expect(rare.ids == [3003])
        #expect(rare.plan.costs.min { $0.rows < $1.rows }?.driver == .sortOrder(.year), "\(rare.plan.costs)")
        #expect(rare.plan.driver == .scan && rare.plan.walkRanOut != nil && rare.plan.walkLimit == nil && rare.ran == .scan,
                "\(rare.plan.costs) \(rare.ran)")
        // The two matches moved to the years at 30 and 40 % of the year order: a page of two is
        // estimated near the scan's work, and its look would find the page's end at 40 % of the
        // scan's work; but the sample saw no match, so the look gets a quarter and runs out.
        for (id, percent) in [(3003, 30), (1001, 40)] {
            let year = try catalog.db.intScalar("SELECT year FROM movies WHERE year IS NOT NULL ORDER BY year LIMIT 1 OFFSET ?", [.integer(Int64(500 * percent))])
            try catalog.db.run("UPDATE movies SET year = ? WHERE id = ?", [.integer(Int64(year) + 1), .integer(Int64(id))])
        }
        let two = try run(MovieQuery(filters: FilterSet([.genre("comedy"), .rating(.range(9, nil))]), sort: .year, limit: 2))
        #expect(two.ids == [3003, 1001] && two.plan.walkRanOut != nil && two.ran == .scan, "\(two.plan.costs)")
        // In title order (no tie to look for): a page of one is a walk cheaper than the scan,
        // then given up for it.
        let first = try run(MovieQuery(filters: FilterSet([.genre("comedy"), .rating(.range(9, nil))]), sort: .title, limit: 1))
        #expect(first.ids == [1001] && first.plan.driver == .sortOrder(.title) && first.ran == .scan, "\(first.plan.costs) \(first.ran)")
        let limit = try #require(first.plan.walkLimit)
        #expect(limit.instead.driver == .scan && first.plan.walkRanOut == nil)
        // A table's question about its columns gives up the walk once, for the listing after too.
        var plan = first.plan
        #expect(try catalog.fieldsWithValues([.votes], running: &plan) == [.votes])
        #expect(plan.driver == .scan)
        // Only a walk is limited, and a walk the sample judges well ends within its limit.
        for (sort, descending, limit) in [(SortKey.title, false, 50), (.rating, true, 50), (.year, false, 5_000), (.title, false, 3_000)] {
            let broad = try run(MovieQuery(filters: FilterSet([.genre("drama")]), sort: sort, descending: descending, limit: limit))
            #expect(broad.plan.walkLimit != nil && broad.ran == .sortOrder(sort), "\(sort) \(limit): \(broad.plan.costs)")
        }
        let counted = try QueryPlannerTests.planner(catalog, FilterSet([.genre("comedy"), .rating(.range(9, nil))])).count()
        #expect(counted.walkLimit == nil)
    }

    @Test("a walk whose look for its page's end found it within its budget gets twice what the look spent: it reads the same rows")
    func walkAfterLook() throws {
        let (catalog, dir) = try Self.misjudgedCatalog()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Some 3,200 comedies rated 8.8 and more, which the sample sees; their year moved along
        // the year order (all in one year: a large tie, walked in title order) until the look
        // spends more than half the walk's budget.
        let filters = FilterSet([.genre("comedy"), .rating(.range(8.8, nil))])
        let query = MovieQuery(filters: filters, sort: .year, limit: 3)
        let plain = try QueryPlannerTests.plainIDs(catalog, query)
        var checked = 0
        for percent in stride(from: 10, through: 90, by: 10) {
            let year = try catalog.db.intScalar("SELECT year FROM movies WHERE year IS NOT NULL ORDER BY year LIMIT 1 OFFSET ?", [.integer(Int64(500 * percent))])
            try catalog.db.run("UPDATE movies SET year = ? WHERE rating >= 8.8 AND id % 2 = 1", [.integer(Int64(year))])
            let plan = try QueryPlannerTests.planner(catalog, filters).select(query, columns: MovieColumns.select)
            guard let looked = plan.lookupSteps, let next = plan.costs.filter({ $0.driver != plan.driver }).map(\.rows).min(),
                  let walk = plan.costs.first(where: { $0.driver == plan.driver })?.rows else { continue }
            let budget = WalkLimit.steps(rows: next, walk: walk, seen: true, wanted: 3, page: 3)
            guard WalkLimit.steps(afterLook: looked, wanted: 3, page: 3) > budget else { continue }
            checked += 1
            let (ids, ran) = try catalog.running(plan) { plan, arrived in
                try catalog.db.query(plan.sql.sql, plan.sql.bindings) { arrived(); return try $0.int64(0) }
            }
            #expect(ids == (try QueryPlannerTests.plainIDs(catalog, query)) && ran.driver == .sortOrder(.year)
                    && plan.walkLimit?.steps == WalkLimit.steps(afterLook: looked, wanted: 3, page: 3), "\(percent) %: \(plan.costs) \(looked)")
        }
        #expect(plain.count == 3 && checked > 0)
    }

    @Test("a walk's page reads count against its steps: a budget twice its steps lets it finish from a warm cache, and runs out when each row is a read")
    func walkReads() throws {
        let (catalog, dir) = try Self.misjudgedCatalog()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Years 211 ids apart (1880 to 2090): walked in year order, each movie's facet row is on another page.
        try catalog.db.execute("UPDATE movies SET year = 1880 + (id * 7) % 211")
        // The two matches come last and next to last: the walk reads all 50,000 rows, some 13 steps each.
        let query = MovieQuery(filters: FilterSet([.genre("comedy"), .rating(.range(9, nil))]), sort: .year, limit: 3)
        let plain = try QueryPlannerTests.plainIDs(catalog, query)
        var plan = try QueryPlannerTests.planner(catalog, query.filters).select(query, columns: MovieColumns.select, forcing: .sortOrder(.year))
        let scan = try QueryPlannerTests.planner(catalog, query.filters).select(query, columns: MovieColumns.select, forcing: .scan)
        plan.walkLimit = WalkLimit(rows: 0, steps: 1_500_000, instead: scan)
        func run() throws -> ([Int64], QueryPlan.Driver) {
            let (ids, ran) = try catalog.running(plan) { plan, arrived in
                try catalog.db.query(plan.sql.sql, plan.sql.bindings) { arrived(); return try $0.int64(0) }
            }
            return (ids, ran.driver)
        }
        try catalog.db.execute("PRAGMA cache_size = -16000")
        _ = try catalog.db.intScalar("SELECT count(*) FROM movie_facets WHERE genres + rating + year >= 0")
        let warm = try run()
        #expect(plain.count == 2 && warm.0 == plain && warm.1 == .sortOrder(.year), "\(warm)")
        // Ten pages of cache: a read a row, 32 steps each: 1.6M more.
        try catalog.db.execute("PRAGMA cache_size = 10")
        let cold = try run()
        #expect(cold.0 == plain && cold.1 == .scan, "\(cold)")
    }

    @Test("a combination the sample sees none of is taken to match its facets' shares multiplied: a page starts from a facet's index, not a walk costed on half a sampled match")
    func independentShares() throws {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(100_000)
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
        let planner = try QueryPlannerTests.planner(catalog, filters)
        let sample = try QuerySample(catalog.db, condition: planner.condition, facets: [], keyColumn: nil, joiningMovies: false)
        try #require(sample.matches == 0)
        for limit in [3, 5] {
            let query = MovieQuery(filters: filters, sort: .title, limit: limit)
            let plan = try planner.select(query, columns: "m.id")
            // Half a sampled match is some 50 movies, a walk of 2,050 titles a row; the shares say 9,
            // and the guess goes no lower than an eighth of a sampled match (12).
            #expect(plan.matches < 20 && plan.matches >= sample.estimate(0) / 4 - 0.001, "\(plan.matches)")
            #expect(![.sortOrder(.title), .scan].contains(plan.driver), "\(plan.costs)")
            let ids = try catalog.db.query(plan.sql.sql, plan.sql.bindings) { try $0.int64(0) }
            let plain = try QueryPlannerTests.plainIDs(catalog, query)
            #expect(ids.count == limit && ids == plain)
        }
        // A set the sample sees is costed as before: the walk, for a page of a broad set.
        let broad = MovieQuery(filters: FilterSet([.rating(.range(9, nil)), .genre("drama")]), sort: .title, limit: 3)
        #expect(try QueryPlannerTests.planner(catalog, broad.filters).select(broad, columns: "m.id").driver == .sortOrder(.title))
    }

    @Test("rows in title order cost their random probes: a rare set's page scans a small catalog, a range index pays a movie lookup a match, a title test in the natural key spares the probes")
    func titleOrderCosts() throws {
        let (catalog, dir) = try Self.misjudgedCatalog()
        defer { try? FileManager.default.removeItem(at: dir) }
        func plan(_ filters: FilterSet, _ sort: SortKey, limit: Int = 3) throws -> QueryPlan {
            try QueryPlannerTests.planner(catalog, filters).select(MovieQuery(filters: filters, sort: sort, limit: limit), columns: "m.id")
        }
        func cost(_ plan: QueryPlan, _ driver: QueryPlan.Driver) throws -> Double { try #require(plan.costs.first { $0.driver == driver }).rows }
        // Some 24 matches guessed: 6,150 titles walked at random cost more than 50,000 narrow rows read in order.
        let rare = try plan(FilterSet([.genre("comedy"), .rating(.range(9, nil))]), .title)
        #expect(rare.driver == .scan, "\(rare.costs)")
        // The rating index's matches, sorted by title, are each looked up in movies.
        // A range index's matches are each looked up in movies, at random (the title breaks the
        // sort's ties); the genre index's come in id order. (A count reads no movie: the rows alone;
        // the rating with another element, as a count of a range alone reads only its entries.)
        for (filters, facet, lookups) in [(FilterSet([.rating(.range(9.5, nil)), .excludeGenre("western")]), Facet.rating, true), (FilterSet([.genre("western")]), .genre, false)] {
            let counted = try QueryPlannerTests.planner(catalog, filters).count()
            for sort in [SortKey.title, .year] {
                let listed = try plan(filters, sort, limit: 100)
                let perMatch = QueryPlanner.sortCost + (lookups ? QueryPlanner.probeCost : 0)
                #expect(abs(try cost(listed, .facet(facet)) - cost(counted, .facet(facet)) - perMatch * listed.matches) < 0.01, "\(facet) \(sort): \(listed.costs)")
            }
        }
        // A title element is tested in the natural key: a row that fails it costs no probe.
        let titled = try plan(FilterSet([.title("movie 4"), .genre("drama")]), .title, limit: 20)
        let untitled = try plan(FilterSet([.genre("drama"), .duration(.range(60, 92))]), .title, limit: 20)
        #expect(titled.driver == .sortOrder(.title) && untitled.driver == .sortOrder(.title))
        #expect(try cost(titled, .sortOrder(.title)) < cost(untitled, .sortOrder(.title)) / 2, "\(titled.costs) \(untitled.costs)")
    }

    @Test("a count the packed facet rows answer is costed as their blocks, not as a scan: a range's index with another facet probes every entry and loses to them; one range alone reads its entries and wins, two of one facet do not")
    func packedCountCost() throws {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(50_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        let combined = FilterSet([.genre("drama"), .year(.range(1900, 1920))]), alone = FilterSet([.year(.range(1900, 1920))])
        let packed = try catalog.countPlan(combined)
        #expect(packed.driver == .scan && packed.packedRows == .tallied, "\(packed.costs)")
        let entries = try catalog.countPlan(alone)
        #expect(entries.driver == .facet(.year) && entries.packedRows == nil, "\(entries.costs)")
        // Two ranges of one facet are OR-ed, their rowids united: no count of entries.
        let united = try catalog.countPlan(FilterSet([.year(.range(2000, nil)), .year(.range(2010, nil))]))
        #expect(united.driver == .scan && united.packedRows == .tallied, "\(united.costs)")
        #expect(try catalog.count(combined) == catalog.db.intScalar("SELECT count(*) FROM movies m WHERE year BETWEEN 1900 AND 1920 AND id % 2 = 0"))
    }

    @Test("a scan that tests a title reads movie_facets first when the rest passes fewer movies than the title and a margin: a sixth for a title with letters, less for one of digits alone, which LIKE tests for less")
    func scanOrder() throws {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        func facetsFirst(_ elements: [MovieFilter]) throws -> Bool {
            let filters = FilterSet(elements)
            let planner = try QueryPlannerTests.planner(catalog, filters)
            let facets = Facet.allCases.filter { !filters.elements(of: $0).isEmpty }
            let sample = try QuerySample(catalog.db, condition: planner.condition, facets: facets.map {
                ($0, SQLBuilder.condition(facet: $0, elements: filters.elements(of: $0), on: planner.columns))
            }, keyColumn: nil, joiningMovies: true)
            return planner.scansFacetsFirst(sample)
        }
        // Rating 9 and up: 11 movies in 101. "77" and "e 77" are in some three titles in a hundred.
        #expect(try !facetsFirst([.title("77"), .rating(.range(9, nil))]))
        #expect(try facetsFirst([.title("e 77"), .rating(.range(9, nil))]))
        // Both ways round when the rest is broad or narrow enough.
        #expect(try !facetsFirst([.title("e 77"), .rating(.range(5, nil))]))
        #expect(try facetsFirst([.title("77"), .genre("western")]))
    }

}

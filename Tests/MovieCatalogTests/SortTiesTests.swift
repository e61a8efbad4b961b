import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// A page walked in sort order that ends inside a value shared by very many movies walks those
/// ties in title order (`QueryPlanner.largeTies`), and lists what the plain query lists.
@Suite struct SortTiesTests {
    /// The synthetic catalog (years 1900...2019, 166 movies each) with a third of its movies
    /// made 2030 and another third 1870: two ties of 6,667 at either end of the year order.
    static func catalogWithTies() throws -> (Catalog, URL) {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(20_000)
        // Written through the triggers, as a sqlite3 user would: movie_facets follows.
        try catalog.db.execute("UPDATE movies SET year = 2030 WHERE id % 3 = 0; UPDATE movies SET year = 1870 WHERE id % 3 = 1")
        return (catalog, dir)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let query: MovieQuery
        /// Whether the page ends in a large tie, walked in title order.
        let split: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "newest first", query: MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50), split: true),
        Case(name: "newest first, a later page", query: MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50, offset: 400), split: true),
        Case(name: "oldest first", query: MovieQuery(filters: FilterSet(), sort: .year, limit: 20), split: true),
        Case(name: "newest dramas", query: MovieQuery(filters: FilterSet([.genre("drama")]), sort: .year, descending: true, limit: 50), split: true),
        Case(name: "newest long movies not westerns",
             query: MovieQuery(filters: FilterSet([.duration(.range(100, nil)), .excludeGenre("western")]), sort: .year, descending: true, limit: 50, offset: 7),
             split: true),
        // A title element: the value's walk and the tie's read movies for the title test.
        Case(name: "newest titles with 'movie 1'", query: MovieQuery(filters: FilterSet([.title("movie 1")]), sort: .year, descending: true, limit: 30),
             split: true),
        // Years far apart: each stretch of the index walked in turn, the tie in title order.
        Case(name: "oldest of three years far apart", query: MovieQuery(filters: FilterSet([.year(.exact(2030)), .year(.exact(1950)), .year(.exact(1870))]),
                                                                        sort: .year, limit: 20), split: true),
        Case(name: "newest of two years far apart, a later page",
             query: MovieQuery(filters: FilterSet([.year(.exact(1905)), .year(.range(2030, 2031))]), sort: .year, descending: true, limit: 50, offset: 30),
             split: true),
        // A page past the tie: the walk goes into the years before it, whose ties are few.
        Case(name: "newest first, past the tie", query: MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50, offset: 6_700), split: false),
        // More rows than movies with the key: no value ends the page.
        Case(name: "a page beyond every movie", query: MovieQuery(filters: FilterSet(), sort: .year, limit: 50, offset: 19_990), split: false),
        // Ratings have 101 values, about 200 movies each: few ties.
        Case(name: "best first", query: MovieQuery(filters: FilterSet(), sort: .rating, descending: true, limit: 50), split: false),
    ]

    @Test("a page ending in a large tie walks it in title order, and lists the plain query's movies", arguments: cases)
    func largeTie(_ shape: Case) throws {
        let (catalog, dir) = try Self.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try catalog.plan(shape.query)
        // Deep pages may scan instead; a split is a walk.
        if shape.split { #expect(plan.driver == .sortOrder(shape.query.sort), "costs: \(plan.costs)") }
        let lines = try catalog.queryPlan(plan.sql).map { $0.trimmingCharacters(in: .whitespaces) }
        // The tie's arm walks the natural key, probing each movie's narrow row.
        let walksTitles = plan.sql.sql.contains("f.year = ?") && lines.contains("SCAN m USING INDEX movies_natural_key")
        #expect(walksTitles == shape.split, "plan: \(lines)\n\(plan.sql.sql)")
        // The key's index reads only the movies before the tie (a bound that took the tie in
        // too would read and sort it all, and still list the right page).
        if shape.split { #expect(plan.sql.sql.contains(shape.query.descending ? "f.year > ?" : "f.year < ?")) }
        if plan.driver != .scan {
            #expect(!lines.contains { ($0.hasPrefix("SCAN f") || $0.hasPrefix("SCAN m")) && !$0.contains("USING INDEX") }, "plan: \(lines)")
        }
        #expect(try catalog.movies(shape.query).map(\.id) == QueryPlannerTests.plainIDs(catalog, shape.query))
    }

    @Test("the walk before a large tie is bounded by the tie at one end and by the set's own range at the other, one bound each")
    func beforeTie() throws {
        let (catalog, dir) = try Self.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = FilterSet([.year(.range(1850, 2000)), .genre("drama")])
        let planner = try QueryPlannerTests.planner(catalog, set)
        let up = planner.walkConditions(.year, descending: false, before: .integer(1870))
        #expect(up.count == 1 && up[0].sql.hasSuffix(" AND f.year >= ? AND f.year < ?") && up[0].bindings.suffix(2) == [.integer(1850), .integer(1870)], "\(up)")
        let down = planner.walkConditions(.year, descending: true, before: .integer(1990))
        #expect(down.count == 1 && down[0].sql.hasSuffix(" AND f.year > ? AND f.year <= ?") && down[0].bindings.suffix(2) == [.integer(1990), .integer(2000)], "\(down)")
        // A tie that is the set's first value leaves nothing before it: an empty range.
        let first = try QueryPlannerTests.planner(catalog, FilterSet([.year(.range(1870, 2000))])).walkConditions(.year, descending: false, before: .integer(1870))
        #expect(first.map(\.sql) == ["f.year > ? AND f.year < ?"])
        for query in [MovieQuery(filters: FilterSet([.year(.range(1870, 2000)), .genre("drama")]), sort: .year, limit: 20),
                      MovieQuery(filters: set, sort: .year, limit: 20, offset: 5),
                      MovieQuery(filters: FilterSet([.year(.range(1900, 2030))]), sort: .year, descending: true, limit: 20)] {
            let plan = try catalog.plan(query)
            #expect(try Self.walksTitles(catalog, plan), "\(query.filters): \(plan.sql.sql)")
            #expect(try catalog.movies(query).map(\.id) == QueryPlannerTests.plainIDs(catalog, query))
        }
    }

    @Test("the tie's value is bound, not spliced, and found through the sort key's index")
    func boundValue() throws {
        let (catalog, dir) = try Self.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try catalog.plan(MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50))
        #expect(!plan.sql.sql.contains("2030"))
        #expect(plan.sql.bindings.filter { $0 == .integer(2030) }.count == 2)
    }

    /// Whether the plan walks a tie in title order.
    static func walksTitles(_ catalog: Catalog, _ plan: QueryPlan) throws -> Bool {
        let lines = try catalog.queryPlan(plan.sql).map { $0.trimmingCharacters(in: .whitespaces) }
        return plan.largeTie != nil && lines.contains("SCAN m USING INDEX movies_natural_key")
    }

    @Test("a tie in which the set matches almost nothing is read as it is, not walked by title through every movie")
    func rareInTheTie() throws {
        let (catalog, dir) = try Self.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Every movie of 2030 but one becomes a western: without westerns, the tie holds one match.
        try catalog.db.execute("""
            INSERT OR IGNORE INTO movie_genres (movie_id, genre_id)
            SELECT m.id, g.id FROM movies m JOIN genres g ON g.code = 'western' WHERE m.year = 2030 AND m.id <> 3
            """)
        for limit in [1, 5] {
            let query = MovieQuery(filters: FilterSet([.excludeGenre("western")]), sort: .year, descending: true, limit: limit)
            let plan = try catalog.plan(query)
            #expect(plan.driver == .sortOrder(.year))
            #expect(try !Self.walksTitles(catalog, plan), "\(plan.sql.sql)")
            #expect(try catalog.movies(query).map(\.id) == QueryPlannerTests.plainIDs(catalog, query))
        }
        // Most of the tie's movies still match a set of comedies: that tie is walked by title.
        let comedies = MovieQuery(filters: FilterSet([.genre("comedy")]), sort: .year, descending: true, limit: 5)
        let plan = try catalog.plan(comedies)
        #expect(try Self.walksTitles(catalog, plan), "\(plan.sql.sql)")
        #expect(try catalog.movies(comedies).map(\.id) == QueryPlannerTests.plainIDs(catalog, comedies))
    }

    @Test("a deep page looks for its tie only when the sample holds one large enough", arguments: [false, true])
    func deepPage(mostInOneYear: Bool) throws {
        let (catalog, dir) = try QueryPlannerTests.syntheticCatalog(20_000)
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two thirds of the movies in 2030: a tie that pays to walk by title even 1,550 rows deep
        // (sqrt(4 x 1,550 x 20,000) = 11,136 < 13,333).
        if mostInOneYear { try catalog.db.execute("UPDATE movies SET year = 2030 WHERE id % 3 <> 2") }
        let query = MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50, offset: 1_500)
        let plan = try catalog.plan(query)
        #expect(try Self.walksTitles(catalog, plan) == mostInOneYear, "\(plan.sql.sql)")
        #expect(try catalog.movies(query).map(\.id) == QueryPlannerTests.plainIDs(catalog, query))
        // The sample's largest tie, bounded from above, and read from the sample alone.
        let sample = try QuerySample(catalog.db, condition: SQLFragment("1"), facets: [], keyColumn: "f.year", joiningMovies: false)
        let bound = try sample.largestTie(catalog.db, column: "f.year")
        #expect(mostInOneYear ? bound >= 13_333 : bound < 2_000, "bound \(bound)")
        let statement = try #require(sample.largestTieStatement(column: "f.year"))
        let lines = try catalog.queryPlan(statement)
        #expect(lines.contains { $0.contains("USING INTEGER PRIMARY KEY") } && !lines.contains { $0.contains("movie_facets_year") }, "\(lines)")
    }

    @Test("a plan and its page read one snapshot: a tie another connection empties between them stays whole")
    func oneSnapshot() throws {
        let (catalog, dir) = try Self.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let query = MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50)
        let expected = try QueryPlannerTests.plainIDs(catalog, query)
        let other = try Catalog(path: catalog.path)
        let listed = try catalog.reading {
            let plan = try catalog.plan(query)
            #expect(plan.largeTie != nil)
            // Committed by another connection after the plan: most of the tie leaves 2030.
            try other.db.execute("UPDATE movies SET year = 2000 WHERE year = 2030 AND id > 60")
            var ids: [Int64] = []
            try catalog.forEachMovie(query, plan: plan) { ids.append($0.id) }
            return ids
        }
        #expect(listed == expected)
        // Outside the snapshot the change is seen.
        #expect(try QueryPlannerTests.plainIDs(catalog, query) != expected)
    }
}

/// The sample's movies of a tie rule out a split without counting the tie only when they surely can.
@Suite struct SortTiesSampleTests {
    struct Seen: CustomTestStringConvertible, Sendable {
        let tie: Double, needed: Double, rows: Double, matches: Double
        let rulesOut: Bool
        var testDescription: String { "tie \(Int(tie)), needed \(Int(needed)), sampled \(Int(matches))/\(Int(rows))" }
    }

    static let cases: [Seen] = [
        // The broad set by year at 1M: 24,635 movies of 2024, 7,713 matches needed, 2 of 26 sampled match.
        Seen(tie: 24_635, needed: 7_713, rows: 26, matches: 2, rulesOut: true),
        // The same tie at 10M's share of matches: the split may pay, so the tie is counted.
        Seen(tie: 248_000, needed: 7_661, rows: 26, matches: 2, rulesOut: false),
        // Too few sampled movies of the tie to say anything.
        Seen(tie: 24_635, needed: 7_713, rows: 9, matches: 0, rulesOut: false),
        // Every sampled movie matches.
        Seen(tie: 20_000, needed: 5_000, rows: 40, matches: 40, rulesOut: false),
        // Near half of what is needed: counted, not guessed.
        Seen(tie: 20_000, needed: 5_000, rows: 40, matches: 5, rulesOut: false),
        Seen(tie: 20_000, needed: 5_000, rows: 40, matches: 3, rulesOut: true),
    ]

    @Test("a split is ruled out from the sample only far from paying", arguments: cases)
    func rulesOut(_ seen: Seen) {
        #expect(QueryPlanner.sampleRulesOutSplit(tie: seen.tie, needed: seen.needed, sampledRows: seen.rows,
                                                 sampledMatches: seen.matches) == seen.rulesOut)
    }

    @Test("the sample's movies of one value, and those matching the set, as a count over the catalog finds them")
    func sampledTie() throws {
        let (catalog, dir) = try SortTiesTests.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let condition = SQLFragment("f.rating >= ?", [.real(5)])
        let sample = try QuerySample(catalog.db, condition: condition, facets: [], keyColumn: "f.year", joiningMovies: false)
        let seen = try #require(try sample.tie(catalog.db, column: "f.year", value: .integer(2030), condition: condition))
        // Checked against the same 32 id ranges, read by plain SQL.
        let ranges = try #require(sample.sampled)
        let rows = try catalog.db.intScalar("SELECT count(*) FROM " + ranges.sql + " WHERE f.year = 2030", ranges.bindings)
        let matching = try catalog.db.intScalar("SELECT count(*) FROM " + ranges.sql + " WHERE f.year = 2030 AND f.rating >= 5", ranges.bindings)
        #expect(seen.rows == Double(rows) && seen.matches == Double(matching))
        #expect(rows > 100 && matching > 0 && matching < rows, "\(rows) sampled, \(matching) matching")
    }
}

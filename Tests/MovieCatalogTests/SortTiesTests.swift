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

    @Test("the tie's value is bound, not spliced, and found through the sort key's index")
    func boundValue() throws {
        let (catalog, dir) = try Self.catalogWithTies()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plan = try catalog.plan(MovieQuery(filters: FilterSet(), sort: .year, descending: true, limit: 50))
        #expect(!plan.sql.sql.contains("2030"))
        #expect(plan.sql.bindings.filter { $0 == .integer(2030) }.count == 2)
    }
}

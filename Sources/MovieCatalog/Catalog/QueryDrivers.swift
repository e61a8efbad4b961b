import MovieDomain
import SQLiteStore

/// The drivers a set can start from, and exact counts of a rare selection, where the planner's
/// sample cannot tell: a sample of a few hundred movies that finds none or almost none of a
/// facet's matches says only that they are under a thousandth of the catalog, and a walk in sort
/// order taken on that guess reads every movie when they are a handful (`genre:noir`, one movie
/// in 9.5M: 20 s).
extension QueryPlanner {
    /// The selected facets with an index to start from (titles only when the index can find them).
    var drivable: [(facet: Facet, index: String)] {
        Self.facetIndexes.filter {
            !filters.elements(of: $0.facet).isEmpty && indexes.contains($0.index) && ($0.facet != .title || titleQuery != nil)
        }
    }

    /// Every driver that gives `query` its right rows (whether or not it is the cheapest).
    func drivers(for query: MovieQuery) -> [QueryPlan.Driver] {
        var drivers: [QueryPlan.Driver] = [.scan, .imdbID]
        drivers += drivable.map { .facet($0.facet) }
        if query.limit != nil { drivers.append(.sortOrder(query.sort)) }
        return drivers
    }

    /// At most this many of a facet's rows are counted.
    static let probedRows = 10_000
    /// A facet whose matches the sample saw at most this often is counted (a count that passes
    /// `probedRows` gives up after some 6 ms; three movies of ids in one sampled range were
    /// missed with 2).
    static let rareInSample = 8.0

    /// The exact number of rows of each selected facet's own index that the sample saw rarely,
    /// where there are at most `probedRows` (a genre's links, a range's index entries); none for titles.
    func rareFacetCounts(_ sample: QuerySample) throws -> [Facet: Double] {
        var counts: [Facet: Double] = [:]
        // A sample of every movie (a small catalog) knows the counts already.
        guard sample.rows < sample.movies else { return [:] }
        for (facet, index) in drivable where facet != .title && (sample.facetMatches[facet] ?? 0) <= Self.rareInSample {
            let rows: SQLFragment
            if facet == .genre {
                rows = SQLFragment("SELECT 1 FROM movie_genres mg INDEXED BY \(index) WHERE mg.genre_id IN (SELECT g.id FROM genres g WHERE g.code IN (")
                    + SQLFragment.list(filters.elements(of: .genre).map { .text($0.value) }) + SQLFragment("))")
            } else {
                guard let field = facet.sortKey?.field else { continue }
                rows = SQLFragment("SELECT 1 FROM movie_facets f INDEXED BY \(index) WHERE f.\(MovieFacetsTable.column(of: field)) IS NOT NULL AND ")
                    + SQLBuilder.condition(facet: facet, elements: filters.elements(of: facet), on: columns)
            }
            let count = SQLFragment("SELECT count(*) FROM (") + rows + SQLFragment(" LIMIT ?)", [.integer(Int64(Self.probedRows) + 1)])
            let found = try db.intScalar(count.sql, count.bindings)
            if found <= Self.probedRows { counts[facet] = Double(found) }
        }
        return counts
    }
}

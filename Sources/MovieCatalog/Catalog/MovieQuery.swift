import MovieDomain
import SQLiteStore
/// The columns movies can be sorted by (a closed set: never user text in SQL).
public enum SortKey: String, CaseIterable, Sendable {
    case title, year, rating, votes, duration

    /// ORDER BY terms. Title order matches the natural-key index so sorted pages need no sort step.
    func orderBy(descending: Bool) -> String {
        let dir = descending ? " DESC" : ""
        // The natural key's terms, in its order, then the id: the index serves the whole sort.
        let byTitle = "m.title COLLATE NOCASE\(dir), ifnull(m.year, 0)\(dir), ifnull(m.imdb_id, '')\(dir), m.id\(dir)"
        let nulls = descending ? "" : " NULLS LAST"
        switch self {
        case .title: return byTitle
        case .year: return "m.year\(dir)\(nulls), " + SortKey.title.orderBy(descending: false)
        case .rating: return "m.rating\(dir)\(nulls), " + SortKey.title.orderBy(descending: false)
        case .votes: return "m.votes\(dir)\(nulls), " + SortKey.title.orderBy(descending: false)
        case .duration: return "m.duration_minutes\(dir)\(nulls), " + SortKey.title.orderBy(descending: false)
        }
    }
}

/// A `filter` request: the set, order and page.
public struct MovieQuery: Sendable {
    /// The filter set movies must match.
    public var filters: FilterSet
    /// The column to sort by.
    public var sort: SortKey
    /// Whether to sort in descending order.
    public var descending: Bool
    /// The most movies to return, or nil for all.
    public var limit: Int?
    /// The number of matching movies to skip first, or nil for none.
    public var offset: Int?

    /// Creates a query; by default every movie, sorted by title, unpaged.
    public init(filters: FilterSet = FilterSet(), sort: SortKey = .title, descending: Bool = false,
                limit: Int? = nil, offset: Int? = nil) {
        self.filters = filters
        self.sort = sort
        self.descending = descending
        self.limit = limit
        self.offset = offset
    }

    /// The SELECT statement for the matching movies.
    public var selectSQL: SQLFragment {
        // Only fixed SQL is interpolated here (the column list, the ORDER BY of a SortKey).
        var sql = SQLFragment("SELECT \(MovieColumns.select) FROM movies m WHERE ")
            + SQLBuilder.condition(for: filters)
            + SQLFragment(" ORDER BY \(sort.orderBy(descending: descending))")
        if limit != nil || offset != nil {
            sql = sql + SQLFragment(" LIMIT ? OFFSET ?", [.integer(Int64(limit ?? -1)), .integer(Int64(offset ?? 0))])
        }
        return sql
    }

    /// The COUNT statement for the matching movies.
    public var countSQL: SQLFragment {
        SQLFragment("SELECT count(*) FROM movies m WHERE ") + SQLBuilder.condition(for: filters)
    }
}

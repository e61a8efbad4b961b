import MovieDomain
import SQLiteStore
/// The columns movies can be sorted by (a closed set: never user text in SQL).
public enum SortKey: String, CaseIterable, Sendable {
    case title, year, rating, votes, duration

    /// The field the key sorts by, or nil for title (the natural key's order).
    var field: MovieField? {
        switch self {
        case .title: return nil
        case .year: return .year
        case .rating: return .rating
        case .votes: return .votes
        case .duration: return .duration
        }
    }

    /// The title order: the natural key's terms, in its order, then the id, so the natural-key
    /// index serves the whole sort.
    static func titleOrder(descending: Bool) -> String {
        let dir = descending ? " DESC" : ""
        return "m.title COLLATE NOCASE\(dir), ifnull(m.year, 0)\(dir), ifnull(m.imdb_id, '')\(dir), m.id\(dir)"
    }

    /// ORDER BY terms: the key (missing values last either way), then title order. `column` is
    /// where the key is read (`m.rating` unless a plan reads movie_facets).
    func orderBy(descending: Bool, column: String? = nil) -> String {
        guard let field else { return SortKey.titleOrder(descending: descending) }
        let key = column ?? "m." + field.column!
        // SQLite puts NULL first in ascending order and last in descending order.
        return key + (descending ? " DESC" : " NULLS LAST") + ", " + SortKey.titleOrder(descending: false)
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

extension Facet {
    /// The facet that selects on a sort key's field (nil for title: a title element is a substring).
    init?(sortKey: SortKey) {
        guard let facet = Facet.allCases.first(where: { $0.sortKey == sortKey }) else { return nil }
        self = facet
    }

    /// The sort key of a numeric facet's field.
    var sortKey: SortKey? {
        switch self {
        case .year: return .year
        case .rating: return .rating
        case .votes: return .votes
        case .duration: return .duration
        default: return nil
        }
    }
}

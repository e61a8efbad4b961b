import MovieDomain
import SQLiteStore
/// Translates a filter set into one parameterised WHERE condition over `movies m`.
///
/// Every value is a bound parameter; identifiers come from closed enums only.
public enum SQLBuilder {
    /// The condition for a whole set: facets AND-ed, elements of one facet OR-ed, exclusions AND-ed.
    /// The empty set gives `1` (true).
    public static func condition(for set: FilterSet) -> SQLFragment {
        var parts: [SQLFragment] = []
        for facet in Facet.allCases {
            let elements = set.elements(of: facet)
            if elements.isEmpty { continue }
            parts.append(condition(facet: facet, elements: elements))
        }
        if parts.isEmpty { return SQLFragment("1") }
        return SQLFragment.join(parts, separator: " AND ")
    }

    /// The condition for the selected elements of one facet.
    static func condition(facet: Facet, elements: [MovieFilter]) -> SQLFragment {
        switch facet {
        case .genre, .excludeGenre:
            // One index probe per selected genre through movie_genres (genre_id, movie_id).
            let codes = elements.map { SQLValue.text($0.value) }
            let negation = facet == .excludeGenre ? "NOT " : ""
            return SQLFragment("m.id \(negation)IN (SELECT mg.movie_id FROM movie_genres mg WHERE mg.genre_id IN (SELECT g.id FROM genres g WHERE g.code IN (")
                + SQLFragment.list(codes) + SQLFragment(")))")
        case .certification:
            return SQLFragment("m.certification IN (") + SQLFragment.list(elements.map { .text($0.value) }) + SQLFragment(")")
        case .imdb:
            return SQLFragment("m.imdb_id IN (") + SQLFragment.list(elements.map { .text($0.value) }) + SQLFragment(")")
        default:
            let ors = elements.map(condition(for:))
            return ors.count == 1 ? ors[0] : SQLFragment.join(ors, separator: " OR ").parenthesized
        }
    }

    /// The condition for one rating, duration, year or title element.
    static func condition(for element: MovieFilter) -> SQLFragment {
        switch element {
        case .rating(.bucket(let n)):
            return n >= 10 ? SQLFragment("m.rating = ?", [.real(Double(n))])
                : SQLFragment("(m.rating >= ? AND m.rating < ?)", [.real(Double(n)), .real(Double(n + 1))])
        case .rating(.exact(let v)):
            return SQLFragment("m.rating = ?", [.real(v)])
        case .rating(.range(let lo, let hi)):
            return between("m.rating", lo.map(SQLValue.real), hi.map(SQLValue.real))
        case .duration(.hours(let h)):
            return SQLFragment("(m.duration_minutes >= ? AND m.duration_minutes < ?)",
                               [.integer(Int64(h * 60)), .integer(Int64(h * 60 + 60))])
        case .duration(.minutes(let m)):
            return SQLFragment("m.duration_minutes = ?", [.integer(Int64(m))])
        case .duration(.range(let lo, let hi)):
            return between("m.duration_minutes", lo.map { .integer(Int64($0)) }, hi.map { .integer(Int64($0)) })
        case .year(.exact(let y)):
            return SQLFragment("m.year = ?", [.integer(Int64(y))])
        case .year(.decade(let d)):
            return between("m.year", .integer(Int64(d)), .integer(Int64(d + 9)))
        case .year(.range(let lo, let hi)):
            return between("m.year", lo.map { .integer(Int64($0)) }, hi.map { .integer(Int64($0)) })
        case .votes(.exact(let n)):
            return SQLFragment("m.votes = ?", [.integer(Int64(n))])
        case .votes(.range(let lo, let hi)):
            return between("m.votes", lo.map { .integer(Int64($0)) }, hi.map { .integer(Int64($0)) })
        case .title(let text):
            // LIKE folds ASCII only: other text compares Unicode lower case (moviecat_lower, see Database).
            if text.utf8.allSatisfy({ $0 < 0x80 }) {
                return SQLFragment("m.title LIKE ? ESCAPE '\\'", [.text("%" + escapeLike(text) + "%")])
            }
            return SQLFragment("instr(moviecat_lower(m.title), ?) > 0", [.text(text.lowercased())])
        case .genre, .excludeGenre, .certification, .imdb:
            preconditionFailure("handled per facet")
        }
    }

    /// An inclusive range test; an open side is left out.
    static func between(_ column: String, _ lo: SQLValue?, _ hi: SQLValue?) -> SQLFragment {
        switch (lo, hi) {
        case let (lo?, hi?): return SQLFragment("\(column) BETWEEN ? AND ?", [lo, hi])
        case let (lo?, nil): return SQLFragment("\(column) >= ?", [lo])
        case let (nil, hi?): return SQLFragment("\(column) <= ?", [hi])
        case (nil, nil): return SQLFragment("\(column) IS NOT NULL")
        }
    }

    /// Makes `%`, `_` and the escape character literal inside a LIKE pattern.
    static func escapeLike(_ text: String) -> String {
        var out = ""
        for c in text {
            if c == "%" || c == "_" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}

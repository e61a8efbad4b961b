import MovieDomain
import SQLiteStore
/// How the title test finds the titles that ASCII LIKE does not read whole (those with a letter
/// whose Unicode lower case is ASCII: `MovieTitlesTable.folded`).
public enum TitleExceptions: Sendable {
    /// There are none (the catalog says so).
    case none
    /// movie_title_exceptions lists them.
    case listed
    /// Each title is looked at.
    case scanned
}

/// Where a condition reads a movie's values: a column expression per facet, and its genres
/// either through `movie_genres` or as bits of a genre mask. Fixed SQL only.
public struct ConditionColumns: Sendable {
    /// The movie's id, e.g. `m.id`.
    var id: String
    /// The rating, duration (minutes), year, votes and certification columns.
    var rating, minutes, year, votes, certification: String
    /// Each genre code's bit in `genreMask`, or nil to test genres through `movie_genres`.
    var genreBits: [String: Int64]?
    /// The genre bit set column, when `genreBits` is given.
    var genreMask: String
    /// How the title test finds titles LIKE does not fold whole.
    var titleExceptions = TitleExceptions.scanned

    /// The columns of table alias `alias` named `column(field)`; genres as `genreBits` says.
    init(alias: String, column: (MovieField) -> String, genreBits: [String: Int64]? = nil, genreMask: String = "") {
        id = alias + ".id"
        rating = alias + "." + column(.rating)
        minutes = alias + "." + column(.duration)
        year = alias + "." + column(.year)
        votes = alias + "." + column(.votes)
        certification = alias + "." + column(.certification)
        self.genreBits = genreBits
        self.genreMask = genreMask
    }

    /// The columns of `movies m`, genres through `movie_genres`.
    public static let movies = ConditionColumns(alias: "m") { $0.column! }

    /// The same columns, `field`'s as `+column`: tested on each row, never looked up in an index.
    func tested(_ field: MovieField) -> ConditionColumns {
        var tested = self
        switch field {
        case .rating: tested.rating = "+" + rating
        case .duration: tested.minutes = "+" + minutes
        case .year: tested.year = "+" + year
        case .votes: tested.votes = "+" + votes
        default: break
        }
        return tested
    }
}

/// Translates a filter set into one parameterised WHERE condition over `movies m` (title and
/// IMDb id always there; the other facets wherever `ConditionColumns` says).
///
/// Every value is a bound parameter; identifiers come from closed enums only.
public enum SQLBuilder {
    /// The condition for a whole set: facets AND-ed, elements of one facet OR-ed, exclusions AND-ed.
    /// The empty set gives `1` (true).
    public static func condition(for set: FilterSet, on columns: ConditionColumns = .movies) -> SQLFragment {
        var parts: [SQLFragment] = []
        for facet in Facet.allCases {
            let elements = set.elements(of: facet)
            if elements.isEmpty { continue }
            parts.append(condition(facet: facet, elements: elements, on: columns))
        }
        if parts.isEmpty { return SQLFragment("1") }
        return SQLFragment.join(parts, separator: " AND ")
    }

    /// The condition for the selected elements of one facet.
    static func condition(facet: Facet, elements: [MovieFilter], on columns: ConditionColumns = .movies) -> SQLFragment {
        switch facet {
        case .genre, .excludeGenre:
            if let bits = columns.genreBits {
                // A code the catalog lacks adds no bit: it matches no movie.
                let selected = elements.compactMap { bits[$0.value] }
                if !selected.contains(MovieFacetsTable.overflowBit) {
                    let test = facet == .genre ? "<> 0" : "= 0"
                    return SQLFragment("(\(columns.genreMask) & ?) \(test)", [.integer(selected.reduce(0, |))])
                }
            }
            // One index probe per selected genre through movie_genres (genre_id, movie_id).
            let codes = elements.map { SQLValue.text($0.value) }
            let negation = facet == .excludeGenre ? "NOT " : ""
            return SQLFragment("\(columns.id) \(negation)IN (SELECT mg.movie_id FROM movie_genres mg WHERE mg.genre_id IN (SELECT g.id FROM genres g WHERE g.code IN (")
                + SQLFragment.list(codes) + SQLFragment(")))")
        case .certification:
            return SQLFragment("\(columns.certification) IN (") + SQLFragment.list(elements.map { .text($0.value) }) + SQLFragment(")")
        case .imdb:
            return SQLFragment("m.imdb_id IN (") + SQLFragment.list(elements.map { .text($0.value) }) + SQLFragment(")")
        case .title where elements.count > 1:
            return titleCondition(elements.map(\.value), on: columns)
        default:
            // Past 32 exact values, one IN list: SQLite prepares an OR in time growing with the
            // square of its terms (each bound value is compared with the others), 1.3 s for 4,000.
            let exact = elements.compactMap { exactValue($0, on: columns) }
            guard exact.count > 32 else {
                let ors = elements.map { condition(for: $0, on: columns) }
                return ors.count == 1 ? ors[0] : SQLFragment.or(ors).parenthesized
            }
            var ors = [SQLFragment("\(exact[0].column) IN (") + SQLFragment.list(exact.map(\.value)) + SQLFragment(")")]
            ors += elements.filter { exactValue($0, on: columns) == nil }.map { condition(for: $0, on: columns) }
            return ors.count == 1 ? ors[0] : SQLFragment.or(ors).parenthesized
        }
    }

    /// The column and value of an element that is one exact value (`year:1994`, `95m`).
    static func exactValue(_ element: MovieFilter, on c: ConditionColumns) -> (column: String, value: SQLValue)? {
        switch element {
        case .rating(.exact(let v)): return (c.rating, .real(v))
        case .duration(.minutes(let m)): return (c.minutes, .integer(Int64(m)))
        case .year(.exact(let y)): return (c.year, .integer(Int64(y)))
        case .votes(.exact(let n)): return (c.votes, .integer(Int64(n)))
        default: return nil
        }
    }

    /// The condition for one rating, duration, year, votes or title element.
    static func condition(for element: MovieFilter, on columns: ConditionColumns = .movies) -> SQLFragment {
        let c = columns
        switch element {
        case .rating(.bucket(let n)):
            return n >= 10 ? SQLFragment("\(c.rating) = ?", [.real(Double(n))])
                : SQLFragment("(\(c.rating) >= ? AND \(c.rating) < ?)", [.real(Double(n)), .real(Double(n + 1))])
        case .rating(.exact(let v)):
            return SQLFragment("\(c.rating) = ?", [.real(v)])
        case .rating(.range(let lo, let hi)):
            return between(c.rating, lo.map(SQLValue.real), hi.map(SQLValue.real))
        case .duration(.hours(let h)):
            // The last hour below Int.max has no end in Int64: every minute from its start is in it.
            let (end, past) = (h * 60).addingReportingOverflow(60)
            if past { return SQLFragment("\(c.minutes) >= ?", [.integer(Int64(h * 60))]) }
            return SQLFragment("(\(c.minutes) >= ? AND \(c.minutes) < ?)", [.integer(Int64(h * 60)), .integer(Int64(end))])
        case .duration(.minutes(let m)):
            return SQLFragment("\(c.minutes) = ?", [.integer(Int64(m))])
        case .duration(.range(let lo, let hi)):
            return between(c.minutes, lo.map { .integer(Int64($0)) }, hi.map { .integer(Int64($0)) })
        case .year(.exact(let y)):
            return SQLFragment("\(c.year) = ?", [.integer(Int64(y))])
        case .year(.decade(let d)):
            return between(c.year, .integer(Int64(d)), .integer(Int64(d + 9)))
        case .year(.range(let lo, let hi)):
            return between(c.year, lo.map { .integer(Int64($0)) }, hi.map { .integer(Int64($0)) })
        case .votes(.exact(let n)):
            return SQLFragment("\(c.votes) = ?", [.integer(Int64(n))])
        case .votes(.range(let lo, let hi)):
            return between(c.votes, lo.map { .integer(Int64($0)) }, hi.map { .integer(Int64($0)) })
        case .title(let text):
            // Both sides in Unicode lower case (final sigma as sigma), compared as scalars. An ASCII text: LIKE (which folds
            // ASCII) is that, but for titles with one of the two letters whose lower case has ASCII
            // in it, which it reads folded. Other text: moviecat_contains_any (see Database).
            // (A LIKE pattern is refused past 50,000 bytes; a longer text takes the other test.)
            if let (like, pattern) = likeTest(text) {
                let exception: String
                switch columns.titleExceptions {
                case .none: return SQLFragment("m.title" + like, [pattern])
                case .listed: exception = "m.id IN (SELECT id FROM movie_title_exceptions)"
                case .scanned: exception = MovieTitlesTable.hasException("m.title")
                }
                return SQLFragment("(m.title\(like) OR (\(exception) AND " + MovieTitlesTable.folded("m.title") + "\(like)))",
                                   [pattern, pattern])
            }
            return SQLFragment("moviecat_contains_any(m.title, ?)", [.text(text.searchFolded)])
        case .genre, .excludeGenre, .certification, .imdb:
            preconditionFailure("handled per facet")
        }
    }

    /// Several titles: each test of `condition(for:)`, with the test for a title whose ASCII
    /// letters LIKE reads folded made once for all (`A1 OR (E AND B1) OR A2 OR (E AND B2)` is
    /// `A1 OR A2 OR (E AND (B1 OR B2))`): made per title, a set of 3,000 titles tested it 3,000
    /// times a movie (8 s for a count of 2,922 movies).
    static func titleCondition(_ texts: [String], on columns: ConditionColumns) -> SQLFragment {
        var plain: [SQLFragment] = [], folded: [SQLFragment] = [], other: [SQLFragment] = []
        for text in texts {
            guard let (like, pattern) = likeTest(text) else {
                other.append(condition(for: .title(text), on: columns))
                continue
            }
            plain.append(SQLFragment("m.title" + like, [pattern]))
            folded.append(SQLFragment(MovieTitlesTable.folded("m.title") + like, [pattern]))
        }
        var ors = plain
        switch columns.titleExceptions {
        case .none: break
        case .listed: if !folded.isEmpty { ors.append(SQLFragment("(m.id IN (SELECT id FROM movie_title_exceptions) AND ") + SQLFragment.or(folded).parenthesized + SQLFragment(")")) }
        case .scanned: if !folded.isEmpty { ors.append(SQLFragment("(\(MovieTitlesTable.hasException("m.title")) AND ") + SQLFragment.or(folded).parenthesized + SQLFragment(")")) }
        }
        // Texts beyond ASCII: each title lower-cased once for a hundred of them.
        if other.count > 1 {
            let folded = texts.filter { likeTest($0) == nil }.map { SQLValue.text($0.searchFolded) }
            for start in stride(from: 0, to: folded.count, by: 100) {
                let chunk = Array(folded[start..<min(start + 100, folded.count)])
                ors.append(SQLFragment("moviecat_contains_any(m.title, ") + SQLFragment.list(chunk) + SQLFragment(")"))
            }
        } else {
            ors += other
        }
        return ors.count == 1 ? ors[0] : SQLFragment.or(ors).parenthesized
    }

    /// The LIKE test and pattern of an ASCII title text (nil for other text, moviecat_contains_any's).
    static func likeTest(_ text: String) -> (like: String, pattern: SQLValue)? {
        guard text.utf8.count <= longestLikeText && text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let escaped = escapeLike(text)
        // ESCAPE only when needed: it costs a tenth of a scan.
        return (escaped == text ? " LIKE ?" : " LIKE ? ESCAPE '\\'", .text("%" + escaped + "%"))
    }

    /// The longest title text tested with LIKE: its pattern, escaped, stays within SQLite's limit.
    static let longestLikeText = 20_000

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

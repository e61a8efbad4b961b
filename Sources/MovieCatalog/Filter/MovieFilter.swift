import MovieDomain
import SQLiteStore
/// The facets a movie can be filtered on.
public enum Facet: String, CaseIterable, Sendable, Comparable {
    case genre
    case excludeGenre = "exclude-genre"
    case rating
    case duration
    case year
    case certification
    case title
    case votes
    case imdb

    /// The command-line flag for this facet (`--exclude-genre`).
    public var flag: String { "--" + rawValue }

    /// Order used for canonical listings (the app's sections first).
    public static func < (lhs: Facet, rhs: Facet) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A rating selection: a whole-number bucket (`7` = 7 <= r < 8), an exact value, or an inclusive range.
public enum RatingValue: Hashable, Sendable {
    case bucket(Int)
    case exact(Double)
    case range(Double?, Double?)
}

/// A duration selection in minutes: whole hours (`2h` = 120 <= m < 180), exact minutes, or a range.
public enum DurationValue: Hashable, Sendable {
    case hours(Int)
    case minutes(Int)
    case range(Int?, Int?)
}

/// A year selection: one year, a decade (`1990s`), or an inclusive range.
public enum YearValue: Hashable, Sendable {
    case exact(Int)
    case decade(Int)
    case range(Int?, Int?)
}

/// A votes selection: an exact count or an inclusive range.
public enum VotesValue: Hashable, Sendable {
    case exact(Int)
    case range(Int?, Int?)
}

/// One element of a filter set: a facet and a canonical value.
public enum MovieFilter: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The movie has this genre (code).
    case genre(String)
    /// The movie does not have this genre (code).
    case excludeGenre(String)
    case rating(RatingValue)
    case duration(DurationValue)
    case year(YearValue)
    /// Certification, upper-cased.
    case certification(String)
    /// Case-insensitive substring of the title.
    case title(String)
    case votes(VotesValue)
    /// The movie with this IMDb id (`tt0111161`).
    case imdb(String)

    /// The facet this element belongs to.
    public var facet: Facet {
        switch self {
        case .genre: return .genre
        case .excludeGenre: return .excludeGenre
        case .rating: return .rating
        case .duration: return .duration
        case .year: return .year
        case .certification: return .certification
        case .title: return .title
        case .votes: return .votes
        case .imdb: return .imdb
        }
    }

    /// The canonical value text: parsing it again gives the same element.
    public var value: String {
        switch self {
        case .genre(let code), .excludeGenre(let code): return code
        case .certification(let text), .title(let text), .imdb(let text): return text
        case .rating(.bucket(let n)): return String(n)
        case .rating(.exact(let v)): return NumberText.decimal(v)   // always has a dot: 7.0 stays exact
        case .rating(.range(let lo, let hi)): return rangeText(lo.map(Self.number), hi.map(Self.number))
        case .duration(.hours(let h)): return "\(h)h"
        case .duration(.minutes(let m)): return "\(m)m"
        case .duration(.range(let lo, let hi)): return rangeText(lo.map { "\($0)m" }, hi.map { "\($0)m" })
        case .year(.exact(let y)): return String(y)
        case .year(.decade(let d)): return "\(d)s"
        case .year(.range(let lo, let hi)): return rangeText(lo.map { String($0) }, hi.map { String($0) })
        case .votes(.exact(let n)): return String(n)
        case .votes(.range(let lo, let hi)): return rangeText(lo.map { String($0) }, hi.map { String($0) })
        }
    }

    /// The numbers a numeric element spans, inclusive at both ends as far as order goes (minutes
    /// for durations; an open end is infinite), for listing values in order; nil for text facets.
    public var bounds: (lower: Double, upper: Double)? {
        func span(_ lo: Int?, _ hi: Int?) -> (Double, Double) { (lo.map { Double($0) } ?? -.infinity, hi.map { Double($0) } ?? .infinity) }
        switch self {
        case .rating(.bucket(let n)): return (Double(n), Double(n) + 1)
        case .rating(.exact(let v)): return (v, v)
        case .rating(.range(let lo, let hi)): return (lo ?? -.infinity, hi ?? .infinity)
        case .duration(.hours(let h)): return (Double(h) * 60, Double(h) * 60 + 60)   // in Double: a bucket of odd stored values may be huge
        case .duration(.minutes(let m)): return (Double(m), Double(m))
        case .duration(.range(let lo, let hi)): return span(lo, hi)
        case .year(.exact(let y)): return (Double(y), Double(y))
        case .year(.decade(let d)): return (Double(d), Double(d) + 10)
        case .year(.range(let lo, let hi)), .votes(.range(let lo, let hi)): return span(lo, hi)
        case .votes(.exact(let n)): return (Double(n), Double(n))
        case .genre, .excludeGenre, .certification, .title, .imdb: return nil
        }
    }

    /// The canonical token, `facet:value`.
    public var description: String { "\(facet.rawValue):\(value)" }

    /// Canonical order: by facet, then by value.
    public static func < (lhs: MovieFilter, rhs: MovieFilter) -> Bool {
        lhs.facet != rhs.facet ? lhs.facet < rhs.facet : lhs.value < rhs.value
    }

    private func rangeText(_ lo: String?, _ hi: String?) -> String { (lo ?? "") + ".." + (hi ?? "") }

    /// A range bound: whole numbers without a dot (bounds are inclusive, so 6 and 6.0 agree),
    /// others in plain decimals, never exponents, so the token parses again.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : NumberText.decimal(value)
    }
}

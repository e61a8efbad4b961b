/// One value of a facet with its count, as the app's filter list shows it.
public struct FacetValue: Equatable, Sendable {
    /// The filter token value (`drama`, `7`, `2h`, `1990s`, `PG-13`).
    public let value: String
    /// The number of movies that would match with this value.
    public let count: Int
    /// Whether the current set selects this value.
    public let selected: Bool
}

/// The counts of one facet.
public struct FacetCounts: Equatable, Sendable {
    /// The facet counted.
    public let facet: Facet
    /// The facet's values with their counts.
    public let values: [FacetValue]
}

/// Disjunctive facet counts: facet F's counts apply every selected element except F's own.
///
/// All facet SQL lives here, behind `counts(for:)`, so its shape can change without touching commands.
public struct FacetCounter {
    /// The facets the filter list shows, in the app's order.
    public static let listed: [Facet] = [.genre, .rating, .duration, .year, .certification]

    let catalog: Catalog

    /// Creates a counter over `catalog`.
    public init(catalog: Catalog) { self.catalog = catalog }

    /// Counts for every listed facet under `set`.
    public func counts(for set: FilterSet) throws -> [FacetCounts] {
        // The column facets the set selects nothing of all count under the whole set: one scan
        // of the movies counts them together, where a GROUP BY each would sort every movie again.
        let unselected = FacetCounter.scanned.filter { set.elements(of: $0).isEmpty }
        let scanned = unselected.count > 1 ? try scanCounts(of: unselected, for: set) : [:]
        return try FacetCounter.listed.map { facet in
            try assemble(facet, scanned[facet] ?? grouped(facet, for: set), for: set)
        }
    }

    /// The facets held in `movies` columns, which `scanCounts` can count together.
    static let scanned: [Facet] = [.rating, .duration, .year, .certification]

    /// One facet's counts, grouped in SQL under the set without the facet's own elements.
    func grouped(_ facet: Facet, for set: FilterSet) throws -> [String: Int] {
        let rest = set.removing(facet)
        let condition = SQLBuilder.condition(for: rest)
        let grouped: SQLFragment
        switch facet {
        case .genre:
            grouped = rest.isEmpty
                ? SQLFragment("SELECT g.code, count(*) FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id GROUP BY g.code")
                : SQLFragment("SELECT g.code, count(*) FROM movies m JOIN movie_genres mg ON mg.movie_id = m.id JOIN genres g ON g.id = mg.genre_id WHERE ")
                    + condition + SQLFragment(" GROUP BY g.code")
        default:
            // `bucket` and `column` are fixed SQL from bucketExpression, never values.
            let (bucket, column) = FacetCounter.bucketExpression(facet)
            grouped = SQLFragment("SELECT \(bucket) AS bucket, count(*) FROM movies m WHERE \(column) IS NOT NULL AND ")
                + condition + SQLFragment(" GROUP BY bucket")
        }
        var counts: [String: Int] = [:]
        for (value, count) in try catalog.db.query(grouped.sql, grouped.bindings, { ($0.value(0), Int($0.int64(1))) }) {
            counts[FacetCounter.token(facet, value), default: 0] += count
        }
        return counts
    }

    /// Counts of several column facets under the whole set, from one scan of the matching movies.
    /// Buckets are the SQL ones (`bucketExpression`) computed here: whole rating, hours, decade.
    func scanCounts(of facets: [Facet], for set: FilterSet) throws -> [Facet: [String: Int]] {
        var ratings = [Int: Int](), hours = [Int: Int](), decades = [Int: Int](), certifications = [String: Int]()
        let query = SQLFragment("SELECT m.rating, m.duration_minutes, m.year, m.certification FROM movies m WHERE ")
            + SQLBuilder.condition(for: set)
        try catalog.db.forEachRow(query.sql, query.bindings) { row in
            // Ratings lie in 0...10 and the rest are positive, so truncation is SQL's CAST and `/`.
            if let rating = row.optionalDouble(0) { ratings[Int(rating), default: 0] += 1 }
            if let minutes = row.optionalInt(1) { hours[minutes / 60, default: 0] += 1 }
            if let year = row.optionalInt(2) { decades[year / 10 * 10, default: 0] += 1 }
            if let certification = row.optionalText(3) { certifications[certification, default: 0] += 1 }
        }
        var counts: [Facet: [String: Int]] = [:]
        for facet in facets {
            switch facet {
            case .rating: counts[facet] = Dictionary(uniqueKeysWithValues: ratings.map { (String($0.key), $0.value) })
            case .duration: counts[facet] = Dictionary(uniqueKeysWithValues: hours.map { ("\($0.key)h", $0.value) })
            case .year: counts[facet] = Dictionary(uniqueKeysWithValues: decades.map { ("\($0.key)s", $0.value) })
            case .certification: counts[facet] = certifications
            case .genre, .excludeGenre, .title: preconditionFailure("\(facet) is not a column facet")
            }
        }
        return counts
    }

    /// A facet's values from its counts; selected elements are always listed.
    func assemble(_ facet: Facet, _ counts: [String: Int], for set: FilterSet) throws -> FacetCounts {
        let rest = set.removing(facet)
        var values = counts.filter { $0.value > 0 }.map { FacetValue(value: $0.key, count: $0.value, selected: false) }
        // Selected elements are always listed, with what they match alongside the rest of the set.
        for element in set.elements(of: facet) {
            values.removeAll { $0.value == element.value }
            var count = counts[element.value] ?? 0
            if counts[element.value] == nil { count = try catalog.count(rest.union(element)) }
            values.append(FacetValue(value: element.value, count: count, selected: true))
        }
        return FacetCounts(facet: facet, values: values.sorted(by: FacetCounter.order(facet)))
    }

    /// The SQL bucket of a numeric or text facet, and the column that must be non-null.
    static func bucketExpression(_ facet: Facet) -> (String, String) {
        switch facet {
        case .rating: return ("CAST(m.rating AS INTEGER)", "m.rating")
        case .duration: return ("m.duration_minutes / 60", "m.duration_minutes")
        case .year: return ("m.year / 10 * 10", "m.year")
        case .certification: return ("m.certification", "m.certification")
        case .genre, .excludeGenre, .title: preconditionFailure("\(facet) has no bucket column")
        }
    }

    /// A bucket as a filter token value: `7`, `2h`, `1990s`, `drama`, `PG-13`.
    static func token(_ facet: Facet, _ value: SQLValue) -> String {
        switch (facet, value) {
        case (.duration, .integer(let h)): return "\(h)h"
        case (.year, .integer(let y)): return "\(y)s"
        case (_, .integer(let n)): return String(n)
        case (_, .text(let s)): return s
        default: return value.description
        }
    }

    /// Genres and certifications by count (then name); numeric buckets by value.
    static func order(_ facet: Facet) -> (FacetValue, FacetValue) -> Bool {
        switch facet {
        case .genre, .certification:
            return { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
        default:
            return { a, b in
                let x = Double(a.value.filter { $0.isNumber || $0 == "." }) ?? 0
                let y = Double(b.value.filter { $0.isNumber || $0 == "." }) ?? 0
                return x != y ? x < y : a.value < b.value
            }
        }
    }
}

extension FilterSet {
    /// The set with one more element.
    func union(_ element: MovieFilter) -> FilterSet {
        var copy = self
        copy.insert(element)
        return copy
    }
}

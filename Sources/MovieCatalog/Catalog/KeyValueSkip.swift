import MovieDomain
import SQLiteStore

/// A deep page by a facet column (rating, year, votes, duration) narrowed to the few key values
/// it spans, by counting the matches of each value first: only the movies of those values are
/// then numbered in one sort, where numbering every match sorted them all, titles and all.
struct KeyValueSkip {
    /// The condition on the key column that keeps the values the page spans.
    let condition: SQLFragment
    /// How many matches come before the first of them: the page's offset among the rest is the
    /// query's offset less these.
    let skipped: Int64
    /// The page's first key value (`.null` for the movies without one, which sort last).
    let first: SQLValue

    /// Past this share of the matches in the values a page spans, numbering them all costs about
    /// as much, and the count was for nothing (a key most movies lack, say).
    static let worthwhileShare = 0.5

    /// The most key values counted: past them the count stops and the page numbers every match
    /// (votes may be nearly unique; a value's count costs some 100 bytes, and memory stays flat).
    static let mostValues = 50_000

    /// The skip for a page at `offset` (of `limit` rows, or all the rest) of the matches `source`
    /// (a `FROM ... WHERE` over movie_facets `f`) in `column`'s order (f's column for `field`, one
    /// type in that STRICT table: REAL for rating, INTEGER otherwise; NULL last either way), or
    /// nil when it would not pay.
    static func find(_ db: Database, field: MovieField, column: String, from source: SQLFragment,
                     descending: Bool, offset: Int64, limit: Int64?, mostValues: Int = mostValues) throws -> KeyValueSkip? {
        guard let values = try counts(db, real: field == .rating, column: column, from: source, descending: descending, mostValues: mostValues),
              !values.isEmpty else { return nil }
        let total = values.reduce(0) { $0 + $1.count }
        var before: Int64 = 0, first = 0
        while first < values.count, before + values[first].count <= offset {
            before += values[first].count
            first += 1
        }
        // Past the last match: the last value's movies, all before the offset (a constant false
        // condition would leave SQLite no plan with the driver's INDEXED BY).
        if first == values.count {
            first -= 1
            before -= values[first].count
        }
        var last = first, end = before + values[first].count
        let (pageEnd, overflow) = offset.addingReportingOverflow(limit ?? Int64.max)
        while (limit == nil || overflow || end < pageEnd), last + 1 < values.count {
            last += 1
            end += values[last].count
        }
        guard Double(end - before) <= Double(total) * worthwhileShare else { return nil }
        return KeyValueSkip(condition: range(column, from: values[first].value, to: values[last].value, descending: descending),
                            skipped: before, first: values[first].value)
    }

    /// The matches of each key value, in the page's order, NULL last; nil past `mostValues` values.
    private static func counts(_ db: Database, real: Bool, column: String, from source: SQLFragment,
                               descending: Bool, mostValues: Int) throws -> [(value: SQLValue, count: Int64)]? {
        var reals: [Double: Int64] = [:], integers: [Int64: Int64] = [:], nulls: Int64 = 0
        let statement = try db.prepare("SELECT \(column) " + source.sql)
        try statement.bind(source.bindings)
        while try statement.step() {
            if real {
                // Swift's == and hash take -0.0 as 0.0, as SQLite compares them; SQLite stores no NaN.
                if let value = statement.optionalDouble(0) { reals[value, default: 0] += 1 } else { nulls += 1 }
            } else if let value = statement.optionalInt(0) {
                integers[Int64(value), default: 0] += 1
            } else {
                nulls += 1
            }
            if reals.count + integers.count > mostValues { return nil }
        }
        var values = real ? reals.sorted { descending ? $0.key > $1.key : $0.key < $1.key }.map { (SQLValue.real($0.key), $0.value) }
            : integers.sorted { descending ? $0.key > $1.key : $0.key < $1.key }.map { (SQLValue.integer($0.key), $0.value) }
        if nulls > 0 { values.append((.null, nulls)) }
        return values.map { (value: $0.0, count: $0.1) }
    }

    /// The condition that keeps the values from `first` to `last` in sort order (NULL last).
    private static func range(_ column: String, from first: SQLValue, to last: SQLValue, descending: Bool) -> SQLFragment {
        if first == .null { return SQLFragment("\(column) IS NULL") }
        let bound = descending ? "<=" : ">="
        if last == .null { return SQLFragment("(\(column) \(bound) ? OR \(column) IS NULL)", [first]) }
        return SQLFragment("\(column) BETWEEN ? AND ?", descending ? [last, first] : [first, last])
    }
}

extension QueryPlanner {
    /// The key values a deep page by a facet column spans (`KeyValueSkip`), when its offset is
    /// deep and the driver's rows have movie_facets' column (the key read there, one type), and
    /// the sample (`matches`, those with a key: `keyed`) says the count may pay: not for a page
    /// past the matches (numbering them is cheaper), nor for a page among the movies without a key when
    /// they are most matches, nor for titles tested one by one (the count would test them all again).
    func keySkip(_ query: MovieQuery, driver: QueryPlan.Driver, offset: Int64, matches: Double, keyed: Double) throws -> KeyValueSkip? {
        guard let field = query.sort.field, offset > Int64(deepPage), matches > Double(offset) else { return nil }
        if matches - keyed >= matches * KeyValueSkip.worthwhileShare && Double(offset) >= keyed { return nil }
        let titled = !filters.elements(of: .title).isEmpty
        switch driver {
        case .facet(.title): guard titleIsExact && readsFacets else { return nil }
        case .imdbID: guard readsFacets else { return nil }
        case .scan, .sortOrder: guard !titled else { return nil }
        case .facet: guard !titled || titleIsExact else { return nil }
        }
        return try KeyValueSkip.find(db, field: field, column: "f." + MovieFacetsTable.column(of: field), from: from(driver, joiningMovies: readsMovies),
                                     descending: query.descending, offset: offset, limit: query.limit.map(Int64.init))
    }
}

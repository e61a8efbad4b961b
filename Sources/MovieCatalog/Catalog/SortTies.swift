import MovieDomain
import SQLiteStore

/// A page walked in sort-key order ends inside one value's ties, which are sorted by title: the
/// walk reads every one of them. Most values have a few hundred movies at 10M, but some have
/// very many (the newest year: 248,000 of 9.5 million; the first page by year, newest first,
/// took 0.54 s where the other keys take 0.02-0.1 s). Then the ties are walked in title order
/// instead, each probing its narrow row, and the walk stops when the page is full: about
/// `wanted x movies / M` rows for M of the tie's movies matching the set. Those probes go in
/// title order, at random, where a tie's rows come from the key's index in id order: measured, a
/// row of the title walk costs about four of the tie's (2.2 times at 1M, 3.9 at 10M). So a tie
/// of T movies is walked by title when `4 x wanted x movies / M < T`; as M <= T, only a tie of
/// more than `sqrt(4 x wanted x movies)` movies can be.
extension QueryPlanner {
    /// What a row of a tie walked in title order costs, in rows of the tie read from the key's index.
    static let titleWalkCost = 4.0
    /// Pages ending further than this are looked at only if the sample holds a tie large enough:
    /// finding the value at the page's end walks as far as the page itself.
    static let tieLookupRows: Int64 = 1_000

    /// The sort key's value at the page's last row, when the split pays there (see above); nil
    /// when the ties are few (they are then read and sorted), or the set has fewer keyed matches
    /// than the page needs. Short statements: the walk to the page's end, a count of the tie in
    /// the key's index alone (no row read), a look at the sample's movies of the tie, and unless
    /// they rule the split out, a count of its matches that stops as soon as the split pays; at
    /// worst that reads the tie once, as the walk without a split would.
    /// The walk to the page's end runs within `steps` SQLite steps (nil: any), the walk's own
    /// budget (`WalkLimit`); past them it throws `WalkOutOfSteps`, and the walk is not run: a
    /// set far rarer than the sample guessed ran the lookup through the whole index before the
    /// plan was made, then the walk its budget (`title:77 genre:horror --sort rating --limit 10`
    /// at 10M, 13.9 s for no match). Without a large tie the walk reads at least as far; a page
    /// ending in a large tie whose matches come last by id (read so here, by title in the walk)
    /// loses its short walk, for at most the lookup's steps and the next plan. `spent`: the steps
    /// the walk to the page's end took, when it ran.
    func largeTies(of field: MovieField, descending: Bool, wanted: Int64, sample: QuerySample, steps: Int? = nil, spent: inout Int?) throws -> SQLValue? {
        // Keys whose values do not repeat in the sample (votes) have no ties worth a look. The
        // sample's average tie says little more: the large ones are few values among many.
        guard wanted > 0, wanted < Int64.max, sample.keyTies >= 2 else { return nil }
        let column = "f." + MovieFacetsTable.column(of: field)
        let walkCost = Self.titleWalkCost * Double(wanted) * sample.movies
        let least = walkCost.squareRoot()
        if wanted > Self.tieLookupRows, try sample.largestTie(db, column: column) < least { return nil }
        let index = "movie_facets f INDEXED BY \(Self.sortIndex(of: field))"
        let from = SQLFragment("FROM \(index)"
            + (filters.elements(of: .title).isEmpty ? "" : " CROSS JOIN movies m ON m.id = f.id") + " WHERE ")
        let arms = walkConditions(field, descending: descending).map { walked in
            SQLFragment("SELECT * FROM (SELECT \(column) ") + from + SQLFragment("\(column) IS NOT NULL AND ") + walked
                + SQLFragment(" ORDER BY \(column)\(descending ? " DESC" : "") LIMIT ?)", [.integer(wanted)])
        }
        let last = SQLFragment("SELECT * FROM (") + SQLFragment.join(arms, separator: " UNION ALL ")
            + SQLFragment(") LIMIT 1 OFFSET ?", [.integer(wanted - 1)])
        let found: SQLValue?
        if let steps {
            guard let walked = try WalkLimit.within(db, steps: steps, { limit in (try db.scalar(last.sql, last.bindings), limit.spent) }) else {
                throw WalkOutOfSteps()
            }
            (found, spent) = walked
        } else {
            found = try db.scalar(last.sql, last.bindings)
        }
        guard let value = found, value != .null else { return nil }
        // The tie's size, exact up to a bound far above `least` (index entries only: cheap).
        let tie = try count(SQLFragment("SELECT 1 FROM \(index) WHERE \(column) = ?", [value]), upTo: 16 * least)
        guard tie >= least else { return nil }
        // Every movie of the tie matches the empty set: then tie >= least already makes M large enough.
        let needed = walkCost / tie
        if filters.elements.isEmpty { return value }
        // The sampled movies of the tie show a split that cannot pay without counting it: the
        // count would read the whole tie, and the page's walk then reads it again (the broad set
        // by year at 1M: half of the command's instructions).
        if tie < 16 * least, let seen = try sample.tie(db, column: column, value: value, condition: condition),
           Self.sampleRulesOutSplit(tie: tie, needed: needed, sampledRows: seen.rows, sampledMatches: seen.matches) {
            return nil
        }
        let matches = try count(SQLFragment("SELECT 1 ") + from + SQLFragment("\(column) = ? AND ", [value]) + condition, upTo: needed)
        return matches >= needed ? value : nil
    }

    /// The walk to a page's end ran out of the walk's steps while the plan was made.
    struct WalkOutOfSteps: Error {}

    /// Whether a tie of `tie` movies, of which `sampledRows` were sampled with `sampledMatches`
    /// matching the set, surely holds fewer than `needed` matches: ten sampled movies at least, and
    /// a generous estimate (one more match than seen) under half of `needed`. A wrong "surely"
    /// only reads the tie once, as the walk without a split does; it never changes the page.
    static func sampleRulesOutSplit(tie: Double, needed: Double, sampledRows: Double, sampledMatches: Double) -> Bool {
        sampledRows >= 10 && (sampledMatches + 1) / (sampledRows + 1) * tie < needed / 2
    }

    /// The rows `select` gives, counted up to `bound` (rounded up): the count stops there.
    private func count(_ select: SQLFragment, upTo bound: Double) throws -> Double {
        let cap = bound >= Double(Int64.max) ? Int64.max : Int64(bound.rounded(.up))
        let sql = SQLFragment("SELECT count(*) FROM (") + select + SQLFragment(" LIMIT ?)", [.integer(cap)])
        return Double(try db.intScalar(sql.sql, sql.bindings))
    }

    /// The first `wanted` keyed matches when the page ends in `ties`' large tie: those before it
    /// in sort order (fewer than `wanted`), from the key's index, then the tie in title order.
    func walkSplit(at ties: SQLValue, field: MovieField, descending: Bool, limit: SQLFragment) -> SQLFragment {
        let column = "f." + MovieFacetsTable.column(of: field)
        let before = SQLFragment.join(walkConditions(field, descending: descending, before: ties).map { walked in
            SQLFragment("SELECT * FROM (SELECT m.id AS id FROM movie_facets f INDEXED BY \(Self.sortIndex(of: field)) CROSS JOIN movies m ON m.id = f.id WHERE ")
                + walked + SQLFragment(" ORDER BY \(column)\(descending ? " DESC" : ""), \(SortKey.titleOrder(descending: false))") + limit + SQLFragment(")")
        }, separator: " UNION ALL ")
        let tie = SQLFragment("SELECT * FROM (") + titleWalk + SQLFragment("\(column) = ? AND ", [ties]) + condition
            + SQLFragment(" ORDER BY \(SortKey.titleOrder(descending: false))") + limit + SQLFragment(")")
        return before + SQLFragment(" UNION ALL ") + tie
    }

    /// The set's conditions for a walk of `field`'s index, one for each stretch of the index it
    /// reads, in walk order (each an arm of a UNION ALL, in its order). With more than one
    /// element of the field's facet, they are tested on each row (`+column`), not looked up:
    /// SQLite ran their OR as a union of index ranges and sorted it all (`duration:..138m
    /// duration:129m..` by duration: every movie, 13.6 s at 9.5M movies). Their ranges, merged
    /// where they meet, bound the stretches on the plain column, so no walk reads the index
    /// between them (`year:1894 year:2015`: every year between, 1.42 s). One element's range
    /// starts the walk as it is.
    /// `before`: only the key values before a large tie's (in walk order), each stretch's range
    /// clamped there, so the index range has one bound at each end: with the tie's bound beside
    /// the set's own, SQLite bounded the range by the set's and read it all (`rating:6.3..8.1
    /// genre:drama --sort rating`, the page ending in 6.3's tie: 3.5M entries, 1.67 s).
    func walkConditions(_ field: MovieField, descending: Bool, before tie: SQLValue? = nil) -> [SQLFragment] {
        guard let facet = SortKey.allCases.first(where: { $0.field == field }).flatMap(Facet.init(sortKey:)) else { return [condition] }
        let elements = filters.elements(of: facet)
        guard elements.count > 1 || tie != nil else { return [condition] }
        let column = "f." + MovieFacetsTable.column(of: field)
        let test = SQLBuilder.condition(for: filters, on: columns.tested(field))
        let spans = elements.isEmpty ? [ElementSpan(low: nil, high: nil)] : ElementSpan.merged(elements, most: Self.walkStretches)
        let before = { (a: SQLValue, b: SQLValue) in ElementSpan.precedes(a, b) }
        let conditions = spans.compactMap { span -> SQLFragment? in
            var low = span.low.map { SQLFragment(" AND \(column) >= ?", [$0]) } ?? SQLFragment("")
            var high = span.high.map { SQLFragment(" AND \(column) <= ?", [$0]) } ?? SQLFragment("")
            if let tie, descending {
                // Only values above the tie: none in a stretch that ends below or at it.
                if let end = span.high, !before(tie, end) { return nil }
                if span.low.map({ !before(tie, $0) }) ?? true { low = SQLFragment(" AND \(column) > ?", [tie]) }
            } else if let tie {
                if let start = span.low, !before(start, tie) { return nil }
                if span.high.map({ !before($0, tie) }) ?? true { high = SQLFragment(" AND \(column) < ?", [tie]) }
            }
            return test + low + high
        }
        // No value before the tie (it is the set's first): an empty range of the index (a
        // constant false left SQLite no plan with the index INDEXED BY names).
        if let tie, conditions.isEmpty { return [SQLFragment("\(column) > ? AND \(column) < ?", [tie, tie])] }
        return descending ? conditions.reversed() : conditions
    }

    /// At most this many stretches of an index are walked one after the other (a compound of
    /// many arms costs its planning); more are walked as one span.
    static let walkStretches = 16

    /// Ids in title order from the natural key's index, each probing its narrow row; a WHERE follows.
    var titleWalk: SQLFragment {
        SQLFragment("SELECT m.id AS id FROM movies m INDEXED BY \(Self.titleIndex) CROSS JOIN movie_facets f ON f.id = m.id WHERE ")
    }
}

import SQLiteStore

/// The values an element of a numeric facet can match, as one range of its column, and the
/// ranges of several elements merged where they meet: what a walk of the column's index reads
/// (`SQLBuilder.condition(for:)` is the exact test, which may be narrower).
public struct ElementSpan: Sendable {
    /// The least and greatest values (nil: open, or past Int's range), inclusive.
    public var low: SQLValue?, high: SQLValue?

    /// The span of one rating, duration, year or votes element (open at both ends for others); a
    /// little wider where the element's test is strict (a rating bucket's next value).
    public init(_ element: MovieFilter) {
        func integers(_ low: Int?, _ high: Int?) -> (SQLValue?, SQLValue?) { (low.map { .integer(Int64($0)) }, high.map { .integer(Int64($0)) }) }
        switch element {
        case .rating(.bucket(let n)): (low, high) = (.real(Double(n)), .real(Double(n) + 1))
        case .rating(.exact(let v)): (low, high) = (.real(v), .real(v))
        case .rating(.range(let lo, let hi)): (low, high) = (lo.map(SQLValue.real), hi.map(SQLValue.real))
        case .duration(.hours(let h)):
            let (start, over) = h.multipliedReportingOverflow(by: 60)
            let (end, past) = start.addingReportingOverflow(60)
            (low, high) = over ? (nil, nil) : integers(start, past ? nil : end)
        case .duration(.minutes(let m)): (low, high) = integers(m, m)
        case .duration(.range(let lo, let hi)): (low, high) = integers(lo, hi)
        case .year(.exact(let y)): (low, high) = integers(y, y)
        case .year(.decade(let d)):
            let (end, past) = d.addingReportingOverflow(9)
            (low, high) = integers(d, past ? nil : end)
        case .year(.range(let lo, let hi)): (low, high) = integers(lo, hi)
        case .votes(.exact(let n)): (low, high) = integers(n, n)
        case .votes(.range(let lo, let hi)): (low, high) = integers(lo, hi)
        default: (low, high) = (nil, nil)
        }
    }

    init(low: SQLValue?, high: SQLValue?) {
        self.low = low
        self.high = high
    }

    /// The spans of `elements` (of one facet) in ascending order, merged where one reaches the
    /// next; past `most` of them, one span over them all.
    public static func merged(_ elements: [MovieFilter], most: Int) -> [ElementSpan] {
        // By their start, an open start first.
        let spans = elements.map(ElementSpan.init).sorted { a, b in
            guard let low = b.low else { return false }
            return a.low.map { precedes($0, low) } ?? true
        }
        var merged: [ElementSpan] = []
        for span in spans {
            guard var last = merged.last, last.high.map({ high in span.low.map { !precedes(high, $0) } ?? true }) ?? true else {
                merged.append(span)
                continue
            }
            last.high = last.high.flatMap { a in span.high.map { b in precedes(a, b) ? b : a } }
            merged[merged.count - 1] = last
        }
        // Disjoint and ascending: the last ends highest (open, if any is).
        if merged.count > most { merged = [ElementSpan(low: merged.first!.low, high: merged.last!.high)] }
        return merged
    }

    /// Orders two bounds of one column (both integers, or both reals), exactly.
    public static func precedes(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.real(let x), .real(let y)): return x < y
        default: return false
        }
    }
}

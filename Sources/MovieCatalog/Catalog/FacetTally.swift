import MovieDomain

/// Disjunctive facet counts in one pass over the movies' facet rows (drill-sideways, as search
/// engines count them): a movie that meets every listed facet's selection counts in every
/// facet; one that misses exactly one facet's selection counts in that facet alone; one that
/// misses two or more counts nowhere. Facets outside the list (title, votes, imdb,
/// exclude-genre) apply to all and are left to the SQL that feeds the rows.
struct FacetTally: Sendable {
    /// A numeric interval an element selects; either end open or closed.
    struct Interval {
        let lo: Double, hi: Double, loClosed: Bool, hiClosed: Bool

        func contains(_ x: Double) -> Bool {
            (loClosed ? x >= lo : x > lo) && (hiClosed ? x <= hi : x < hi)
        }

        static func closed(_ lo: Double?, _ hi: Double?) -> Interval {
            Interval(lo: lo ?? -.infinity, hi: hi ?? .infinity, loClosed: true, hiClosed: true)
        }

        static func halfOpen(_ lo: Double, _ hi: Double) -> Interval {
            Interval(lo: lo, hi: hi, loClosed: true, hiClosed: false)
        }
    }

    /// One selected element, compiled for testing a row.
    enum Test {
        case genre(Int64)
        case interval(Interval)
        case text([UInt8])
    }

    /// The listed facets in order; index i is bit i of a row's "misses" set.
    static let facets: [Facet] = FacetCounter.listed

    /// Each listed facet's selected elements with their tests (empty: not selected).
    let selected: [[(element: MovieFilter, test: Test)]]
    /// The facets of more than one element, as bits (facet i: bit i): a row that meets a facet of
    /// one meets its element. Their elements' tests follow, by kind, in forms with nothing to
    /// retain per row (copying a `Test`, whose text case holds an array, retained and released
    /// it for every test of every matching movie: a fifth of a tally of two rating ranges).
    private let manyElements: Int
    /// The genre facet's elements' bits, the numeric facets' intervals (by facet position) and
    /// the certifications, each in the order of `selected`.
    private let elementBits: [Int64], elementIntervals: [[Interval]], elementTexts: [[UInt8]]
    /// Whether no listed facet has a selection: every row counts in every facet.
    private let selectsNothing: Bool
    /// The same tests in flat form, for the test every row gets.
    private let rowTest: RowTest

    /// The selected tests in flat form: bit i of `facetsSelected` for facet i, the selected
    /// genres' bits OR-ed, each numeric facet's intervals, the certifications.
    private struct RowTest: Sendable {
        let facetsSelected: Int, genreMask: Int64
        let ratingIntervals: [Interval], minuteIntervals: [Interval], yearIntervals: [Interval]
        let certificationTexts: [[UInt8]]

        /// The facets whose selection a row misses, as bits (facet i: bit i).
        @inline(__always)
        func misses(genres: Int64, rating: Double?, minutes: Int?, year: Int?, certification: UnsafeBufferPointer<UInt8>?) -> Int {
            var misses = 0
            if facetsSelected & 1 != 0, genres & genreMask == 0 { misses |= 1 }
            if facetsSelected & 2 != 0, !RowTest.any(ratingIntervals, contain: rating) { misses |= 2 }
            if facetsSelected & 4 != 0, !RowTest.any(minuteIntervals, contain: minutes.map(Double.init)) { misses |= 4 }
            if facetsSelected & 8 != 0, !RowTest.any(yearIntervals, contain: year.map(Double.init)) { misses |= 8 }
            if facetsSelected & 16 != 0, !(certification.map { text in certificationTexts.contains { $0.elementsEqual(text) } } ?? false) {
                misses |= 16
            }
            return misses
        }

        @inline(__always)
        private static func any(_ intervals: [Interval], contain value: Double?) -> Bool {
            guard let value else { return false }
            for interval in intervals where interval.contains(value) { return true }
            return false
        }
    }
    /// Genre bit -> genre code, for the genres counted.
    private let codeOfBit: [Int: String]

    /// Counts by facet position and bucket token.
    private(set) var counts: [[String: Int]]
    /// Counts of each selected element alongside the rest of the set, by facet position.
    private(set) var elementCounts: [[Int]]
    /// The rows added that meet the whole set (a stored block's counts add none: `add(totals:)`).
    private(set) var matching = 0
    /// Whether only `matching` is wanted (a count): no row is counted in any facet's buckets.
    var matchesOnly = false
    // Buckets counted in arrays where they are small numbers (most rows), else in dictionaries
    // (FacetTotals stores and adds the arrays of a block's tally).
    var ratingBuckets = [Int](repeating: 0, count: 11)
    var hourBuckets = [Int](repeating: 0, count: 64)
    var decadeBuckets = [Int](repeating: 0, count: 64)   // 1800s ... 2430s
    var genreBits = [Int](repeating: 0, count: 63)
    var certifications: [(bytes: [UInt8], count: Int)] = []

    /// Compiles the listed facets' elements of `set`; `bitOfGenre` gives a genre code's bit.
    /// Nil when an element cannot be tested on a facet row (a genre without a bit of its own).
    init?(set: FilterSet, bitOfGenre: [String: Int64]) {
        var selected: [[(element: MovieFilter, test: Test)]] = []
        for facet in FacetTally.facets {
            var tests: [(element: MovieFilter, test: Test)] = []
            for element in set.elements(of: facet) {
                guard let test = FacetTally.test(for: element, bitOfGenre: bitOfGenre) else { return nil }
                tests.append((element, test))
            }
            selected.append(tests)
        }
        self.selected = selected
        selectsNothing = selected.allSatisfy(\.isEmpty)
        var mask: Int64 = 0, bits: [Int64] = [], intervals: [[Interval]] = [[], [], [], [], []], texts: [[UInt8]] = []
        for (facet, tests) in selected.enumerated() {
            for (_, test) in tests {
                switch test {
                case .genre(let bit): mask |= bit; bits.append(bit)
                case .interval(let interval): intervals[facet].append(interval)
                case .text(let bytes): texts.append(bytes)
                }
            }
        }
        manyElements = selected.indices.reduce(0) { selected[$1].count > 1 ? $0 | 1 << $1 : $0 }
        (elementBits, elementIntervals, elementTexts) = (bits, intervals, texts)
        rowTest = RowTest(facetsSelected: selected.indices.reduce(0) { selected[$1].isEmpty ? $0 : $0 | 1 << $1 }, genreMask: mask,
                          ratingIntervals: intervals[1], minuteIntervals: intervals[2], yearIntervals: intervals[3], certificationTexts: texts)
        var codes: [Int: String] = [:]
        for (code, bit) in bitOfGenre where bit != MovieFacetsTable.overflowBit { codes[bit.trailingZeroBitCount] = code }
        codeOfBit = codes
        counts = Array(repeating: [:], count: FacetTally.facets.count)
        elementCounts = selected.map { Array(repeating: 0, count: $0.count) }
    }

    /// The test of one element of a listed facet.
    static func test(for element: MovieFilter, bitOfGenre: [String: Int64]) -> Test? {
        switch element {
        case .genre(let code):
            guard let bit = bitOfGenre[code], bit != MovieFacetsTable.overflowBit else { return nil }
            return .genre(bit)
        case .rating(.bucket(let n)):
            return .interval(n >= 10 ? .closed(Double(n), Double(n)) : .halfOpen(Double(n), Double(n + 1)))
        case .rating(.exact(let v)): return .interval(.closed(v, v))
        case .rating(.range(let lo, let hi)): return .interval(.closed(lo, hi))
        case .duration(.hours(let h)):
            guard let lo = exactly(h * 60), let hi = exactly(h * 60 + 60) else { return nil }
            return .interval(.halfOpen(lo, hi))
        case .duration(.minutes(let m)):
            guard let m = exactly(m) else { return nil }
            return .interval(.closed(m, m))
        case .duration(.range(let lo, let hi)):
            if let lo, exactly(lo) == nil { return nil }
            if let hi, exactly(hi) == nil { return nil }
            return .interval(.closed(lo.map(Double.init), hi.map(Double.init)))
        case .year(.exact(let y)): return .interval(.closed(Double(y), Double(y)))
        case .year(.decade(let d)): return .interval(.closed(Double(d), Double(d + 9)))
        case .year(.range(let lo, let hi)): return .interval(.closed(lo.map(Double.init), hi.map(Double.init)))
        case .certification(let text): return .text(Array(text.utf8))
        case .excludeGenre, .title, .votes, .imdb: return nil
        }
    }

    /// Minutes as a bound that compares with every row's minutes as a Double exactly as the
    /// integers compare (below 2^53); nil beyond, where the counts are left to SQL.
    private static func exactly(_ minutes: Int) -> Double? { minutes.magnitude < 1 << 53 ? Double(minutes) : nil }

    /// A row's value for a numeric facet (rating, duration, year), as a number.
    @inline(__always)
    private static func number(_ facet: Int, rating: Double?, minutes: Int?, year: Int?) -> Double? {
        switch facet {
        case 1: return rating
        case 2: return minutes.map(Double.init)
        case 3: return year.map(Double.init)
        default: return nil
        }
    }

    /// Counts one movie's facet row.
    mutating func add(genres: Int64, rating: Double?, minutes: Int?, year: Int?, certification: UnsafeBufferPointer<UInt8>?) {
        if matchesOnly {
            if selectsNothing || rowTest.misses(genres: genres, rating: rating, minutes: minutes, year: year, certification: certification) == 0 {
                matching += 1
            }
            return
        }
        if selectsNothing {
            // The first screen, and each block movie_facet_totals stores: no tests to make.
            matching += 1
            countGenres(genres)
            if let rating { countRating(rating) }
            if let minutes { countHours(minutes / 60) }
            if let year { countDecade(year / 10 * 10) }
            if let certification { countCertification(certification) }
            return
        }
        // Facet positions: genre, rating, duration, year, certification (FacetCounter.listed).
        let misses = rowTest.misses(genres: genres, rating: rating, minutes: minutes, year: year, certification: certification)
        if misses & (misses - 1) != 0 { return }   // two or more
        if misses == 0 {
            // The movie counts in every facet, and for each selected element it meets.
            matching += 1
            var selectedFacets = rowTest.facetsSelected
            while selectedFacets != 0 {
                countElements(selectedFacets.trailingZeroBitCount, genres: genres, rating: rating, minutes: minutes, year: year,
                              certification: certification)
                selectedFacets &= selectedFacets - 1
            }
        }
        // Only in the facet it misses (none of whose elements it meets: they are OR-ed).
        if misses == 0 || misses == 1 { countGenres(genres) }
        if misses == 0 || misses == 2, let rating { countRating(rating) }
        if misses == 0 || misses == 4, let minutes { countHours(minutes / 60) }
        if misses == 0 || misses == 8, let year { countDecade(year / 10 * 10) }
        if misses == 0 || misses == 16, let certification { countCertification(certification) }
    }

    /// Counts a matching movie for the elements of `facet` it meets.
    @inline(__always)
    private mutating func countElements(_ facet: Int, genres: Int64, rating: Double?, minutes: Int?, year: Int?,
                                        certification: UnsafeBufferPointer<UInt8>?) {
        // A facet of one element: the movie meets the facet, so it meets the element.
        guard manyElements & 1 << facet != 0 else { return elementCounts[facet][0] += 1 }
        switch facet {
        case 0:
            for index in elementBits.indices where genres & elementBits[index] != 0 { elementCounts[0][index] += 1 }
        case 4:
            guard let certification else { return }
            for index in elementTexts.indices where elementTexts[index].elementsEqual(certification) { elementCounts[4][index] += 1 }
        default:
            guard let number = FacetTally.number(facet, rating: rating, minutes: minutes, year: year) else { return }
            for index in elementIntervals[facet].indices where elementIntervals[facet][index].contains(number) { elementCounts[facet][index] += 1 }
        }
    }

    private mutating func countGenres(_ genres: Int64) {
        // Bits 0-61 are genres; the overflow bit and the sign bit (a hand edit's) are not counted.
        var bits = genres & (MovieFacetsTable.overflowBit - 1)
        while bits != 0 {
            genreBits[bits.trailingZeroBitCount] += 1
            bits &= bits - 1
        }
    }

    private mutating func countRating(_ rating: Double) {
        let bucket = FacetCounter.bucket(rating)
        if (0...10).contains(bucket) { ratingBuckets[bucket] += 1 } else { counts[1][String(bucket), default: 0] += 1 }
    }

    private mutating func countHours(_ hours: Int) {
        if (0..<hourBuckets.count).contains(hours) { hourBuckets[hours] += 1 } else { counts[2]["\(hours)h", default: 0] += 1 }
    }

    private mutating func countDecade(_ decade: Int) {
        // Tested before subtracting: a year a sqlite3 user wrote past the CHECKs may be near Int.min.
        if decade >= 1800, (decade - 1800) / 10 < decadeBuckets.count { decadeBuckets[(decade - 1800) / 10] += 1 } else { counts[3]["\(decade)s", default: 0] += 1 }
    }

    private mutating func countCertification(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Compared byte by byte in place: the generic `elementsEqual` was a tenth of a tally.
        for index in certifications.indices {
            let same = certifications[index].bytes.withUnsafeBufferPointer { known in
                guard known.count == bytes.count else { return false }
                for i in 0..<known.count where known[i] != bytes[i] { return false }
                return true
            }
            if same {
                certifications[index].count += 1
                return
            }
        }
        certifications.append((Array(bytes), 1))
    }

    /// Counts `count` movies of a certification.
    mutating func add<Bytes: Collection<UInt8>>(certification bytes: Bytes, count: Int) {
        if let index = certifications.firstIndex(where: { $0.bytes.count == bytes.count && $0.bytes.elementsEqual(bytes) }) {
            certifications[index].count += count
        } else {
            certifications.append((Array(bytes), count))
        }
    }

    /// Adds the counts of a tally of other rows under the same set (a part of a parallel scan).
    mutating func merge(_ other: FacetTally) {
        matching += other.matching
        for (facet, counts) in other.counts.enumerated() {
            for (token, count) in counts { self.counts[facet][token, default: 0] += count }
        }
        for (facet, counts) in other.elementCounts.enumerated() {
            for (index, count) in counts.enumerated() { elementCounts[facet][index] += count }
        }
        for (i, count) in other.ratingBuckets.enumerated() { ratingBuckets[i] += count }
        for (i, count) in other.hourBuckets.enumerated() { hourBuckets[i] += count }
        for (i, count) in other.decadeBuckets.enumerated() { decadeBuckets[i] += count }
        for (i, count) in other.genreBits.enumerated() { genreBits[i] += count }
        for (bytes, count) in other.certifications { add(certification: bytes, count: count) }
    }

    /// The counts of each listed facet by bucket token, and of each selected element.
    func result() -> (counts: [Facet: [String: Int]], elements: [MovieFilter: Int]) {
        var counts = self.counts
        for (bit, count) in genreBits.enumerated() where count > 0 {
            if let code = codeOfBit[bit] { counts[0][code, default: 0] += count }
        }
        for (bucket, count) in ratingBuckets.enumerated() where count > 0 { counts[1][String(bucket), default: 0] += count }
        for (hours, count) in hourBuckets.enumerated() where count > 0 { counts[2]["\(hours)h", default: 0] += count }
        for (slot, count) in decadeBuckets.enumerated() where count > 0 { counts[3]["\(1800 + slot * 10)s", default: 0] += count }
        // Only values a token selects: a String key would take a decomposed `É` for the composed one.
        for (bytes, count) in certifications {
            let text = String(decoding: bytes, as: UTF8.self)
            if FacetCounter.selectable(text, .certification) { counts[4][text, default: 0] += count }
        }
        var byFacet: [Facet: [String: Int]] = [:]
        var elements: [MovieFilter: Int] = [:]
        for (index, facet) in FacetTally.facets.enumerated() {
            byFacet[facet] = counts[index]
            for (position, entry) in selected[index].enumerated() { elements[entry.element] = elementCounts[index][position] }
        }
        return (byFacet, elements)
    }
}

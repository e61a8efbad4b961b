import MovieDomain
import SQLiteStore

/// What each way of running a set costs, in rows touched: the planner's cost model, from its
/// sample and the counts the catalog knows, and the choice of the cheapest.
extension QueryPlanner {
    /// The cost of a row reached through an index, relative to a row of a sequential scan and a
    /// row put through the sorter (rough figures measured at 1M movies).
    static let probeCost = 1.0, scanCost = 0.15, sortCost = 0.5
    /// The cost of a row walked in title order: the natural key lists ids in no order, so each
    /// probe reads a page of its own (1.6 µs a row at 1M, 2.2 µs at 10M, against 0.6–0.7 µs along
    /// the rating index, whose ties list ids in order, and 0.06 µs a row of movie_facets scanned).
    /// (SortTies' `titleWalkCost`, 4, is the same row against a tie's row read in id order.)
    static let titleOrderCost = 2.0
    /// The cost of a movie counted from movie_facet_totals' packed rows, a block of them a row,
    /// one part per core (`filter rating:5.. --count` at 10M: 0.14 s on two cores; a year
    /// range's index, 1.1M entries probed, 1.26 s; `duration:..114m`'s 6.8M entries 0.27 s).
    static let packedRowCost = 0.025
    /// The cost of an index entry read in order, with no row looked up (a count of
    /// `year:1965..1985` at 10M: 1.1M entries in 0.04 s).
    static let indexEntryCost = 0.05
    /// The cost of an entry of several ranges of one index, their rowids united (0.19 µs).
    static let unitedEntryCost = 0.3
    /// The cost of a movie id read from the title index's phrase lists (about half a scanned row).
    static let postingCost = 0.075

    /// The share of movies the rest of a set may pass, beyond its title test's share, for a scan to
    /// read movie_facets first (`scansFacetsFirst`).
    static let facetsFirstShare = 0.15
    /// The same for titles of no letter (`77`, `2001`): `LIKE` tests them for less, and movies
    /// first pays (at 10M, `title:77` with horror, a tenth of the movies: 1.01 s movies first,
    /// 1.13 s movie_facets first; with war, 0.022: 0.99 s against 0.87 s).
    static let caselessFacetsFirstShare = 0.03

    /// Past this many title elements, the sample tests titles through the title index.
    static let titlesTestedByIndex = 32

    /// The sample, and the cost of each driver that finds every match (rows touched), for a page
    /// of movies or (`counting`) their number.
    /// Also the most movies the set is taken to match: a rare facet's exact count, or when the
    /// sample saw none, its facets' shares multiplied.
    func estimate(keyColumn: String?, counting: Bool) throws -> (QuerySample, [(driver: QueryPlan.Driver, rows: Double)], Double) {
        if filters.elements.contains(where: { $0.facet == .imdb }) {
            return (QuerySample(), [(.imdbID, 1)], .infinity)
        }
        // Many titles are tested through the title index for the sample: one lookup of them all,
        // then a probe a row, where each title's own test a row took seconds (3,000 titles).
        // (Looked up once, for every test of the sample to read: a lookup of 3,000 titles takes
        // a quarter of a second at 165,000 movies.)
        var sampleCondition = condition, titleTest: SQLFragment?, titled: SQLFragment?
        if titleIsExact, let titleQuery, filters.elements(of: .title).count > Self.titlesTestedByIndex {
            titled = SQLFragment("WITH titled(id) AS MATERIALIZED (SELECT rowid FROM \(MovieTitlesTable.name) WHERE ")
                + MovieTitlesTable.match(titleQuery, alias: MovieTitlesTable.name) + SQLFragment(") ")
            let test = SQLFragment("f.id IN titled")
            sampleCondition = SQLBuilder.condition(for: filters.removing(.title), on: columns) + SQLFragment(" AND ") + test
            titleTest = test
        }
        // Every selected facet alone: a driver's cost, and a facet's share of the movies.
        let selected = Facet.allCases.filter { !filters.elements(of: $0).isEmpty }
        let sample = try QuerySample(db, with: titled, condition: sampleCondition, facets: selected.map {
            ($0, $0 == .title ? titleTest ?? SQLBuilder.condition(facet: .title, elements: filters.elements(of: .title), on: columns)
                : SQLBuilder.condition(facet: $0, elements: filters.elements(of: $0), on: columns))
        }, keyColumn: keyColumn, joiningMovies: readsMovies)
        var costs: [(driver: QueryPlan.Driver, rows: Double)] = [(.scan, sample.movies * Self.scanCost)]
        let rare = try rareFacetCounts(sample)
        for (facet, _) in drivable {
            // A genre or title costs twice: its ids are listed (from movie_genres, or the trigrams'
            // lists), then each row is looked up. Exact title phrases list only matches, and a
            // count of titles alone looks nothing up.
            let perRow: Double
            switch facet {
            case .genre: perRow = 2 * Self.probeCost
            case .title where titleIsExact:
                perRow = Self.postingCost + (counting && filters.removing(.title).isEmpty ? 0 : Self.probeCost)
            case .title: perRow = 2 * Self.probeCost
            // A count of one facet's ranges alone reads their index entries, no row; several are
            // OR-ed, their rowids united (`year:2007.. year:2022..` at 10M: 4.4M entries, 0.84 s).
            default:
                let alone = counting && filters.elements.allSatisfy { $0.facet == facet }
                perRow = !alone ? Self.probeCost : filters.elements.count == 1 ? Self.indexEntryCost : Self.unitedEntryCost
            }
            costs.append((.facet(facet), (rare[facet] ?? sample.estimate(sample.facetMatches[facet] ?? 0)) * perRow))
        }
        var most = rare.values.min() ?? .infinity
        if sample.matches == 0 {
            // The sample saw no match: half a match is only its ceiling. The facets taken as
            // independent give a second, far lower for a combination of several (at 10M,
            // `rating:7.8..9.2 genre:western certification:NC-17`: 4,635 sampled, 1,315 so, 1,355 in fact).
            // Facets that go together are guessed too rare so: the guess goes no lower than an
            // eighth of a sampled match (a walk wrongly given up for an index cost 5 times as long).
            most = min(most, max(independentMatches(sample, rare: rare, facets: selected), sample.estimate(0) / 4))
        }
        return (sample, costs, most)
    }

    /// The rows the sort-order walk touches to fill `wanted` rows, or nil when an index it needs
    /// is missing; the set is taken to match at most `mostMatches` movies (`estimate`'s guess).
    func walkCost(_ key: SortKey, wanted: Double, sample: QuerySample, mostMatches: Double) -> Double? {
        guard indexes.contains(Self.titleIndex) else { return nil }
        let rows = sample.movies
        let share = min(sample.share(sample.matches), mostMatches / max(rows, 1))
        // The natural key holds the titles: a title element is tested there, and only the rows
        // that pass it are probed.
        let titleTested = filters.elements(of: .title).isEmpty ? 1 : sample.share(sample.facetMatches[.title] ?? sample.rows)
        let inTitleOrderCost = Self.scanCost + titleTested * Self.titleOrderCost
        guard let field = key.field else { return min(rows, wanted / share) * inTitleOrderCost }
        guard indexes.contains(Self.sortIndex(of: field)) else { return nil }
        let keyed = sample.estimate(sample.keyed), keyedMatches = min(sample.estimate(sample.keyedMatches), mostMatches)
        var walked: Double, inTitleOrder = 0.0
        if keyedMatches >= wanted {
            walked = wanted * keyed / max(keyedMatches, 1)
            if let facet = Facet(sortKey: key), filters.elements(of: facet).count == 1 {
                // The walk starts at the selected range's end: only the range's rows are walked.
                walked = min(walked, wanted * sample.estimate(sample.facetMatches[facet] ?? sample.keyed) / max(keyedMatches, 1))
            }
        } else {
            walked = keyed
            if Facet(sortKey: key).map({ filters.elements(of: $0).isEmpty }) ?? true {
                // Then movies without the key, in title order.
                let unkeyedShare = max(sample.share(sample.matches - sample.keyedMatches), 1 / max(rows, 1))
                inTitleOrder = min(rows, (wanted - keyedMatches) / unkeyedShare)
            }
        }
        // The last value's ties are all read (and sorted by title) to finish the page.
        return (walked + sample.keyTies) * Self.probeCost + inTitleOrder * inTitleOrderCost + wanted * Self.probeCost
    }

    /// The cheapest of `costs`' drivers, each weighed by the set's title tests.
    func choose(_ costs: [(driver: QueryPlan.Driver, rows: Double)]) -> QueryPlan.Driver {
        // A row read tests the set's titles one by one (a LIKE each), unless the title index finds
        // exactly them: with many titles, that is the cost (3,000 titles walked 433 rows in 2.9 s).
        let titles = Double(filters.elements(of: .title).count)
        func weight(_ cost: (driver: QueryPlan.Driver, rows: Double)) -> Double {
            titles > 1 && !(cost.driver == .facet(.title) && titleIsExact) ? cost.rows * (1 + (titles - 1) / 16) : cost.rows
        }
        return costs.min { weight($0) < weight($1) }?.driver ?? .scan
    }

    /// Whether a scan that tests a title reads movie_facets first and looks up only the movies
    /// that pass the rest of the set, instead of testing every title first: when the rest passes
    /// fewer movies than the title test's share plus `facetsFirstShare` (`caselessFacetsFirstShare`
    /// when no title has a letter; both orders measured at 1M and 10M, Benchmarks/README.md). At
    /// 10M, `genre:drama certification:NC-17 certification:PG title:the`: 3.0 -> 1.7 s.
    func scansFacetsFirst(_ sample: QuerySample) -> Bool {
        let titles = filters.elements(of: .title)
        guard readsFacets, !titles.isEmpty, sample.rows > 0 else { return false }
        let rest = Facet.allCases.filter { $0 != .title && !filters.elements(of: $0).isEmpty }
        let restShare = rest.reduce(1.0) { $0 * min(1, sample.share(sample.facetMatches[$1] ?? sample.rows)) }
        // A letter: an ASCII one (either case), or any text beyond ASCII (tested in Swift).
        let lowerLetters = UInt8(ascii: "a")...UInt8(ascii: "z")
        let lettered = titles.contains { $0.value.utf8.contains { $0 >= 0x80 || lowerLetters.contains($0 | 0x20) } }
        let share = lettered ? Self.facetsFirstShare : Self.caselessFacetsFirstShare
        return restShare < share + sample.share(sample.facetMatches[.title] ?? sample.rows)
    }

    /// The movies the set would match if its selected `facets` were independent: each one's
    /// share (its exact count when rare, else as sampled) multiplied.
    func independentMatches(_ sample: QuerySample, rare: [Facet: Double], facets: [Facet]) -> Double {
        facets.reduce(sample.movies) { product, facet in
            let share = rare[facet].map { $0 / max(sample.movies, 1) } ?? sample.share(sample.facetMatches[facet] ?? sample.rows)
            return product * min(1, share)
        }
    }
}

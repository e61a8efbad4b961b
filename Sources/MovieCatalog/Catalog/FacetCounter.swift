import MovieDomain
import SQLiteStore
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
    /// The id span from which the tally is split over cores (tests lower it).
    var parallelSpan = ParallelScan.minimumSpan
    /// How many parts the tally is split into (the cores, at most 4; tests set it).
    var parallelParts = ParallelScan.defaultParts
    /// Runs once the genres' bits are read (tests commit a write there).
    var genresRead: () -> Void = {}

    /// Creates a counter over `catalog`.
    public init(catalog: Catalog) { self.catalog = catalog }

    /// The columns of a facet row over movie_facets `f`, in the order `FacetTally.add(row:from:)` reads them.
    static let rowColumns = "f.genres, f.rating, f.minutes, f.year, f.certification"

    /// Tallies the facet rows `query` selects (`rowColumns` first).
    static func tally(into tally: inout FacetTally, _ db: Database, _ query: SQLFragment) throws {
        try db.forEachRow(query.sql, query.bindings) { tally.add(row: $0, from: 0) }
    }

    /// Counts for every listed facet under `set`; first stores the blocks of movie_facet_totals
    /// a sqlite3 user's writes left without a row, when the write lock is free (`storeMissing`).
    public func counts(for set: FilterSet) throws -> [FacetCounts] {
        FacetTotals.storeMissing(catalog.db)
        if let tallied = try talliedCounts(for: set) { return tallied }
        return try sqlCounts(for: set)
    }

    /// Counts from one scan of movie_facets (see `FacetTally`); nil when a genre of the catalog
    /// has no bit of its own there (`MovieFacetsTable.genreIDsWithBits`), when SQL over the plain
    /// tables counts.
    func talliedCounts(for set: FilterSet) throws -> [FacetCounts]? {
        guard let tally = try tally(for: set) else { return nil }
        let (counts, elements) = tally.result()
        return FacetCounter.listed.map { facet in
            var values = (counts[facet] ?? [:]).filter { $0.value > 0 && FacetCounter.selectable($0.key, facet) }.map { FacetValue(value: $0.key, count: $0.value, selected: false) }
            // Selected elements are always listed, with what they match alongside the rest of the set.
            for element in set.elements(of: facet) {
                values.removeAll { $0.value == element.value }
                values.append(FacetValue(value: element.value, count: elements[element] ?? 0, selected: true))
            }
            return FacetCounts(facet: facet, values: FacetCounter.ordered(values, facet))
        }
    }

    /// The facets a facet row lacks (their elements are tested in movies, by SQL).
    static let testedInMovies: Set<Facet> = [.title, .votes, .imdb]

    /// How many movies match `set`, tallied from movie_facet_totals' packed rows (nothing
    /// selected: their row counts alone); nil when they cannot answer it (see
    /// `canCountFromPackedRows`).
    func countFromPackedRows(_ set: FilterSet) throws -> Int? {
        if set.isEmpty { return try FacetTotals.rowCount(catalog.db) }
        return try tally(for: set, packedOnly: true)?.matching
    }

    /// Whether the packed rows can count `set`: nothing of `testedInMovies` selected, and the
    /// table there (for the plan `--explain` shows).
    func canCountFromPackedRows(_ set: FilterSet) throws -> Bool {
        guard !set.elements.contains(where: { FacetCounter.testedInMovies.contains($0.facet) }) else { return false }
        return try catalog.db.hasSchemaObject(FacetTotals.name)
    }

    /// The tally of `set` over every facet row: from the stored blocks where they serve, else from
    /// the rows, split over the cores on a large catalog; nil as for `talliedCounts`, and with
    /// `packedOnly` also when the packed rows cannot be read.
    func tally(for set: FilterSet, packedOnly: Bool = false) throws -> FacetTally? {
        // The genres' bits and the rows come from one snapshot: a genre and its movies committed
        // between the two would be counted under no genre. A tally split over the cores takes
        // the write lock it needs (ParallelScan) before reading the genres; any other, a read
        // transaction. (The catalog's id span and stored blocks are read first, outside: they
        // only decide which. Nothing selected is counted from the stored blocks, unsplit: no lock
        // keeps a writer waiting for it.)
        let db = catalog.db
        var scan = ParallelScan(db: db, parts: parallelParts, minimumSpan: parallelSpan, alignment: 1 << FacetTotals.shift)
        let fromStoredBlocks = try set.isEmpty && db.hasSchemaObject(FacetTotals.name)
        if try !fromStoredBlocks && scan.mayRun(), (try? db.withBusyTimeout(0, { try db.execute("BEGIN IMMEDIATE") })) != nil {
            defer { try? db.execute("ROLLBACK") }
            scan.locked = true
            return try tally(for: set, packedOnly: packedOnly, splitBy: scan)
        }
        return try db.reading { try tally(for: set, packedOnly: packedOnly, splitBy: nil) }
    }

    /// `tally(for:packedOnly:)` on the snapshot it opened; split by `scan` (nil: not split), which
    /// holds the write lock a split needs.
    private func tally(for set: FilterSet, packedOnly: Bool, splitBy scan: ParallelScan?) throws -> FacetTally? {
        let db = catalog.db
        guard try !MovieFacetsTable.hasGenresWithoutBits(db) else { return nil }
        let genres = try catalog.genres()
        genresRead()
        let bitOfGenre = Dictionary(uniqueKeysWithValues: genres.genres.map { ($0.code, MovieFacetsTable.bit(ofGenre: $0.id)) })
        guard var tally = FacetTally(set: set, bitOfGenre: bitOfGenre) else { return nil }
        // A count (the only caller of the packed rows alone) wants the matches, not the buckets.
        tally.matchesOnly = packedOnly
        // What is not a listed facet applies to every count: the SQL selects those rows.
        var conditions: [SQLFragment] = []
        let excluded = set.elements(of: .excludeGenre).compactMap { bitOfGenre[$0.value] }
        let excludedBits = excluded.reduce(0, |)
        if !excluded.isEmpty {
            guard !excluded.contains(MovieFacetsTable.overflowBit) else { return nil }
            conditions.append(SQLFragment("(f.genres & ?) = 0", [.integer(excludedBits)]))
        }
        let others = FilterSet(set.elements.filter { FacetCounter.testedInMovies.contains($0.facet) })
        // A large catalog is tallied in parts at once, on one snapshot (ParallelScan), else in one
        // scan. Each statement is made on the connection that runs it: its title test asks that
        // snapshot which titles LIKE does not fold.
        let rowConditions = conditions
        let start = tally
        // The stored blocks (movie_facet_totals): with nothing selected their counts, else their
        // packed rows, when the set has nothing the packed rows lack (`testedInMovies`).
        let stored = try db.hasSchemaObject(FacetTotals.name)
        let packed: FacetTotals.Form? = stored && others.isEmpty ? .rows(excluding: excludedBits) : nil
        if packedOnly, packed == nil || set.isEmpty { return nil }   // as canCountFromPackedRows says
        // A part that fails (say, no connection to spare) leaves the work to the single scan.
        if set.isEmpty, stored, let totals = try FacetTotals.tally(start, db, .totals) {
            tally = totals
        } else if let scan, let parts = (try? scan.run({ connection, ids in
            if let packed, let tally = try FacetTotals.tally(start, connection, packed, within: ids, minimumCoverage: 0) { return tally }
            var tally = start
            let rows = try FacetCounter.rows(testing: others, rowConditions, connection)
            try FacetCounter.tally(into: &tally, connection, rows.query
                + SQLFragment(" AND \(rows.idColumn) BETWEEN ? AND ?", [.integer(ids.lowerBound), .integer(ids.upperBound)]))
            return tally
        })) ?? nil {
            for other in parts { tally.merge(other) }
        } else if let packed, let packedTally = try FacetTotals.tally(start, db, packed, minimumCoverage: 0) {
            tally = packedTally
        } else if packedOnly {
            return nil
        } else {
            try FacetCounter.tally(into: &tally, db, try FacetCounter.rows(testing: others, rowConditions, db).query)
        }
        return tally
    }

    /// The statement that selects the facet rows (`rowColumns`) under `conditions` (over
    /// movie_facets `f`) and the elements of `testedInMovies` in `others`, and the id column that
    /// bounds a part of it. Votes are tested in the facet row (it has them; the packed rows do
    /// not). Title elements alone that the title index finds exactly (phrases) are its matches'
    /// rows, looked up by id; an IMDb id's movies are found through its index; other titles are
    /// tested in movies, read in id order, and the facet row of each match is looked up.
    static func rows(testing others: FilterSet, _ conditions: [SQLFragment], _ db: Database) throws -> (query: SQLFragment, idColumn: String) {
        var conditions = conditions, from = "movie_facets f", idColumn = "f.id"
        let votes = others.elements(of: .votes), inMovies = others.removing(.votes)
        if !votes.isEmpty {
            conditions.append(SQLBuilder.condition(facet: .votes, elements: votes, on: MovieFacetsTable.conditionColumns(genreBits: [:])))
        }
        if !inMovies.isEmpty, inMovies.elements.allSatisfy({ $0.facet == .title }),
           let phrases = try MovieTitlesTable.exactQuery(db, inMovies.elements(of: .title).map(\.value)) {
            from = "movie_titles t CROSS JOIN movie_facets f ON f.id = t.rowid"
            idColumn = "t.rowid"   // a bound FTS5 reads as a rowid range
            conditions.insert(MovieTitlesTable.match(phrases, alias: "t"), at: 0)
        } else if !inMovies.elements(of: .imdb).isEmpty {
            conditions.append(SQLFragment("f.id IN (SELECT m.id FROM movies m WHERE ") + SQLBuilder.condition(for: inMovies, on: try movieColumns(db, for: inMovies))
                + SQLFragment(")"))
        } else if !inMovies.isEmpty {
            // Not `f.id IN (SELECT ...)`: each part of a split tally made that whole list itself,
            // testing every title (`title:ab` at 10M: 3.3 s, four times its count).
            from = "movies m NOT INDEXED CROSS JOIN movie_facets f ON f.id = m.id"
            idColumn = "m.id"
            conditions.insert(SQLBuilder.condition(for: inMovies, on: try movieColumns(db, for: inMovies)), at: 0)
        }
        let query = SQLFragment("SELECT \(rowColumns) FROM \(from) WHERE ")
            + (conditions.isEmpty ? SQLFragment("1") : SQLFragment.join(conditions, separator: " AND "))
        return (query, idColumn)
    }

    /// The columns of `movies m` for `set`'s condition, its title test as the catalog allows.
    static func movieColumns(_ db: Database, for set: FilterSet) throws -> ConditionColumns {
        try MovieTitlesTable.testing(set, on: .movies, db)
    }

    /// Counts by SQL over the plain tables: a GROUP BY for genres, scans of movies for the rest.
    func sqlCounts(for set: FilterSet) throws -> [FacetCounts] {
        // Column facets counted under one condition share one scan of the matching movies: the
        // unselected ones all count under the whole set, a selected one under the set without
        // its own elements. (A GROUP BY per facet would sort the matching movies each time.)
        var columnCounts: [Facet: [String: Int]] = [:]
        let unselected = FacetCounter.columnFacets.filter { set.elements(of: $0).isEmpty }
        if !unselected.isEmpty { columnCounts = try scanCounts(of: unselected, for: set) }
        for facet in FacetCounter.columnFacets where !unselected.contains(facet) {
            columnCounts.merge(try scanCounts(of: [facet], for: set.removing(facet))) { $1 }
        }
        return try FacetCounter.listed.map { facet in
            try assemble(facet, columnCounts[facet] ?? genreCounts(for: set.removing(.genre)), for: set)
        }
    }

    /// The facets held in `movies` columns, which `scanCounts` counts.
    static let columnFacets: [Facet] = [.rating, .duration, .year, .certification]

    /// Genre counts under `rest` (the set without its genre elements), grouped in SQL.
    func genreCounts(for rest: FilterSet) throws -> [String: Int] {
        // Under a condition, movies are the outer loop, in table order (CROSS JOIN fixes the
        // order, NOT INDEXED keeps SQLite from walking the natural-key index, which would visit
        // the links in random order). Left alone, SQLite walks every link by genre and looks
        // each movie up. On a million movies: `rating:7` 0.57 s -> 0.18 s, `title:love` 0.52 s
        // -> 0.07 s, `exclude-genre:drama` 0.92 s -> 0.61 s; 0.5 s -> 0.68 s when all match.
        // Always through movies: links a sqlite3 user left behind a deleted movie count for nothing.
        let grouped = SQLFragment("SELECT g.code, count(*) FROM movies m NOT INDEXED CROSS JOIN movie_genres mg ON mg.movie_id = m.id JOIN genres g ON g.id = mg.genre_id WHERE ")
                + SQLBuilder.condition(for: rest, on: try FacetCounter.movieColumns(catalog.db, for: rest)) + SQLFragment(" GROUP BY g.code")
        var counts: [String: Int] = [:]
        for (code, count) in try catalog.db.query(grouped.sql, grouped.bindings, { (try $0.text(0), Int(try $0.int64(1))) }) {
            counts[code, default: 0] += count
        }
        return counts
    }

    /// Counts of column facets under `condition`, from one scan of the matching movies, in
    /// buckets as the filter tokens read them: whole rating `7`, hours `2h` (`0h` under an
    /// hour), decade `1990s`, certification. Movies without a value count under none.
    func scanCounts(of facets: [Facet], for condition: FilterSet) throws -> [Facet: [String: Int]] {
        var ratings = [Int: Int](), hours = [Int: Int](), decades = [Int: Int](), certifications = [ExactText: Int]()
        let query = SQLFragment("SELECT m.rating, m.duration_minutes, m.year, m.certification FROM movies m WHERE ")
            + SQLBuilder.condition(for: condition, on: try FacetCounter.movieColumns(catalog.db, for: condition))
        try catalog.db.forEachRow(query.sql, query.bindings) { row in
            // Int() and `/` truncate as the buckets do; ratings are clamped as SQL's CAST does, as
            // a file whose CHECKs someone bypassed may hold any number.
            if let rating = row.optionalDouble(0) { ratings[FacetCounter.bucket(rating), default: 0] += 1 }
            if let minutes = row.optionalInt(1) { hours[minutes / 60, default: 0] += 1 }
            if let year = row.optionalInt(2) { decades[year / 10 * 10, default: 0] += 1 }
            if let certification = row.optionalText(3) { certifications[ExactText(text: certification), default: 0] += 1 }
        }
        var counts: [Facet: [String: Int]] = [:]
        for facet in facets {
            switch facet {
            case .rating: counts[facet] = Dictionary(uniqueKeysWithValues: ratings.map { (String($0.key), $0.value) })
            case .duration: counts[facet] = Dictionary(uniqueKeysWithValues: hours.map { ("\($0.key)h", $0.value) })
            case .year: counts[facet] = Dictionary(uniqueKeysWithValues: decades.map { ("\($0.key)s", $0.value) })
            case .certification:
                // Values a token selects are composed, so no two of them are one String key.
                counts[facet] = Dictionary(uniqueKeysWithValues: certifications.compactMap { FacetCounter.selectable($0.key.text, .certification) ? ($0.key.text, $0.value) : nil })
            case .genre, .excludeGenre, .title, .votes, .imdb: preconditionFailure("\(facet) is not a listed column facet")
            }
        }
        return counts
    }

    /// A rating's whole-number bucket, as `CAST(rating AS INTEGER)`: truncated, clamped to Int64.
    static func bucket(_ rating: Double) -> Int {
        if rating.isNaN { return 0 }
        if rating >= 9.223372036854775807e18 { return Int.max }
        if rating <= -9.223372036854775808e18 { return Int.min }
        return Int(rating)
    }

    /// Text compared and hashed by its bytes: a String takes canonically equivalent texts (a
    /// composed `É` and a decomposed one) for one.
    struct ExactText: Hashable {
        let text: String
        static func == (a: ExactText, b: ExactText) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) { for byte in text.utf8 { hasher.combine(byte) } }
    }

    /// Whether a counted value is one a filter token can select: a certification a sqlite3 user
    /// stored empty, with white space at its ends or decomposed (the CHECKs allow them), or one
    /// holding a comma, is not, as `facets` lists only tokens.
    static func selectable(_ value: String, _ facet: Facet) -> Bool {
        guard facet == .certification else { return !value.isEmpty }
        // Compared as bytes: Swift's `==` takes a decomposed `É` for the composed one. A comma
        // would split the token (`certification:R,X` is R or X).
        return !value.isEmpty && !value.utf8.contains(0x2C) && value.utf8.elementsEqual(MovieRules.uppercased(value.trimmingWhitespace().precomposed).utf8)
    }

    /// A facet's values from its counts; selected elements are always listed.
    func assemble(_ facet: Facet, _ counts: [String: Int], for set: FilterSet) throws -> FacetCounts {
        let rest = set.removing(facet)
        var values = counts.filter { $0.value > 0 && FacetCounter.selectable($0.key, facet) }.map { FacetValue(value: $0.key, count: $0.value, selected: false) }
        // Selected elements are always listed, with what they match alongside the rest of the set.
        for element in set.elements(of: facet) {
            values.removeAll { $0.value == element.value }
            // Counted as the filter counts: a bucket's count truncates toward zero, so values
            // below zero past the CHECKs (minutes of -3) would land in `0h`, which does not select them.
            let plain = MovieQuery(filters: rest.union(element)).countSQL   // plain SQL over movies: the reference
            values.append(FacetValue(value: element.value, count: try catalog.db.intScalar(plain.sql, plain.bindings), selected: true))
        }
        return FacetCounts(facet: facet, values: FacetCounter.ordered(values, facet))
    }

    /// Genres and certifications by count (then name); numeric buckets by value.
    static func ordered(_ values: [FacetValue], _ facet: Facet) -> [FacetValue] {
        switch facet {
        case .genre, .certification:
            return values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
        default:
            // By where each value starts, then ends (a selected `..2` first, `7.5..` after `7`).
            let keyed = values.map { value in
                ((try? FilterParser.standalone.parseOne(facet, value.value, source: ""))?.bounds ?? (0, 0), value)
            }
            return keyed.sorted { a, b in a.0 != b.0 ? a.0 < b.0 : a.1.value < b.1.value }.map(\.1)
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

extension Statement {
    /// Passes on the values of the facet row in this row's columns from `first` on (`FacetCounter.rowColumns`):
    /// genre bits, rating, minutes, year and certification.
    func withFacetRow<R>(from first: Int32, _ body: (Int64, Double?, Int?, Int?, UnsafeBufferPointer<UInt8>?) -> R) -> R {
        withText(first + 4) { certification in
            body(optionalInt(first).map(Int64.init) ?? 0, optionalDouble(first + 1), optionalInt(first + 2), optionalInt(first + 3), certification)
        }
    }
}

extension FacetTally {
    /// Counts the facet row in `row`'s columns from `first` on (`FacetCounter.rowColumns`).
    mutating func add(row: Statement, from first: Int32) {
        row.withFacetRow(from: first) { add(genres: $0, rating: $1, minutes: $2, year: $3, certification: $4) }
    }
}

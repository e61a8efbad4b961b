import MovieDomain
import SQLiteStore
/// Merges the rows a bulk load set aside (those whose key `RepeatSieve` may have seen before)
/// into the catalog, so that it ends as if every row had been stored one by one: per key, the
/// first id (a stored movie's, if any) keeps the last row's values for the columns the input
/// has, and its genres when the input has genres.
///
/// Set-aside rows keep the ids the append numbered them with, in input order, so a key's first
/// and last rows are its smallest and largest ids. Each key's movie is found from the sorted key
/// hashes of every row and stored movie (`RepeatGroups`), so the unique indexes of movies are
/// built once, after the merge; should two keys share a hash, they are built first and the
/// movies found through them.
enum RepeatMerger {
    /// What rows are matched on while appending (see `BulkAppender`).
    enum Key {
        /// Title ignoring case, and year: rows and stored movies without IMDb ids.
        case titleYear
        /// The IMDb id: rows and stored movies that all have one.
        case imdbID

        /// The unique index that finds a movie by this key.
        var index: String { self == .titleYear ? "movies_natural_key" : "movies_imdb_id" }
        /// The other unique index of `movies`.
        var otherIndex: String { self == .titleYear ? "movies_imdb_id" : "movies_natural_key" }

        /// How set-aside rows are grouped by key.
        fileprivate var group: String { self == .titleYear ? "title COLLATE NOCASE, ifnull(year, 0)" : "imdb_id" }

        /// The condition that finds, through `index`, the movie `m` with the key of `row`.
        func match(_ row: String) -> String {
            switch self {
            case .titleYear:
                return "m.title = \(row).title COLLATE NOCASE AND ifnull(m.year, 0) = ifnull(\(row).year, 0) AND ifnull(m.imdb_id, '') = ''"
            case .imdbID:
                return "m.imdb_id = \(row).imdb_id"
            }
        }
    }

    /// The scratch tables (temp schema: nothing of them lands) that hold set-aside rows (with
    /// their genres' bit set, as a facet row has it) and their genre links.
    static let tablesSQL = """
        DROP TABLE IF EXISTS temp.import_later;
        DROP TABLE IF EXISTS temp.import_later_genres;
        CREATE TEMP TABLE import_later \(MovieColumns.tableSQL);
        CREATE TEMP TABLE import_later_genres (movie_id INTEGER, genre_id INTEGER, PRIMARY KEY (movie_id, genre_id)) WITHOUT ROWID;
        DROP TABLE IF EXISTS temp.import_retitled;
        CREATE TEMP TABLE import_retitled (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
        """
    /// Drops the scratch tables.
    static let dropTablesSQL = "DROP TABLE IF EXISTS temp.import_later; DROP TABLE IF EXISTS temp.import_later_genres; DROP TABLE IF EXISTS temp.import_retitled;"
    /// The scratch tables of rows (with `movies`' columns and `MovieColumns.genreBits`) and of
    /// their genre links.
    static let rowTable = "temp.import_later", linkTable = "temp.import_later_genres"
    /// With `recordRetitled`, the movies this load appended that the merge gave a title the title
    /// index holds otherwise, with the titles they had (under the IMDb-id key a repeat may bring
    /// any title; under title and year only another ASCII case, which the index does not see).
    static let retitledTable = "temp.import_retitled"

    /// What a group's key was before its set-aside rows: `kind` in `import_groups`.
    enum Kind: Int64 {
        /// No movie: the group's first row is a new movie.
        case new = 0
        /// A movie this load appended (the key's first row).
        case appended = 1
        /// A stored movie.
        case stored = 2
    }

    /// Merges every set-aside row; movies with ids above `maxIDBefore` are this load's. `keys`
    /// holds every key's hash (nil: group in SQL); `indexKeys` builds the unique indexes of
    /// movies, for finding movies by key in SQL.
    ///
    /// Its writes say OR FAIL: a failure rolls the whole import back either way, and unlike the
    /// default ABORT, FAIL needs no statement journal, a copy of every page a statement changes
    /// (117 MB for 50k repeats among 1M rows). The caller has SQLite's CHECKs off for the same
    /// reason: the rows were checked in Swift when they were set aside.
    static func merge(_ db: Database, key: Key, keys: KeyRuns?, indexKeys: () throws -> Void,
                      maxIDBefore: Int64, maxGenreIDBefore: Int64, keptGenres: Set<Int64> = [], policy: DuplicatePolicy,
                      fields: MovieFields, now: SQLValue, touched: inout TouchedIDs, timings: PhaseTimings,
                      recordRetitled: Bool = false) throws -> FoldCounts {
        // Only fixed SQL from `Key`, `MovieField` and `Kind` is interpolated.
        try db.execute("""
            DROP TABLE IF EXISTS temp.import_groups;
            CREATE TEMP TABLE import_groups (keep INTEGER PRIMARY KEY, last INTEGER NOT NULL, n INTEGER NOT NULL, kind INTEGER NOT NULL);
            DROP TABLE IF EXISTS temp.import_relinked;
            CREATE TEMP TABLE import_relinked (id INTEGER PRIMARY KEY);
            """)
        defer { try? db.execute("DROP TABLE temp.import_groups; DROP TABLE temp.import_relinked") }
        // The merge's sorts use one helper thread: with four, their memory lifted the import's
        // peak RSS by a quarter.
        let threads = try db.intScalar("PRAGMA threads")
        try db.execute("PRAGMA threads = 1")
        defer { try? db.execute("PRAGMA threads = \(threads)") }
        // A load into a stored catalog that appended few rows kept its indexes.
        var keyIndexed = try db.hasSchemaObject(key.index, type: "index")
        func indexKeysOnce() throws {
            if !keyIndexed { try indexKeys() }
            keyIndexed = true
        }
        if try group(db, keys: keys, key: key, maxIDBefore: maxIDBefore) {
            timings.mark("merge: group repeats")
        } else {
            try indexKeysOnce()
            try groupInSQL(db, key: key, maxIDBefore: maxIDBefore)
            timings.mark("merge: group repeats in SQL")
        }

        var counts = FoldCounts()
        var stored = (groups: 0, rows: 0)
        for (kind, groups, rows) in try db.query("SELECT kind, count(*), sum(n) FROM temp.import_groups GROUP BY kind", [], { row in
            (Kind(rawValue: try row.int64(0)), Int(try row.int64(1)), Int(try row.int64(2)))
        }) {
            switch kind {
            case .new: counts.repeated += rows - groups
            case .appended: counts.repeated += rows
            case .stored: stored = (groups, rows)
            case nil: throw CatalogError(.internalError, "internal error: a merge group of no known kind")
            }
        }
        if policy == .skip {
            // Stored movies stay as they are: their repeats in the input simply go.
            counts.skipped = stored.rows
            if stored.groups > 0 {
                try indexKeysOnce()
                try dropGenresOfSkippedRows(db, key: key, maxIDBefore: maxIDBefore, maxGenreIDBefore: maxGenreIDBefore, kept: keptGenres)
                try db.execute("DELETE FROM temp.import_groups WHERE kind = \(Kind.stored.rawValue)")
            }
        } else {
            // Under fail no movie is stored (the bulk path is not taken then).
            counts.updated = stored.groups
            counts.repeated += stored.rows - stored.groups
            if policy == .update, stored.groups > 0 {
                for id in try db.query("SELECT keep FROM temp.import_groups WHERE kind = \(Kind.stored.rawValue)", [], { try $0.int64(0) }) {
                    _ = touched.insert(id)
                }
            }
        }
        // Under the title-and-year key every change a repeat can make to a title (its ASCII
        // letters' case) leaves it alike in the title index: only the IMDb-id key's can retitle.
        let storedRetitled = try key == .imdbID && MovieTitlesTable.exists(db) && policy != .skip && stored.groups > 0
        var retitled: [Kind] = storedRetitled ? [.stored] : []
        if recordRetitled && key == .imdbID { retitled.append(.appended) }
        try listRetitled(db, retitled)
        try copyLastRows(db, fields: fields, now: now, keyIndexed: keyIndexed)
        if storedRetitled { try reindexStoredTitles(db, maxIDBefore: maxIDBefore) }
        timings.mark("merge: copy values")
        try relinkGenres(db, fields: fields)
        timings.mark("merge: genres")
        try refreshFacetRows(db, fields: fields)
        timings.mark("merge: facet rows")
        return counts
    }

    /// Lists in `retitledTable`, with the titles the index has, the movies of `kinds` whose last
    /// rows bring a title it must hold otherwise: stored ones (the triggers are off) and appended
    /// ones (the builder has their first titles). A title that stays alike in the index is left
    /// alone: a re-imported list touches no title.
    private static func listRetitled(_ db: Database, _ kinds: [Kind]) throws {
        guard !kinds.isEmpty else { return }
        try db.execute("""
            INSERT INTO \(retitledTable) (id, title)
            SELECT m.id, m.title FROM temp.import_groups g CROSS JOIN movies m ON m.id = g.keep
                   CROSS JOIN temp.import_later l ON l.id = g.last
             WHERE g.kind IN (\(kinds.map { String($0.rawValue) }.joined(separator: ", "))) AND m.title IS NOT l.title
               AND NOT \(MovieTitlesTable.indexedAlike("m.title", "l.title"))
            """)
    }

    /// Takes the stored movies listed in `retitledTable` out of the title index by their old
    /// titles and puts them back with their new ones; the appended ones stay listed for the
    /// index built alongside.
    private static func reindexStoredTitles(_ db: Database, maxIDBefore: Int64) throws {
        let isStored = "id <= ?", bound: [SQLValue] = [.integer(maxIDBefore)]
        try MovieTitlesTable.remove(db, indexedAs: retitledTable, where: isStored, bound)
        try MovieTitlesTable.add(db, where: "m.id IN (SELECT id FROM \(retitledTable) WHERE \(isStored))", bound)
        try db.run("DELETE FROM \(retitledTable) WHERE \(isStored)", bound)
    }

    /// Gives each group's movie its last row's values: new movies are inserted with them, the
    /// others get the columns the input has (the title always: its case may change; never the
    /// IMDb id, equal within a group or absent from all of it).
    private static func copyLastRows(_ db: Database, fields: MovieFields, now: SQLValue, keyIndexed: Bool) throws {
        try db.execute("""
            INSERT OR FAIL INTO movies (id, \(MovieColumns.names), added_at, updated_at)
            SELECT g.keep, \(MovieField.stored.map { "l.\($0.column!)" }.joined(separator: ", ")), l.added_at, l.updated_at
              FROM temp.import_groups g CROSS JOIN temp.import_later l ON l.id = g.last
             WHERE g.kind = \(Kind.new.rawValue) ORDER BY g.keep
            """)
        let columns = MovieField.stored.filter { $0 == .title || ($0 != .imdbID && fields.contains($0)) }
        // With the natural-key index built, a column of it is written only where it changes (a
        // title's case, a year under the IMDb-id key): writing it moves the movie's index entry,
        // at random places. Without, every column is written in one pass.
        let isKeyed = { (field: MovieField) in keyIndexed && (field == .title || field == .year) }
        let keyed = columns.filter(isKeyed).map { $0.column! }
        let others = columns.filter { !isKeyed($0) }.map { $0.column! }
        let last = "temp.import_groups g CROSS JOIN temp.import_later l ON l.id = g.last"
        func assign(_ names: [String]) -> String {
            "(\(names.joined(separator: ", "))) = (SELECT \(names.map { "l.\($0)" }.joined(separator: ", ")) FROM \(last) WHERE g.keep = m.id)"
        }
        // Movies in id order, each finding its group by id (UPDATE ... FROM would scan movies).
        try db.run("""
            UPDATE OR FAIL movies AS m SET \(others.isEmpty ? "" : assign(others) + ",") updated_at = ?
             WHERE m.id IN (SELECT keep FROM temp.import_groups WHERE kind <> \(Kind.new.rawValue))
            """, [now])
        guard !keyed.isEmpty else { return }
        try db.execute("""
            UPDATE OR FAIL movies AS m SET \(assign(keyed))
             WHERE m.id IN (SELECT g.keep FROM \(last) CROSS JOIN movies k ON k.id = g.keep
                             WHERE g.kind <> \(Kind.new.rawValue)
                               AND (\(keyed.map { "k.\($0)" }.joined(separator: ", "))) IS NOT (\(keyed.map { "l.\($0)" }.joined(separator: ", "))))
            """)
    }

    /// Gives each group's movie its last row's genres: a new movie its links, a movie whose genres
    /// change (its facet row's bits against the last row's) new ones in place of its old ones.
    /// Links that stay are not rewritten: a re-imported list changes few.
    private static func relinkGenres(_ db: Database, fields: MovieFields) throws {
        if fields.contains(.genres) {
            // Bits alone cannot compare genres without a bit of their own: those count as changed.
            try db.execute("""
                INSERT INTO temp.import_relinked (id)
                SELECT g.keep FROM temp.import_groups g CROSS JOIN temp.import_later l ON l.id = g.last
                       LEFT JOIN movie_facets f ON f.id = g.keep
                 WHERE g.kind <> \(Kind.new.rawValue)
                   AND (f.genres IS NULL OR f.genres & \(MovieFacetsTable.overflowBit) <> 0 OR f.genres IS NOT l.\(MovieColumns.genreBits))
                """)
            try db.execute("DELETE FROM movie_genres WHERE movie_id IN (SELECT id FROM temp.import_relinked)")
        }
        try db.execute("""
            INSERT OR FAIL INTO movie_genres (movie_id, genre_id)
            SELECT g.keep, lg.genre_id FROM temp.import_groups g CROSS JOIN \(linkTable) lg ON lg.movie_id = g.last
             WHERE g.kind = \(Kind.new.rawValue) OR g.keep IN (SELECT id FROM temp.import_relinked)
             ORDER BY 1, 2
            """)
    }

    /// Writes the facet rows of the groups' movies whose values or genres changed (the triggers
    /// are off), from their last rows: the fields the input has, and genres when it has them; the
    /// movie's own facet row gives the others (a movie without one, which a check at open puts
    /// right before any command, is read from movies).
    private static func refreshFacetRows(_ db: Database, fields: MovieFields) throws {
        let missing = "f.id IS NULL AND g.kind <> \(Kind.new.rawValue)"
        let genres = fields.contains(.genres) ? "l.\(MovieColumns.genreBits)"
            : "CASE WHEN \(missing) THEN \(MovieFacetsTable.maskSQL(of: "g.keep")) ELSE ifnull(f.genres, l.\(MovieColumns.genreBits)) END"
        let values = MovieFacetsTable.fields.map { entry in
            fields.contains(entry.field) ? "l.\(entry.field.column!)"
                : "CASE WHEN \(missing) THEN (SELECT \(entry.field.column!) FROM movies WHERE id = g.keep) ELSE f.\(entry.column) END"
        }
        let columns = ["genres"] + MovieFacetsTable.fields.map(\.column)
        let now = ([genres] + values).joined(separator: ", ")
        try db.execute("""
            INSERT OR REPLACE INTO movie_facets (id, \(columns.joined(separator: ", ")))
            SELECT g.keep, \(now)
              FROM temp.import_groups g CROSS JOIN temp.import_later l ON l.id = g.last LEFT JOIN movie_facets f ON f.id = g.keep
             WHERE f.id IS NULL OR (\(columns.map { "f.\($0)" }.joined(separator: ", "))) IS NOT (\(now))
            """)
    }

    /// Writes the groups from the sorted key hashes (`RepeatGroups`); false, with none written,
    /// when there are none to sort by, two keys share a hash, or the sort's temporary file failed.
    private static func group(_ db: Database, keys: KeyRuns?, key: Key, maxIDBefore: Int64) throws -> Bool {
        guard let keys else { return false }
        do {
            return try RepeatGroups.write(db, keys: keys, key: key, maxIDBefore: maxIDBefore)
        } catch is KeyRuns.Failure {
            try db.execute("DELETE FROM temp.import_groups")
            return false
        }
    }

    /// Writes one group per key to `temp.import_groups`, found by SQL through the natural-key
    /// index: in key order, so the lookups walk the index in its order; written in `keep` order
    /// (into their table at random places, a re-imported million took half as long again). The
    /// group's key columns are those of any of its rows (all equal under the key).
    private static func groupInSQL(_ db: Database, key: Key, maxIDBefore: Int64) throws {
        try db.run("""
            INSERT INTO temp.import_groups (keep, last, n, kind)
            SELECT ifnull(m.id, g.first), g.last, g.n,
                   CASE WHEN m.id IS NULL THEN \(Kind.new.rawValue) WHEN m.id <= ? THEN \(Kind.stored.rawValue) ELSE \(Kind.appended.rawValue) END
              FROM (SELECT min(id) AS first, max(id) AS last, count(*) AS n, title, year, imdb_id
                      FROM temp.import_later GROUP BY \(key.group)) g
              LEFT JOIN movies m ON \(key.match("g"))
             ORDER BY 1
            """, [.integer(maxIDBefore)])
    }

    /// Under skip, removes the genres this load added that only rows repeating stored movies
    /// named (not the `kept` ones, which rows folded before the merge named): row by row, a
    /// skipped row adds nothing.
    private static func dropGenresOfSkippedRows(_ db: Database, key: Key, maxIDBefore: Int64, maxGenreIDBefore: Int64,
                                                kept: Set<Int64>) throws {
        guard try db.intScalar("SELECT count(*) FROM genres WHERE id > ?", [.integer(maxGenreIDBefore)]) > 0 else { return }
        try db.run("""
            CREATE TEMP TABLE import_skipped AS
            SELECT l.id FROM temp.import_later l CROSS JOIN movies m ON \(key.match("l")) WHERE m.id <= ?
            """, [.integer(maxIDBefore)])
        defer { try? db.execute("DROP TABLE temp.import_skipped") }
        try db.run("""
            DELETE FROM genres WHERE id > ?
               AND id IN (SELECT genre_id FROM temp.import_later_genres WHERE movie_id IN (SELECT id FROM temp.import_skipped))
               AND id NOT IN (SELECT genre_id FROM temp.import_later_genres WHERE movie_id NOT IN (SELECT id FROM temp.import_skipped))
               AND NOT EXISTS (SELECT 1 FROM movie_genres WHERE genre_id = genres.id)
               AND id NOT IN (SELECT value FROM json_each(?))
            """, [.integer(maxGenreIDBefore), .text("[" + kept.map(String.init).joined(separator: ",") + "]")])
    }
}

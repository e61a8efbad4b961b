import MovieDomain
import SQLiteStore
/// Merges the rows a bulk load set aside (those whose key `RepeatSieve` may have seen before)
/// into the catalog, so that it ends as if every row had been stored one by one: per key, the
/// first id (a stored movie's, if any) keeps the last row's values for the columns the input
/// has, and its genres when the input has genres.
///
/// Set-aside rows keep the ids the append numbered them with, in input order, so a key's first
/// and last rows are its smallest and largest ids. Rows appended at once never repeat a key,
/// so the unique indexes are built before the merge, which finds each key's movie through them.
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
        fileprivate func match(_ row: String) -> String {
            switch self {
            case .titleYear:
                return "m.title = \(row).title COLLATE NOCASE AND ifnull(m.year, 0) = ifnull(\(row).year, 0) AND ifnull(m.imdb_id, '') = ''"
            case .imdbID:
                return "m.imdb_id = \(row).imdb_id"
            }
        }
    }

    /// The scratch tables (temp schema: nothing of them lands) that hold set-aside rows and their genre links.
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
    /// The scratch tables of rows (with `movies`' columns) and of their genre links.
    static let rowTable = "temp.import_later", linkTable = "temp.import_later_genres"
    /// With `recordRetitled`, the movies this load appended that the merge gave a title the title
    /// index holds otherwise, with the titles they had (under the IMDb-id key a repeat may bring
    /// any title; under title and year only another ASCII case, which the index does not see).
    static let retitledTable = "temp.import_retitled"

    /// What a group's key was before its set-aside rows: `kind` in `import_groups`.
    private enum Kind: Int64 {
        /// No movie: the group's first row is a new movie.
        case new = 0
        /// A movie this load appended (the key's first row).
        case appended = 1
        /// A stored movie.
        case stored = 2
    }

    /// Merges every set-aside row; movies with ids above `maxIDBefore` are this load's.
    ///
    /// Its writes say OR FAIL: a failure rolls the whole import back either way, and unlike the
    /// default ABORT, FAIL needs no statement journal, a copy of every page a statement changes
    /// (117 MB for 50k repeats among 1M rows). The caller has SQLite's CHECKs off for the same
    /// reason: the rows were checked in Swift when they were set aside.
    static func merge(_ db: Database, key: Key, maxIDBefore: Int64, maxGenreIDBefore: Int64, policy: DuplicatePolicy,
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
        // One group per key, in key order, so the lookups walk the key's index in its order. The
        // group's key columns are those of any of its rows (all equal under the key). Written in
        // `keep` order: into their table at random places, a re-imported million took half as long
        // again. The merge's sorts use one helper thread: with four, their memory lifted the
        // import's peak RSS by a quarter.
        let threads = try db.intScalar("PRAGMA threads")
        try db.execute("PRAGMA threads = 1")
        defer { try? db.execute("PRAGMA threads = \(threads)") }
        try db.run("""
            INSERT INTO temp.import_groups (keep, last, n, kind)
            SELECT ifnull(m.id, g.first), g.last, g.n,
                   CASE WHEN m.id IS NULL THEN \(Kind.new.rawValue) WHEN m.id <= ? THEN \(Kind.stored.rawValue) ELSE \(Kind.appended.rawValue) END
              FROM (SELECT min(id) AS first, max(id) AS last, count(*) AS n, title, year, imdb_id
                      FROM temp.import_later GROUP BY \(key.group)) g
              LEFT JOIN movies m ON \(key.match("g"))
             ORDER BY 1
            """, [.integer(maxIDBefore)])
        timings.mark("merge: group repeats")

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
                try dropGenresOfSkippedRows(db, key: key, maxIDBefore: maxIDBefore, maxGenreIDBefore: maxGenreIDBefore)
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
        // The movies whose title the index must hold otherwise, with the titles it has: stored ones
        // (the triggers are off) and, with `recordRetitled`, appended ones (the builder has their
        // first titles). A title that stays alike in the index (under the title-and-year key every
        // change a repeat can make) is left alone: a re-imported list touches no title.
        let storedRetitled = try MovieTitlesTable.exists(db) && policy != .skip && stored.groups > 0
        if storedRetitled || recordRetitled {
            try db.run("""
                INSERT INTO \(retitledTable) (id, title)
                SELECT m.id, m.title FROM temp.import_groups g CROSS JOIN movies m ON m.id = g.keep
                       CROSS JOIN temp.import_later l ON l.id = g.last
                 WHERE g.kind IN (?, ?) AND m.title IS NOT l.title
                   AND NOT \(MovieTitlesTable.indexedAlike("m.title", "l.title"))
                """, [.integer(storedRetitled ? Kind.stored.rawValue : -1), .integer(recordRetitled ? Kind.appended.rawValue : -1)])
        }
        try copyLastRows(db, fields: fields, now: now)
        if storedRetitled {
            // Stored movies leave the index by their old titles and come back with their new ones;
            // the appended ones wait for the index built alongside.
            let isStored = "id <= ?", bound: [SQLValue] = [.integer(maxIDBefore)]
            try MovieTitlesTable.remove(db, indexedAs: retitledTable, where: isStored, bound)
            try MovieTitlesTable.add(db, where: "m.id IN (SELECT id FROM \(retitledTable) WHERE \(isStored))", bound)
            try db.run("DELETE FROM \(retitledTable) WHERE \(isStored)", bound)
        }
        timings.mark("merge: copy values")
        try relinkGenres(db, fields: fields)
        timings.mark("merge: genres")
        // The kept movies' facet rows, where their values or genres changed (the triggers are off).
        try MovieFacetsTable.refresh(db, ids: "SELECT keep FROM temp.import_groups", relinked: "SELECT id FROM temp.import_relinked")
        timings.mark("merge: facet rows")
        return counts
    }

    /// Gives each group's movie its last row's values: new movies are inserted with them, the
    /// others get the columns the input has (the title always: its case may change; never the
    /// IMDb id, equal within a group or absent from all of it).
    private static func copyLastRows(_ db: Database, fields: MovieFields, now: SQLValue) throws {
        try db.execute("""
            INSERT OR FAIL INTO movies (id, \(MovieColumns.names), added_at, updated_at)
            SELECT g.keep, \(MovieField.stored.map { "l.\($0.column!)" }.joined(separator: ", ")), l.added_at, l.updated_at
              FROM temp.import_groups g CROSS JOIN temp.import_later l ON l.id = g.last
             WHERE g.kind = \(Kind.new.rawValue) ORDER BY g.keep
            """)
        let columns = MovieField.stored.filter { $0 == .title || ($0 != .imdbID && fields.contains($0)) }
        // A column of the natural-key index is written only where it changes (a title's case, a
        // year under the IMDb-id key): writing it moves the movie's index entry, at random places.
        let keyed = columns.filter { $0 == .title || $0 == .year }.map { $0.column! }
        let others = columns.filter { $0 != .title && $0 != .year }.map { $0.column! }
        let last = "temp.import_groups g CROSS JOIN temp.import_later l ON l.id = g.last"
        func assign(_ names: [String]) -> String {
            "(\(names.joined(separator: ", "))) = (SELECT \(names.map { "l.\($0)" }.joined(separator: ", ")) FROM \(last) WHERE g.keep = m.id)"
        }
        // Movies in id order, each finding its group by id (UPDATE ... FROM would scan movies).
        try db.run("""
            UPDATE OR FAIL movies AS m SET \(others.isEmpty ? "" : assign(others) + ",") updated_at = ?
             WHERE m.id IN (SELECT keep FROM temp.import_groups WHERE kind <> \(Kind.new.rawValue))
            """, [now])
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
            let overflow = MovieFacetsTable.overflowBit
            // Bits alone cannot compare genres without a bit of their own: those count as changed.
            try db.execute("""
                INSERT INTO temp.import_relinked (id)
                SELECT g.keep FROM temp.import_groups g LEFT JOIN movie_facets f ON f.id = g.keep
                 WHERE g.kind <> \(Kind.new.rawValue)
                   AND (f.genres IS NULL OR f.genres & \(overflow) <> 0
                        OR f.genres IS NOT \(MovieFacetsTable.maskSQL(of: "g.last", in: linkTable)))
                """)
            try db.execute("DELETE FROM movie_genres WHERE movie_id IN (SELECT id FROM temp.import_relinked)")
        }
        try db.execute("""
            INSERT OR FAIL INTO movie_genres (movie_id, genre_id)
            SELECT g.keep, lg.genre_id FROM temp.import_groups g CROSS JOIN temp.import_later_genres lg ON lg.movie_id = g.last
             WHERE g.kind = \(Kind.new.rawValue) OR g.keep IN (SELECT id FROM temp.import_relinked)
             ORDER BY 1, 2
            """)
    }

    /// Under skip, removes the genres this load added that only rows repeating stored movies
    /// named: row by row, a skipped row adds nothing.
    private static func dropGenresOfSkippedRows(_ db: Database, key: Key, maxIDBefore: Int64, maxGenreIDBefore: Int64) throws {
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
            """, [.integer(maxGenreIDBefore)])
    }
}

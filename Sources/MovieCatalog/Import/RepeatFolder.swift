import MovieDomain
import SQLiteStore
/// Folds rows that a bulk load appended without lookups, so the catalog ends as if they had
/// been stored one by one: per key, the first id (a stored movie's, if any) keeps the last row's
/// values for the columns the input has, and its genres when the input has genres.
enum RepeatFolder {
    /// What rows are matched on while appending (see `BulkAppender`).
    enum Key {
        /// Title ignoring case, and year: rows and stored movies without IMDb ids.
        case titleYear
        /// The IMDb id: rows and stored movies that all have one.
        case imdbID

        /// The unique index whose rebuild finds repeats of this key.
        var index: String { self == .titleYear ? "movies_natural_key" : "movies_imdb_id" }
        /// The other unique index of `movies`.
        var otherIndex: String { self == .titleYear ? "movies_imdb_id" : "movies_natural_key" }

        /// The repeats table's key columns with their types, their names, how movies are
        /// grouped, and how a movie joins its group. The table is keyed by `keep`, so that
        /// writes to the kept movies go in id order, one page after the next.
        fileprivate var sql: (columns: String, names: String, select: String, group: String, join: String) {
            switch self {
            case .titleYear:
                return ("title TEXT COLLATE NOCASE, year INTEGER, UNIQUE (title, year)", "title, year",
                        "title, ifnull(year, 0)", "title COLLATE NOCASE, ifnull(year, 0)",
                        "r.title = m.title AND r.year = ifnull(m.year, 0)")
            case .imdbID:
                return ("imdb_id TEXT UNIQUE", "imdb_id", "imdb_id", "imdb_id", "r.imdb_id = m.imdb_id")
            }
        }
    }

    /// Folds every repeated key; rows with ids above `maxIDBefore` are the appended ones. With
    /// `amongCandidates`, only movies whose ids `temp.import_candidates` holds can repeat.
    static func fold(_ db: Database, key: Key, amongCandidates: Bool, maxIDBefore: Int64, maxGenreIDBefore: Int64, policy: DuplicatePolicy,
                     fields: MovieFields, now: SQLValue, touched: inout TouchedIDs, timings: PhaseTimings) throws -> FoldCounts {
        // Only fixed SQL from `Key` is interpolated.
        let sql = key.sql
        // The movies that may repeat: CROSS JOIN keeps SQLite from scanning all of them instead.
        let movies = amongCandidates ? "temp.import_candidates c CROSS JOIN movies m ON m.id = c.id" : "movies m"
        try db.execute("""
            CREATE TEMP TABLE import_repeats (keep INTEGER PRIMARY KEY, last INTEGER, n INTEGER, \(sql.columns));
            INSERT INTO import_repeats (keep, last, n, \(sql.names))
            SELECT min(m.id), max(m.id), count(*), \(sql.select) FROM \(movies)
             WHERE \(key == .imdbID ? "imdb_id IS NOT NULL" : "1")
             GROUP BY \(sql.group) HAVING count(*) > 1 ORDER BY 1;
            """)
        defer { try? db.execute("DROP TABLE temp.import_repeats") }
        timings.mark("fold: group repeats")
        let max = SQLValue.integer(maxIDBefore)
        var counts = FoldCounts()
        // The stored movie of a group is its smallest id; the stored catalog never repeats a key.
        let storedGroups = try db.intScalar("SELECT count(*) FROM import_repeats WHERE keep <= ?", [max])
        let storedRepeats = try db.intScalar("SELECT ifnull(sum(n - 1), 0) FROM import_repeats WHERE keep <= ?", [max])
        counts.repeated = try db.intScalar("SELECT ifnull(sum(n - 1), 0) FROM import_repeats WHERE keep > ?", [max])
        if policy == .skip {
            counts.skipped = storedRepeats
            // Stored movies stay as they are: their repeats in the input simply go, and so do the
            // genres this import added for them alone (row by row, a skipped row adds nothing).
            try db.run("""
                CREATE TEMP TABLE import_skipped AS
                SELECT m.id FROM \(movies) CROSS JOIN import_repeats r ON \(sql.join)
                 WHERE m.id <> r.keep AND r.keep <= ?
                """, [max])
            defer { try? db.execute("DROP TABLE temp.import_skipped") }
            try db.run("""
                CREATE TEMP TABLE import_orphans AS
                SELECT DISTINCT genre_id AS id FROM movie_genres
                 WHERE movie_id IN (SELECT id FROM temp.import_skipped) AND genre_id > ?
                   AND genre_id NOT IN (SELECT genre_id FROM movie_genres
                                         WHERE movie_id NOT IN (SELECT id FROM temp.import_skipped))
                """, [.integer(maxGenreIDBefore)])
            defer { try? db.execute("DROP TABLE temp.import_orphans") }
            try db.execute("""
                DELETE FROM movie_genres WHERE movie_id IN (SELECT id FROM temp.import_skipped);
                DELETE FROM movies WHERE id IN (SELECT id FROM temp.import_skipped);
                DELETE FROM movie_facets WHERE id IN (SELECT id FROM temp.import_skipped);
                DELETE FROM genres WHERE id IN (SELECT id FROM temp.import_orphans);
                """)
            try db.run("DELETE FROM import_repeats WHERE keep <= ?", [max])
            timings.mark("fold: drop skipped")
        } else {
            // Under fail no stored movie can be in a group (the bulk path is not taken then).
            counts.updated = storedGroups
            counts.repeated += storedRepeats - storedGroups
            if policy == .update {
                let kept = try db.prepare("SELECT keep FROM import_repeats WHERE keep <= ?")
                try kept.bind([max])
                while try kept.step() { _ = touched.insert(try kept.int64(0)) }
            }
        }
        // Stored movies about to get their repeats' titles leave the title index by the titles it
        // has (the triggers are off), and come back with the new ones below.
        let titled = try MovieTitlesTable.exists(db)
        let storedKept = "m.id IN (SELECT keep FROM temp.import_repeats WHERE keep <= ?)"
        if titled { try MovieTitlesTable.remove(db, where: storedKept, [max]) }
        // Column names come from MovieField, never from input; the title always (its case may
        // change). Never the IMDb id: equal within a group, or absent from every row of it.
        let columns = MovieField.stored.filter { $0 == .title || ($0 != .imdbID && fields.contains($0)) }.map { $0.column! }
        let targets = columns.joined(separator: ", ")
        let sources = columns.map { "l.\($0)" }.joined(separator: ", ")
        // Kept movies in id order, each finding its group by key (UPDATE ... FROM would scan movies).
        try db.run("""
            UPDATE movies AS m
               SET (\(targets)) = (SELECT \(sources) FROM import_repeats r CROSS JOIN movies l ON l.id = r.last
                                    WHERE r.keep = m.id),
                   updated_at = ?
             WHERE m.id IN (SELECT keep FROM import_repeats)
            """, [now])
        if titled { try MovieTitlesTable.add(db, where: storedKept, [max]) }
        timings.mark("fold: copy values")
        if fields.contains(.genres) {
            try db.execute("""
                DELETE FROM movie_genres WHERE movie_id IN (SELECT keep FROM import_repeats);
                UPDATE movie_genres SET movie_id = r.keep FROM import_repeats r WHERE movie_genres.movie_id = r.last;
                """)
            timings.mark("fold: move genres")
        }
        // Every movie of a group but its `keep` goes, with its links and facet row (a bulk load
        // runs without foreign-key cascades or triggers).
        try db.execute("""
            CREATE TEMP TABLE import_dropped AS
            SELECT m.id FROM \(movies) CROSS JOIN import_repeats r ON \(sql.join)
             WHERE m.id <> r.keep;
            DELETE FROM movie_genres WHERE movie_id IN (SELECT id FROM temp.import_dropped);
            DELETE FROM movies WHERE id IN (SELECT id FROM temp.import_dropped);
            DELETE FROM movie_facets WHERE id IN (SELECT id FROM temp.import_dropped);
            DROP TABLE temp.import_dropped;
            """)
        timings.mark("fold: drop repeats")
        // The kept movies' facet rows, from their new values and genres (the triggers are off).
        try MovieFacetsTable.refresh(db, where: "m.id IN (SELECT keep FROM temp.import_repeats)")
        return counts
    }
}

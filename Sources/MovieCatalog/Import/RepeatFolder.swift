/// How folding changed an input's counts: rows first counted as inserted that were repeats.
struct FoldCounts: Equatable {
    /// Rows that repeated an earlier row of the input (the last one's values were kept).
    var repeated = 0
    /// Stored movies that the input's rows updated (once each).
    var updated = 0
    /// Rows that repeated a stored movie under `--on-duplicate skip`.
    var skipped = 0
    /// All folded rows: each was counted as inserted when appended.
    var notInserted: Int { repeated + updated + skipped }
}

/// Folds rows that a bulk load appended without natural-key lookups, so the catalog ends as if
/// they had been stored one by one: per natural key, the first id (a stored movie's, if any) keeps
/// the last row's values for the columns the input has, and its genres when the input has genres.
enum RepeatFolder {
    /// Folds every repeated natural key; rows with ids above `maxIDBefore` are the appended ones.
    static func fold(_ db: Database, maxIDBefore: Int64, maxGenreIDBefore: Int64, policy: DuplicatePolicy,
                     fields: MovieFields, now: SQLValue) throws -> FoldCounts {
        try db.execute("""
            CREATE TEMP TABLE import_repeats (
                title TEXT COLLATE NOCASE, year INTEGER, keep INTEGER, last INTEGER, n INTEGER,
                PRIMARY KEY (title, year));
            INSERT INTO import_repeats
            SELECT title, ifnull(year, 0), min(id), max(id), count(*) FROM movies
             GROUP BY title COLLATE NOCASE, ifnull(year, 0) HAVING count(*) > 1;
            """)
        defer { try? db.execute("DROP TABLE temp.import_repeats") }
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
                SELECT m.id FROM movies m JOIN import_repeats r ON r.title = m.title AND r.year = ifnull(m.year, 0)
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
                DELETE FROM genres WHERE id IN (SELECT id FROM temp.import_orphans);
                """)
            try db.run("DELETE FROM import_repeats WHERE keep <= ?", [max])
        } else {
            // Under fail no stored movie can be in a group (the bulk path is not taken then).
            counts.updated = storedGroups
            counts.repeated += storedRepeats - storedGroups
            if policy == .update {
                try db.run("INSERT OR IGNORE INTO temp.import_touched (id) SELECT keep FROM import_repeats WHERE keep <= ?", [max])
            }
        }
        // Column names come from MovieField, never from input; the title always (its case may change).
        let columns = MovieField.stored.filter { $0 == .title || fields.contains($0) }.map { $0.column! }
        let targets = columns.joined(separator: ", ")
        let sources = columns.map { "l.\($0)" }.joined(separator: ", ")
        try db.run("""
            UPDATE movies AS m SET (\(targets)) = (SELECT \(sources) FROM movies l WHERE l.id = r.last),
                   updated_at = ?
              FROM import_repeats r WHERE m.id = r.keep
            """, [now])
        if fields.contains(.genres) {
            try db.execute("""
                DELETE FROM movie_genres WHERE movie_id IN (SELECT keep FROM import_repeats);
                UPDATE movie_genres SET movie_id = r.keep FROM import_repeats r WHERE movie_genres.movie_id = r.last;
                """)
        }
        // Every movie of a group but its `keep` goes, with its links (a bulk load runs without
        // foreign-key cascades).
        try db.execute("""
            CREATE TEMP TABLE import_dropped AS
            SELECT m.id FROM movies m JOIN import_repeats r ON r.title = m.title AND r.year = ifnull(m.year, 0)
             WHERE m.id <> r.keep;
            DELETE FROM movie_genres WHERE movie_id IN (SELECT id FROM temp.import_dropped);
            DELETE FROM movies WHERE id IN (SELECT id FROM temp.import_dropped);
            DROP TABLE temp.import_dropped;
            """)
        return counts
    }
}

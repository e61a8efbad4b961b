import MovieDomain
import SQLiteStore

/// The derived data moviecat's queries trust (movie_facets and its sort indexes, movie_titles and
/// movie_title_exceptions; movie_facet_totals only for its objects: a block it lacks is counted
/// from the rows), checked each time a catalog opens and put right when a write got past its
/// triggers. The check is two statements that touch a few pages (the schema, the ends of two id
/// b-trees, one FTS5 record, movie_stale's first page); only a failed check writes:
/// - an object missing (a sqlite3 user dropped it): the migrations that make it run again (they
///   drop what they make first), rebuilding its data from movies and movie_genres;
/// - movie_facets not spanning movies' ids (emptied by hand), or movie_titles emptied
///   (`'delete-all'`): rebuilt the same way;
/// - movie_stale not empty (a REPLACE, a derived row deleted or renumbered by hand): the logged
///   movies' rows recomputed, and the log emptied;
/// - movie_facet_totals without its `counts` or `packed` column (made again by hand): made anew.
/// A repair also counts the blocks movie_facet_totals lacks, as moviecat's writes do. The
/// trigger that takes a deleted movie's genre links with it is checked and made again alike.
enum DerivedTables {
    /// What one set of derived data is rebuilt by: migrations run again, in order. Dropping
    /// movie_facets drops version 5's indexes and version 7's triggers on it; dropping
    /// movie_title_exceptions, version 7's triggers on it.
    enum Part: CaseIterable {
        case facets, sortIndexes, titles, totals
        /// The trigger that takes a deleted movie's genre links with it (foreign keys off).
        case links

        var migrations: [Int] {
            switch self {
            case .facets: return [4, 5, 7, 8, 9, 11, 12]
            case .sortIndexes: return [5]
            case .titles: return [6, 7, 10, 11, 12]
            case .totals: return [8, 9]
            case .links: return [14]
            }
        }
    }

    /// Every derived object, with the part to rebuild when it is missing (the data it makes or
    /// guards) and the schema version that made it. Without movie_stale or its triggers on movies
    /// and movie_facets, a REPLACE or a hand edit may have gone unlogged; facet rows can then be
    /// wrong, and titles over-indexed (which exact phrases would count: see `staleLog`).
    static let objects: [(name: String, part: Part, since: Int)] = [
        ("movie_facets", .facets, 4), ("movie_facets_insert", .facets, 4), ("movie_facets_update", .facets, 4),
        ("movie_facets_renumber", .facets, 4), ("movie_facets_delete", .facets, 4), ("movie_facets_link", .facets, 4),
        ("movie_facets_unlink", .facets, 4), ("movie_facets_relink", .facets, 4),
        ("movie_facets_rating", .sortIndexes, 5), ("movie_facets_year", .sortIndexes, 5),
        ("movie_facets_votes", .sortIndexes, 5), ("movie_facets_minutes", .sortIndexes, 5),
        ("movie_titles", .titles, 6), ("movie_titles_data", .titles, 6), ("movie_titles_idx", .titles, 6),
        ("movie_titles_config", .titles, 6), ("movie_title_exceptions", .titles, 6), ("movie_titles_insert", .titles, 6),
        ("movie_titles_delete", .titles, 6), ("movie_titles_update", .titles, 6),
        ("movie_stale", .facets, 7), ("movie_stale_id", .facets, 7), ("movie_stale_on_insert", .facets, 7), ("movie_stale_on_update", .facets, 7),
        ("movie_stale_on_facet_delete", .facets, 7), ("movie_stale_on_facet_renumber", .facets, 7),
        ("movie_stale_on_exception_delete", .titles, 7), ("movie_stale_on_exception_renumber", .titles, 7),
        (FacetTotals.name, .totals, 8), (FacetTotals.triggers[0], .totals, 8), (FacetTotals.triggers[1], .totals, 8),
        (FacetTotals.triggers[2], .totals, 8), ("movie_genres_follow_delete", .links, 14),
    ]

    /// Whether a schema object is one of moviecat's derived ones (not a sqlite3 user's).
    static func isDerived(_ name: String) -> Bool { derivedNames.contains(name) }
    private static let derivedNames = Set(objects.map(\.name))

    /// The log and the triggers on movies that fill it: without one, a REPLACE may go unlogged.
    static let staleLog: Set<String> = ["movie_stale", "movie_stale_on_insert", "movie_stale_on_update"]

    /// The tables and view of SPEC section 2, which no migration can make again from the rest.
    static let specObjects = ["movies", "genres", "movie_genres", "presets", "preset_filters", "movie_list"]

    /// Refuses a catalog that lacks a table of SPEC section 2 (exit 73, naming it): a sqlite3
    /// user dropped it, and every command would fail on it.
    static func requireSpecTables(_ db: Database) throws {
        guard try db.intScalar("PRAGMA user_version") >= 1 else { return }   // new, or not moviecat's
        let placeholders = Array(repeating: "?", count: specObjects.count).joined(separator: ", ")
        let present = Set(try db.query("SELECT name FROM sqlite_master WHERE name IN (\(placeholders))",
                                       specObjects.map { .text($0) }) { try $0.text(0) })
        if let gone = specObjects.first(where: { !present.contains($0) }) {
            throw CatalogError(.cannotUseCatalog, "\(db.path): cannot use the catalog: its table '\(gone)' is missing (dropped by hand?); nothing was changed")
        }
    }

    /// Before migrating a catalog at a version that has derived objects (4 and up) but not the
    /// latest: when one its version should have made is missing, the version goes back to just
    /// before the migration that makes it, so migrating makes it again (migrations 4 on drop what
    /// they make first). Else a later migration would fail on it (7 makes triggers on
    /// movie_title_exceptions) before the check after migrating could rebuild it.
    static func rewindPastMissing(_ db: Database, latest: Int) throws {
        if let version = try rewoundVersion(db, latest: latest) { try db.execute("PRAGMA user_version = \(version)") }
    }

    /// The version `rewindPastMissing` goes back to, or nil when it leaves the version alone.
    static func rewoundVersion(_ db: Database, latest: Int) throws -> Int? {
        let version = try db.intScalar("PRAGMA user_version")
        guard version >= 4, version < latest,
              let first = try missing(db).filter({ $0.since <= version }).map(\.since).min() else { return nil }
        return first - 1
    }

    /// What a check found.
    struct Findings: Equatable {
        /// The parts to rebuild.
        var rebuild: Set<Part> = []
        /// Whether movie_stale logs movies to recompute.
        var logged = false
        /// Why the parts are rebuilt, for the user (a rebuild of a large catalog takes a while).
        var reasons: [String] = []

        var isClean: Bool { rebuild.isEmpty && !logged }
    }

    /// Checks the derived data and, when the check fails, puts it right in one write transaction.
    /// `rebuilding` hears why, before a rebuild.
    static func ensure(_ db: Database, migrator: Migrator, rebuilding: ((String) -> Void)? = nil) throws {
        guard try !check(db).isClean else { return }
        try db.transaction {
            // Checked again under the write lock: another process may have put it right.
            let findings = try check(db)
            guard !findings.isClean else { return }
            if !findings.rebuild.isEmpty {
                rebuilding?(findings.reasons.joined(separator: "; "))
                let versions = Set(findings.rebuild.flatMap(\.migrations)).sorted()
                do {
                    try migrator.rerun(versions, db)
                } catch {
                    throw try rebuildFailure(error, db)
                }
            }
            // A rebuild keeps the log (migration 7 does), so it is read again either way.
            try repairIfLogged(db, skipping: findings.rebuild)
            try FacetTotals.fill(db)
        }
    }

    /// What a failed rebuild tells the user: what was wrong and what SQLite said. Failures of the
    /// file itself (busy, full, I/O) stay as they are.
    private static func rebuildFailure(_ error: Error, _ db: Database) throws -> Error {
        let reason: String
        switch error {
        case MigrationError.failed(let migration, _, let message): reason = "\(migration): \(message)"
        // A damaged FTS5 table (a shadow table dropped) fails with SQLITE_CORRUPT.
        case let error as DatabaseError where error.code == .corrupt: reason = error.message
        default: return error
        }
        let missing = try self.missing(db).map(\.name)
        let what = missing.first.map { "\($0) is missing" + (missing.count > 1 ? ", and \(missing.count - 1) more" : "") }
            ?? "they are out of step with movies"
        return CatalogError(.cannotUseCatalog, "\(db.path): cannot rebuild the derived tables (\(what)): \(reason); nothing was changed")
    }

    /// The derived objects the schema lacks.
    static func missing(_ db: Database) throws -> [(name: String, part: Part, since: Int)] {
        let placeholders = Array(repeating: "?", count: objects.count).joined(separator: ", ")
        let present = Set(try db.query("SELECT name FROM sqlite_master WHERE name IN (\(placeholders))",
                                       objects.map { .text($0.name) }) { try $0.text(0) })
        return objects.filter { !present.contains($0.name) }
    }

    /// What is wrong, in a few probes: missing objects; else the log, movie_facets' id span
    /// against movies', and whether movie_titles holds no row at all (FTS5's averages record,
    /// rowid 1 of its data table, starts with its row count as a varint: 0 or absent after
    /// `'delete-all'`; any other count starts with a non-zero byte).
    static func check(_ db: Database) throws -> Findings {
        let missing = try missing(db)
        guard missing.isEmpty else {
            var rebuild = Set(missing.map(\.part))
            // Without the log, a REPLACE may have left a title in movie_titles unseen, and exact
            // phrases would count it: the index is made anew too.
            if missing.contains(where: { staleLog.contains($0.name) }) { rebuild.insert(.titles) }
            let more = missing.count > 1 ? ", and \(missing.count - 1) more" : ""
            var findings = Findings(rebuild: rebuild, reasons: ["\(missing[0].name) is missing\(more)"])
            // Rebuilt alike now, or the next open would rebuild again for it.
            if let reason = try userTriggerFiringFirst(db) {
                findings.rebuild.formUnion(reorderedParts)
                findings.reasons.append(reason)
            }
            return findings
        }
        let row = try db.query("""
            SELECT EXISTS (SELECT 1 FROM movie_stale),
                   (SELECT min(id) FROM movies) IS NOT (SELECT min(id) FROM movie_facets)
                       OR (SELECT max(id) FROM movies) IS NOT (SELECT max(id) FROM movie_facets),
                   EXISTS (SELECT 1 FROM movies)
                       AND NOT EXISTS (SELECT 1 FROM movie_titles_data WHERE id = 1 AND substr(block, 1, 1) > x'00'),
                   (SELECT count(*) FROM pragma_table_info('\(FacetTotals.name)') WHERE name IN ('counts', 'packed')) <> 2
            """) { (try $0.int64(0) == 1, try $0.int64(1) == 1, try $0.int64(2) == 1, try $0.int64(3) == 1) }[0]
        var findings = Findings(logged: row.0)
        func rebuild(_ parts: Set<Part>, _ reason: String) {
            findings.rebuild.formUnion(parts)
            findings.reasons.append(reason)
        }
        if row.1 { rebuild([.facets], "movie_facets does not span the movies' ids") }
        if row.2 { rebuild([.titles], "movie_titles holds no title") }
        // movie_facet_totals made again by hand without a column moviecat reads and writes.
        if row.3 { rebuild([.totals], "\(FacetTotals.name) lacks a column moviecat writes") }
        // A REPLACE through a unique index of the user's own went unlogged: both are rebuilt
        // (the title index would over-match, and hold the deleted titles for good).
        if try userUniqueIndexes(db) && differentCounts(db) {
            rebuild([.facets, .titles], "movie_facets counts other movies than movies, past a unique index of the catalog's own")
        }
        if let reason = try userTriggerFiringFirst(db) { rebuild(Self.reorderedParts, reason) }
        return findings
    }

    /// What a rebuild for a user's trigger firing first makes anew: every part with a trigger on
    /// movies or movie_genres.
    static let reorderedParts: Set<Part> = [.facets, .titles, .links]

    /// Why the derived tables are rebuilt when a sqlite3 user's trigger on movies or movie_genres
    /// fires before one of moviecat's AFTER triggers on that table, else nil (a BEFORE trigger
    /// runs before the row is written, when there is nothing of it to index yet: a `RAISE` there
    /// ends the write, and its writes to other rows fire moviecat's triggers as any write does).
    /// SQLite fires a table's triggers
    /// newest first, and the newest has the largest rowid in sqlite_master (the order SQLite
    /// loads the schema in). Such a trigger may have changed or deleted a new row before
    /// moviecat's triggers indexed it (they then indexed the row as inserted: a movie deleted
    /// stayed counted), or ended them with `RAISE(IGNORE)`, or written the movies through
    /// another table's trigger. The rebuild makes moviecat's triggers anew: newer than the
    /// user's, they fire first from then on, and the user's see the rows indexed.
    static func userTriggerFiringFirst(_ db: Database) throws -> String? {
        let triggers = try db.query("""
            SELECT rowid, name, lower(tbl_name), sql FROM sqlite_master
             WHERE type = 'trigger' AND lower(tbl_name) IN ('movies', 'movie_genres') ORDER BY rowid
            """) { (rowid: try $0.int64(0), name: try $0.text(1), table: try $0.text(2), sql: $0.optionalText(3) ?? "") }
        var oldestOwn: [String: Int64] = [:]
        for trigger in triggers where isDerived(trigger.name) && oldestOwn[trigger.table] == nil {
            oldestOwn[trigger.table] = trigger.rowid
        }
        let first = triggers.first { trigger in
            guard !isDerived(trigger.name), let own = oldestOwn[trigger.table], trigger.rowid > own else { return false }
            return TriggerTiming.firesAfter(trigger.sql)
        }
        return first.map { "the catalog's own trigger \($0.name.quotedForMessage) fires before moviecat's" }
    }

    /// Whether a sqlite3 user added a unique index to movies: a REPLACE through it deletes rows
    /// the log's triggers do not know to look for (they probe the id, the natural key and the
    /// IMDb id). Such catalogs have their facet rows counted against the movies at each open.
    private static func userUniqueIndexes(_ db: Database) throws -> Bool {
        try db.intScalar("""
            SELECT EXISTS (SELECT 1 FROM pragma_index_list('movies') WHERE "unique" AND name NOT IN ('movies_natural_key', 'movies_imdb_id'))
            """) == 1
    }

    private static func differentCounts(_ db: Database) throws -> Bool {
        try db.intScalar("SELECT (SELECT count(*) FROM movies) <> (SELECT count(*) FROM movie_facets)") == 1
    }

    /// The schema version whose triggers take a replaced row's title out of the index.
    static let replaceSafeTitlesSince = 12

    /// Run inside migration 12's transaction: a REPLACE repaired before it may have left a title
    /// indexed twice for one id, which a later delete leaves behind (a title count one too high).
    /// FTS5's row count tells: one above the movies', the index is made again. Once, with the
    /// migration (counting the movies reads the whole table; a new catalog has none).
    static func dropTitleCopies(_ db: Database, migrator: Migrator) throws {
        guard try MovieTitlesTable.indexedRows(db) != Int64(try db.intScalar("SELECT count(*) FROM movies")) else { return }
        try migrator.rerun(Part.titles.migrations, db)
    }

    /// Recomputes the derived rows of the movies movie_stale logs, if any (inside the caller's transaction).
    static func repairIfLogged(_ db: Database, skipping rebuilt: Set<Part> = []) throws {
        if try db.intScalar("SELECT EXISTS (SELECT 1 FROM movie_stale)") == 1 { try repair(db, skipping: rebuilt) }
    }

    /// Recomputes the derived rows of the movies movie_stale logs (inside the caller's
    /// transaction), except those of the parts just rebuilt, and empties the log.
    static func repair(_ db: Database, skipping rebuilt: Set<Part>) throws {
        let logged = "SELECT id FROM movie_stale"
        if !rebuilt.contains(.titles) {
            do {
                try db.execute("SAVEPOINT title_repair")
                // Out go the titles the index may hold for these ids, then in go the titles the movies
                // have now. A logged title the movie still has is indexed as it should be (an INSERT
                // OR IGNORE logs those): left alone. A movie with another title than its logged one
                // had its row replaced before version 12's triggers (which take the logged title out
                // themselves): the index holds both titles, so both go out before the current one
                // goes back in (FTS5 pairs each 'delete' with one earlier insert of the rowid).
                let outdated = "SELECT s.id FROM movie_stale s WHERE s.title IS NOT NULL AND s.title IS NOT (SELECT title FROM movies WHERE id = s.id)"
                try db.execute("""
                    INSERT INTO movie_titles (movie_titles, rowid, title)
                    SELECT DISTINCT 'delete', id, \(MovieTitlesTable.indexed("title")) FROM movie_stale WHERE title IS NOT NULL AND id IN (\(outdated)) ORDER BY id;
                    INSERT INTO movie_titles (movie_titles, rowid, title)
                    SELECT 'delete', m.id, \(MovieTitlesTable.indexed("m.title")) FROM movies m WHERE m.id IN (\(outdated)) ORDER BY m.id;
                    INSERT INTO movie_titles (rowid, title)
                    SELECT m.id, \(MovieTitlesTable.indexed("m.title")) FROM movies m WHERE m.id IN (\(outdated)) ORDER BY m.id;
                    DELETE FROM movie_title_exceptions WHERE id IN (\(logged)) AND NOT EXISTS
                        (SELECT 1 FROM movies m WHERE m.id = movie_title_exceptions.id AND \(MovieTitlesTable.hasException("m.title")));
                    """)
                try MovieTitlesTable.addExceptions(db, where: "m.id IN (\(logged))", [])
                try db.execute("RELEASE title_repair")
            } catch let error as DatabaseError where error.code == .corrupt {
                // FTS5 refused a 'delete' that would take its row count or token totals below zero
                // (a title it no longer held): the index is made again from the titles instead.
                try db.execute("ROLLBACK TO title_repair; RELEASE title_repair")
                try CatalogSchema.migrator.get().rerun(Part.titles.migrations, db)
            }
        }
        // A movie REPLACE deleted fired no delete trigger, nor, in the sqlite3 shell, a foreign
        // key's cascade: its genre links go, or the next movie given its id would inherit them.
        try db.execute("DELETE FROM movie_genres WHERE movie_id IN (\(logged)) AND NOT EXISTS (SELECT 1 FROM movies m WHERE m.id = movie_genres.movie_id)")
        if !rebuilt.contains(.facets) {
            try db.execute("DELETE FROM movie_facets WHERE id IN (\(logged)) AND NOT EXISTS (SELECT 1 FROM movies m WHERE m.id = movie_facets.id)")
            try MovieFacetsTable.refresh(db, where: "m.id IN (\(logged))")
        }
        try db.execute("DELETE FROM movie_stale")
    }
}

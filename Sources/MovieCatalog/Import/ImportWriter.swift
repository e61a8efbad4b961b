/// What `import` does when a row's natural key is already in the catalog.
public enum DuplicatePolicy: String, CaseIterable, Sendable {
    case update, skip, fail
}

/// Stores validated rows inside the import's transaction, with reused prepared statements.
final class ImportWriter {
    /// What happened to one row.
    enum Outcome { case inserted, updated, skipped, repeated }

    private let db: Database
    private let policy: DuplicatePolicy
    /// Movies with a larger id were inserted by this import: a match there is a repeat within the input.
    private let maxIDBefore: Int64
    private let lookup: Statement
    private let insertMovie: Statement
    private let insertGenreLink: Statement
    private let deleteGenreLinks: Statement
    private let insertGenre: Statement
    private var updates: [Set<ImportField>: Statement] = [:]
    /// Lower-cased genre code or name -> genre id.
    private var genreIDs: [String: Int64] = [:]
    /// Secondary indexes dropped for a bulk load into an empty catalog, rebuilt by `finish()`.
    private var droppedIndexes: [String] = []

    init(db: Database, policy: DuplicatePolicy, bulkLoad: Bool) throws {
        self.db = db
        self.policy = policy
        maxIDBefore = Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM movies"))
        lookup = try db.prepare("SELECT id, title, year FROM movies WHERE title = ? COLLATE NOCASE AND ifnull(year, 0) = ?", persistent: true)
        insertMovie = try db.prepare("""
            INSERT INTO movies (title, year, rating, duration_minutes, certification) VALUES (?, ?, ?, ?, ?)
            """, persistent: true)
        insertGenreLink = try db.prepare("INSERT OR IGNORE INTO movie_genres (movie_id, genre_id) VALUES (?, ?)", persistent: true)
        deleteGenreLinks = try db.prepare("DELETE FROM movie_genres WHERE movie_id = ?", persistent: true)
        insertGenre = try db.prepare("INSERT INTO genres (code, name) VALUES (?, ?)", persistent: true)
        for (id, code, name) in try db.query("SELECT id, code, name FROM genres", [], { ($0.int64(0), $0.text(1), $0.text(2)) }) {
            genreIDs[name.lowercased()] = id
            genreIDs[code] = id
        }
        if bulkLoad && maxIDBefore == 0 { try dropSecondaryIndexes() }
    }

    /// Stores one row according to the duplicate policy; returns what happened and the movie's id.
    func write(_ row: ImportRow, file: String) throws -> (outcome: Outcome, id: Int64) {
        try lookup.bind([.text(row.title), .integer(Int64(row.year ?? 0))])
        if try lookup.step() {
            let id = lookup.int64(0)
            let existing = "movie \(id) '\(lookup.text(1))'" + (lookup.optionalInt(2).map { " (\($0))" } ?? "")
            lookup.reset()
            let repeated = id > maxIDBefore
            if !repeated {
                switch policy {
                case .skip: return (.skipped, id)
                case .fail:
                    throw CatalogError(.dataError, "\(file):\(row.line): '\(row.title)' is already in the catalog as \(existing) (--on-duplicate fail)")
                case .update: break
                }
            }
            try update(id, with: row)
            return (repeated ? .repeated : .updated, id)
        }
        lookup.reset()
        try insertMovie.bind([.text(row.title), row.year.sqlValue, row.rating.sqlValue,
                              row.durationMinutes.sqlValue, row.certification.sqlValue])
        try insertMovie.step()
        let id = db.lastInsertRowID
        try link(id, to: row.genres)
        return (.inserted, id)
    }

    /// Overwrites the fields the input has; genres are replaced when it has a genres column.
    private func update(_ id: Int64, with row: ImportRow) throws {
        let columns: [(ImportField, String, SQLValue)] = [
            (.title, "title", .text(row.title)), (.year, "year", row.year.sqlValue),
            (.rating, "rating", row.rating.sqlValue), (.duration, "duration_minutes", row.durationMinutes.sqlValue),
            (.certification, "certification", row.certification.sqlValue),
        ].filter { $0.0 == .title || row.present.contains($0.0) }
        let key = Set(columns.map(\.0))
        let statement: Statement
        if let cached = updates[key] {
            statement = cached
        } else {
            let assignments = columns.map { "\($0.1) = ?" }.joined(separator: ", ")
            statement = try db.prepare("""
                UPDATE movies SET \(assignments), updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?
                """, persistent: true)
            updates[key] = statement
        }
        try statement.bind(columns.map(\.2) + [.integer(id)])
        try statement.step()
        if row.present.contains(.genres) {
            try deleteGenreLinks.bind([.integer(id)])
            try deleteGenreLinks.step()
            try link(id, to: row.genres)
        }
    }

    private func link(_ movieID: Int64, to genres: [String]) throws {
        for name in genres {
            let genreID = try genreID(for: name)
            try insertGenreLink.bind([.integer(movieID), .integer(genreID)])
            try insertGenreLink.step()
        }
    }

    /// The id of a genre by code or name; an unknown one is added (code = slug, name as first seen).
    private func genreID(for name: String) throws -> Int64 {
        let key = name.lowercased()
        if let id = genreIDs[key] { return id }
        let code = Genre.slug(name)
        if let id = genreIDs[code] {
            genreIDs[key] = id
            return id
        }
        try insertGenre.bind([.text(code), .text(name)])
        try insertGenre.step()
        let id = db.lastInsertRowID
        genreIDs[key] = id
        genreIDs[code] = id
        return id
    }

    private func dropSecondaryIndexes() throws {
        let indexes = try db.query("""
            SELECT name, sql FROM sqlite_master
             WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('movies', 'movie_genres')
               AND name <> 'movies_natural_key'
            """) { ($0.text(0), $0.text(1)) }
        for (name, sql) in indexes {
            try db.execute("DROP INDEX \"\(name.replacing("\"", with: "\"\""))\"")
            droppedIndexes.append(sql)
        }
    }

    /// Rebuilds any indexes dropped for the bulk load (inside the same transaction).
    func finish() throws {
        for sql in droppedIndexes { try db.execute(sql) }
        droppedIndexes = []
    }
}

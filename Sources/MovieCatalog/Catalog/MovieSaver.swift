import MovieDomain
import SQLiteStore

/// Inserts and updates movies with their genre links, with statements prepared once: the one
/// write path of `add`, `edit` and a row-by-row import.
final class MovieSaver {
    private let db: Database
    /// Genre ids by name; unknown genres are added.
    let genres: GenreResolver
    /// The command's timestamp, bound rather than computed by a column default per row.
    let nowSeconds: Int64
    private let insertMovie: Statement
    private let insertLink: Statement
    private let deleteLinks: Statement
    private let deleteLink: Statement
    private var updates: [MovieFields: (Statement, [MovieField])] = [:]

    init(db: Database) throws {
        self.db = db
        genres = try GenreResolver(db: db)
        nowSeconds = Int64(try db.intScalar("SELECT CAST(strftime('%s', 'now') AS INTEGER)"))
        // A NULL id lets SQLite number the movie.
        insertMovie = try db.prepare(MovieColumns.insertHead + MovieColumns.insertValues, persistent: true)
        insertLink = try db.prepare("INSERT OR IGNORE INTO movie_genres (movie_id, genre_id) VALUES (?, ?)", persistent: true)
        deleteLinks = try db.prepare("DELETE FROM movie_genres WHERE movie_id = ?", persistent: true)
        deleteLink = try db.prepare("DELETE FROM movie_genres WHERE movie_id = ? AND genre_id = ?", persistent: true)
    }

    /// Inserts a movie (its `genres` are names or codes) and returns its id.
    func insert(_ movie: Movie) throws -> Int64 {
        try MovieColumns.bindInsert(movie, id: nil, now: nowSeconds, to: insertMovie, at: 0)
        try insertMovie.step()
        insertMovie.reset(clearingBindings: false)
        let id = db.lastInsertRowID
        try link(id, to: movie.genres)
        return id
    }

    /// Sets movie `id`'s stored fields in `fields` from `movie` (a nil value clears one); its
    /// genres are replaced when `fields` has `.genres`. Returns false when there is no such movie.
    @discardableResult
    func update(_ id: Int64, from movie: Movie, fields: MovieFields) throws -> Bool {
        let (statement, columns) = try updateStatement(for: fields)
        for (offset, field) in columns.enumerated() {
            try MovieColumns.bind(movie[field], to: statement, at: Int32(offset + 1))
        }
        try statement.bind(Int64?(nowSeconds), at: Int32(columns.count + 1))
        try statement.bind(Int64?(id), at: Int32(columns.count + 2))
        try statement.step()
        statement.reset()
        guard db.changes > 0 else { return false }
        if fields.contains(.genres) {
            try deleteLinks.bind([.integer(id)])
            try deleteLinks.step()
            try link(id, to: movie.genres)
        }
        return true
    }

    /// Links movie `id` to genres by name or code (adding unknown ones); existing links stay.
    func link(_ id: Int64, to names: [String]) throws {
        for name in names {
            try insertLink.bind(.integer(id), at: 1)
            try insertLink.bind(.integer(try genres.id(for: name)), at: 2)
            try insertLink.step()
            insertLink.reset()
        }
    }

    /// Removes movie `id`'s link to a genre, by id.
    func unlink(_ id: Int64, genre: Int64) throws {
        try deleteLink.bind([.integer(id), .integer(genre)])
        try deleteLink.step()
    }

    /// The UPDATE for one set of fields, prepared once per set (an input has one or few).
    private func updateStatement(for fields: MovieFields) throws -> (Statement, [MovieField]) {
        if let cached = updates[fields] { return cached }
        // Column names come from MovieField, never from input.
        let columns = MovieField.stored.filter { fields.contains($0) }
        let assignments = (columns.map { "\($0.column!) = ?" } + ["updated_at = ?"]).joined(separator: ", ")
        // OR FAIL: one row, so it changes what ABORT would, but needs no statement journal. With
        // ABORT every update (it has triggers) saved its pages to one; once a big statement in
        // the transaction had made that a file, that was two writes a row (IMDb's ratings: 2.9M
        // pwrite calls, 4.9 s instead of 2.8 s). Any error rolls back the whole transaction.
        let statement = try db.prepare("UPDATE OR FAIL movies SET \(assignments) WHERE id = ?", persistent: true)
        updates[fields] = (statement, columns)
        return (statement, columns)
    }
}

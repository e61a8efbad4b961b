import MovieDomain
import SQLiteStore

/// What `edit` changes on each movie.
public struct MovieChanges: Sendable, Equatable {
    /// Stored fields to set, and their new values (`.null` clears one).
    public var values: [MovieField: FieldValue] = [:]
    /// The genres to replace the movie's with, if given.
    public var genres: [String]?
    /// Genres to add.
    public var addGenres: [String] = []
    /// Genres to remove.
    public var removeGenres: [String] = []

    /// No changes.
    public init() {}

    /// Whether nothing would change.
    public var isEmpty: Bool { values.isEmpty && genres == nil && addGenres.isEmpty && removeGenres.isEmpty }
}

/// Adding, editing and removing single movies.
extension Catalog {
    /// Adds one validated movie (its genres by name or code; unknown ones are added). A movie
    /// it already is (SPEC section 4: by IMDb id, else title and year) is an error naming it.
    /// Returns its id and the genres the catalog did not know. `beforeCommit` is told the id
    /// while the movie can still be taken back: an error it throws (its output could not be
    /// written) adds nothing.
    @discardableResult
    public func add(_ movie: Movie, beforeCommit: (Int64) throws -> Void = { _ in }) throws -> (id: Int64, addedGenres: [Genre]) {
        try db.transaction {
            let identity = try MovieIdentity(db: db)
            switch try identity.match(movie) {
            case .none: break
            case .movie(let id, _):
                throw CatalogError(.alreadyExists, "\(movie.title.quotedForMessage) is already in the catalog as \(try identity.describe(id))")
            case .ambiguous(let movies):
                throw CatalogError(.alreadyExists, "\(movie.title.quotedForMessage) is already in the catalog as movies \(movies); give --imdb to add another film of that title and year")
            }
            let saver = try MovieSaver(db: db)
            let id = try saver.insert(movie)
            try FacetTotals.fill(db)
            try beforeCommit(id)
            return (id, saver.genres.added)
        }
    }

    /// Changes movies by id, all in one transaction: a missing id, or a change that would give
    /// two movies one natural key or IMDb id, is an error and changes nothing. Returns the
    /// genres the catalog did not know.
    @discardableResult
    public func edit(ids: [Int64], _ changes: MovieChanges) throws -> [Genre] {
        try db.transaction {
            let saver = try MovieSaver(db: db)
            let removed = try changes.removeGenres.map { name -> Int64 in
                guard let genre = saver.genres.known.resolve(name) else {
                    let hint = Suggestion.nearest(to: name, in: saver.genres.known.codes).map { "; did you mean '\($0)'?" } ?? ""
                    throw CatalogError(.usage, "unknown genre \(name.quotedForMessage) for '--remove-genre'\(hint)")
                }
                return genre.id
            }
            var fields = MovieFields(changes.values.keys)
            if changes.genres != nil { fields.insert(.genres) }
            for id in ids {
                guard var movie = try self.movie(id: id) else { throw CatalogError(.notFound, "no movie with id \(id)") }
                for (field, value) in changes.values { movie[field] = value }
                if let genres = changes.genres { movie.genres = genres }
                try checkUnique(movie, identityChanged: [.title, .year, .imdbID].contains(where: fields.contains))
                try saver.update(id, from: movie, fields: fields)
                try saver.link(id, to: changes.addGenres)
                for genre in removed { try saver.unlink(id, genre: genre) }
            }
            try FacetTotals.fill(db)
            return saver.genres.added
        }
    }

    /// Refuses values that would give `movie` another movie's natural key or IMDb id, or, when
    /// its title, year or IMDb id change, the title and year of a movie that rows would then not
    /// tell from it (SPEC section 4: two movies share a title and year only with different IMDb
    /// ids; one without an id and one with would make a row of that title and year ambiguous, and
    /// `add` refuses it too).
    private func checkUnique(_ movie: Movie, identityChanged: Bool) throws {
        let identity = try MovieIdentity(db: db)
        if let imdbID = movie.imdbID,
           let other = try db.scalar("SELECT id FROM movies WHERE imdb_id = ? AND id <> ?", [.text(imdbID), .integer(movie.id)]),
           case .integer(let otherID) = other {
            throw CatalogError(.alreadyExists, "movie \(movie.id) cannot take IMDb id \(imdbID): \(try identity.describe(otherID)) has it")
        }
        let imdbID: SQLValue = movie.imdbID.map { .text($0) } ?? .null
        let sameOrUntold = identityChanged ? "NOT (imdb_id IS NOT NULL AND ?3 IS NOT NULL AND imdb_id <> ?3)" : "ifnull(imdb_id, '') = ifnull(?3, '')"
        let other = try db.scalar("""
            SELECT id FROM movies WHERE title = ?1 COLLATE NOCASE AND ifnull(year, 0) = ?2 AND \(sameOrUntold) AND id <> ?4 ORDER BY id LIMIT 1
            """, [.text(movie.title), .integer(Int64(movie.year ?? 0)), imdbID, .integer(movie.id)])
        if case .integer(let otherID)? = other {
            throw CatalogError(.alreadyExists, "movie \(movie.id) would have the title and year of \(try identity.describe(otherID))")
        }
    }

    /// The stored movie with this id, genres as codes.
    public func movie(id: Int64) throws -> Movie? {
        try db.query("SELECT \(MovieColumns.select) FROM movies m WHERE m.id = ?", [.integer(id)]) {
            try MovieColumns.movie(from: $0)
        }.first
    }

    /// Removes movies by id, all or none; a missing id is an error (exit 1) naming the first.
    public func remove(ids: [Int64]) throws {
        // One statement for them all, the ids bound as one JSON array: a statement each made the
        // title index write a segment each (5,001 movies of 9.5M: 28 s, now 0.8 s).
        let list = SQLValue.text("[" + ids.map(String.init).joined(separator: ",") + "]")
        try db.transaction {
            let found = Set(try db.query("SELECT id FROM movies WHERE id IN (SELECT value FROM json_each(?))", [list]) { try $0.int64(0) })
            if let missing = ids.first(where: { !found.contains($0) }) { throw CatalogError(.notFound, "no movie with id \(missing)") }
            try db.run("DELETE FROM movies WHERE id IN (SELECT value FROM json_each(?))", [list])
            try FacetTotals.fill(db)
        }
    }
}

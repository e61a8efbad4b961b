import MovieDomain
import SQLiteStore
/// Which stored movie a row is (SPEC section 4), with the lookups prepared once.
///
/// A row with an IMDb id is the movie with that id; else the one movie with its title and year
/// and no id (which then gets the id); else a new movie. A row without an id is the movie with
/// its title and year when exactly one has them; several (with different ids) make it ambiguous.
final class MovieIdentity {
    /// What a row matched.
    enum Match: Equatable {
        /// No stored movie: the row is a new one.
        case none
        /// Stored movie `id`; `attach` when the row's IMDb id is to be given to it (it has none).
        case movie(id: Int64, attach: Bool)
        /// Several stored movies share the row's title and year: `12 (tt0040416) and 40 (tt0040417)`.
        case ambiguous(movies: String)
    }

    private let db: Database
    private let byIMDbID: Statement
    private let byTitleWithoutID: Statement
    private let byTitle: Statement
    private let describing: Statement

    init(db: Database) throws {
        self.db = db
        byIMDbID = try db.prepare("SELECT id FROM movies WHERE imdb_id = ?", persistent: true)
        // The natural-key index answers both: title and year are its leading terms.
        byTitleWithoutID = try db.prepare("""
            SELECT id FROM movies WHERE title = ? COLLATE NOCASE AND ifnull(year, 0) = ? AND ifnull(imdb_id, '') = ''
            """, persistent: true)
        byTitle = try db.prepare("""
            SELECT id, imdb_id FROM movies WHERE title = ? COLLATE NOCASE AND ifnull(year, 0) = ? ORDER BY id LIMIT 3
            """, persistent: true)
        describing = try db.prepare("SELECT title, year, imdb_id FROM movies WHERE id = ?", persistent: true)
    }

    /// The stored movie a row with these values is.
    func match(_ movie: Movie) throws -> Match {
        let year = Int64(movie.year ?? 0)
        if let imdbID = movie.imdbID {
            // Typed: an update-only input (IMDb's ratings) asks this of every row.
            try byIMDbID.bind(imdbID, at: 1)
            defer { byIMDbID.reset(clearingBindings: false) }
            if try byIMDbID.step() { return .movie(id: try byIMDbID.int64(0), attach: false) }
            // An update-only row (no title) is found by its id or not at all.
            if movie.title.isEmpty { return .none }
            if let id = try firstID(byTitleWithoutID, [.text(movie.title), .integer(year)]) { return .movie(id: id, attach: true) }
            return .none
        }
        try byTitle.bind([.text(movie.title), .integer(year)])
        defer { byTitle.reset() }
        var found: [(id: Int64, imdbID: String?)] = []
        while try byTitle.step() { found.append((try byTitle.int64(0), byTitle.optionalText(1))) }
        switch found.count {
        case 0: return .none
        case 1: return .movie(id: found[0].id, attach: false)
        default:
            let listed = found.prefix(2).map { "\($0.id) (\($0.imdbID ?? "no IMDb id"))" }.joined(separator: " and ")
            return .ambiguous(movies: listed + (found.count > 2 ? " and others" : ""))
        }
    }

    /// `movie 12 'Heat' (1995)` for messages.
    func describe(_ id: Int64) throws -> String {
        try describing.bind([.integer(id)])
        defer { describing.reset() }
        guard try describing.step() else { return "movie \(id)" }
        let year = describing.optionalInt(1).map { " (\($0))" } ?? ""
        let imdb = describing.optionalText(2).map { ", \($0)" } ?? ""
        return "movie \(id) \(try describing.text(0).quotedForMessage)\(year)\(imdb)"
    }

    private func firstID(_ statement: Statement, _ arguments: [SQLValue]) throws -> Int64? {
        try statement.bind(arguments)
        defer { statement.reset() }
        return try statement.step() ? try statement.int64(0) : nil
    }
}

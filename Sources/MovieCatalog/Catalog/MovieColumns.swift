import MovieDomain
import SQLiteStore
/// The `movies` columns as SQL: the lists INSERT, UPDATE and SELECT use, and how a movie's
/// values are bound and read, all from `MovieField`.
///
/// Column names come from that closed table, never from input.
enum MovieColumns {
    /// `title, year, ...`: the stored columns in order.
    static let names = MovieField.stored.map { $0.column! }.joined(separator: ", ")

    /// The number of parameters of one `insertValues` group.
    static let insertWidth = MovieField.stored.count + 3

    /// The scratch tables' extra column, after the movies' columns: the genres' bit set.
    static let genreBits = "genres"

    /// `INSERT INTO movies (id, <columns>, added_at, updated_at)` without its VALUES.
    static let insertHead = insertHead(into: "movies")

    /// The same for another table with the columns of `movies` (`tableSQL`'s), and an `extra`
    /// column (a fixed name) after them.
    static func insertHead(into table: String, extra: String? = nil) -> String {
        "INSERT INTO \(table) (id, \(names), added_at, updated_at\(extra.map { ", " + $0 } ?? "")) VALUES "
    }

    /// The columns of a scratch table that holds movie rows as `insertHead` writes them, with
    /// `genreBits` after them.
    static let tableSQL = "(id INTEGER PRIMARY KEY, \(names), added_at, updated_at, \(genreBits) INTEGER NOT NULL)"

    /// One `(?, ?, ...)` group of an insert, with `extra` parameters after the row's.
    static func insertValues(extra: Int = 0) -> String {
        "(" + Array(repeating: "?", count: insertWidth + extra).joined(separator: ", ") + ")"
    }

    /// One `(?, ?, ...)` group of an insert.
    static let insertValues = insertValues()

    /// `m.id, m.title, ..., genres`: a movie row for `movie(from:)`; genres as `|`-joined sorted codes.
    static let select = "m.id, " + MovieField.stored.map { "m.\($0.column!)" }.joined(separator: ", ") + """
        , (SELECT group_concat(code, '|') FROM (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id \
        WHERE mg.movie_id = m.id ORDER BY g.code)) AS genres
        """

    /// Reads one row of `select`.
    static func movie(from row: Statement) throws -> Movie {
        var movie = Movie(id: try row.int64(0), title: "")
        for (offset, field) in MovieField.stored.enumerated() {
            movie[field] = fieldValue(row.value(Int32(offset + 1)))
        }
        let genres = Int32(MovieField.stored.count + 1)
        // Split at the bytes: `String.split` broke the text into characters (some 5,700
        // instructions a movie exported).
        movie.genres = row.withText(genres) { bytes in
            bytes.map { $0.split(separator: UInt8(ascii: "|")).map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) } } ?? []
        }
        return movie
    }

    /// Binds a movie's stored columns, `id`, and the timestamps as one `insertValues` group after
    /// parameter `offset` (typed binds: no `SQLValue` per value).
    static func bindInsert(_ movie: Movie, id: Int64?, now: Int64, to statement: Statement, at offset: Int32,
                           arena: TextArena? = nil) throws {
        try statement.bind(id, at: offset + 1)
        var index = offset + 2
        for field in MovieField.stored {
            try bind(field, of: movie, to: statement, at: index, arena: arena)
            index += 1
        }
        try statement.bind(now, at: index)
        try statement.bind(now, at: index + 1)
    }

    /// Binds one field of a movie with a typed bind: the bulk path's per-value work, so it
    /// reads the property itself rather than boxing it in a `FieldValue`.
    @inline(__always)
    static func bind(_ field: MovieField, of movie: Movie, to statement: Statement, at index: Int32,
                     arena: TextArena? = nil) throws {
        switch field {
        case .title: try bindText(movie.title, to: statement, at: index, arena: arena)
        case .year: try statement.bind(movie.year.map(Int64.init), at: index)
        case .rating: try statement.bind(movie.rating, at: index)
        case .votes: try statement.bind(movie.votes.map(Int64.init), at: index)
        case .duration: try statement.bind(movie.durationMinutes.map(Int64.init), at: index)
        case .certification: try bindText(movie.certification, to: statement, at: index, arena: arena)
        case .imdbID: try bindText(movie.imdbID, to: statement, at: index, arena: arena)
        case .genres: try statement.bind(nil as Int64?, at: index)
        }
    }

    @inline(__always)
    private static func bindText(_ text: String?, to statement: Statement, at index: Int32, arena: TextArena?) throws {
        guard let text else { return try statement.bind(nil as Int64?, at: index) }
        if let arena { try statement.bind(text, at: index, keptIn: arena) } else { try statement.bind(text, at: index) }
    }

    /// Binds one field's value.
    static func bind(_ value: FieldValue, to statement: Statement, at index: Int32) throws {
        switch value {
        case .null, .list: try statement.bind(nil as Int64?, at: index)
        case .text(let text): try statement.bind(text, at: index)
        case .integer(let n): try statement.bind(Int64(n), at: index)
        case .real(let d): try statement.bind(d, at: index)
        }
    }

    /// A column value as a field value.
    static func fieldValue(_ value: SQLValue) -> FieldValue {
        switch value {
        case .null: return .null
        case .integer(let n): return .integer(Int(n))
        case .real(let d): return .real(d)
        case .text(let s): return .text(s)
        // Statement.value reads a BLOB as text; one given here is read the same way.
        case .blob(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A field value as a bound SQL value.
    static func sqlValue(_ value: FieldValue) -> SQLValue {
        switch value {
        case .null, .list: return .null
        case .integer(let n): return .integer(Int64(n))
        case .real(let d): return .real(d)
        case .text(let s): return .text(s)
        }
    }
}

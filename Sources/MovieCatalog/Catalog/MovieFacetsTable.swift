import MovieDomain
import SQLiteStore

/// `movie_facets` (schema version 4): each movie's facet values in a narrow row, with its genres
/// as a bit set, so the filter list is counted in one scan. Triggers in the migration keep it
/// exact under every write; a bulk import drops them and writes the rows itself.
enum MovieFacetsTable {
    /// The stored fields it copies, with its column for each.
    static let fields: [(field: MovieField, column: String)] = [
        (.rating, "rating"), (.duration, "minutes"), (.year, "year"), (.certification, "certification"), (.votes, "votes"),
    ]

    /// The bit that stands for genres with larger ids (counted from movie_genres instead).
    static let overflowBit: Int64 = 1 << 62

    /// The genre ids with a bit of their own; any other id (over 62 genres, or a sqlite3 user's
    /// 0 or negative id) sets the overflow bit.
    static let genreIDsWithBits: ClosedRange<Int64> = 1...62

    /// The bit of a genre id: `1 << (id - 1)` for ids 1...62, else the overflow bit.
    static func bit(ofGenre id: Int64) -> Int64 { genreIDsWithBits.contains(id) ? 1 << (id - 1) : overflowBit }

    /// The bit set of movie `id`'s genres, as SQL (the migration's triggers compute the same), from
    /// `links` (a fixed name: movie_genres, or a table with its columns).
    static func maskSQL(of id: String, in links: String = "movie_genres") -> String {
        "(ifnull((SELECT sum(1 << (genre_id - 1)) FROM \(links) WHERE movie_id = \(id) AND genre_id BETWEEN \(bitRange)), 0)"
            + " | (EXISTS (SELECT 1 FROM \(links) WHERE movie_id = \(id) AND genre_id NOT BETWEEN \(bitRange)) << 62))"
    }

    /// Whether some movie has a genre without a bit of its own (the bits alone then cannot count
    /// genres): two probes of movie_genres' genre index.
    static func hasGenresWithoutBits(_ db: Database) throws -> Bool {
        try db.intScalar("""
            SELECT EXISTS (SELECT 1 FROM movie_genres WHERE genre_id > \(genreIDsWithBits.upperBound))
                OR EXISTS (SELECT 1 FROM movie_genres WHERE genre_id < \(genreIDsWithBits.lowerBound))
            """) == 1
    }

    private static let bitRange = "\(genreIDsWithBits.lowerBound) AND \(genreIDsWithBits.upperBound)"

    /// movie_facets with its columns named as in movies (SQLite flattens it into the outer
    /// query), so conditions written for `movies m` run on it.
    static let asMovies = "SELECT id, genres, " + fields.map { "\($0.column) AS \($0.field.column!)" }.joined(separator: ", ")
        + " FROM movie_facets"

    /// movie_facets' column for a field it copies.
    static func column(of field: MovieField) -> String {
        fields.first { $0.field == field }!.column
    }

    /// Conditions over `movie_facets f`, genres as bits of its mask (`bits` by genre code).
    static func conditionColumns(genreBits bits: [String: Int64]) -> ConditionColumns {
        ConditionColumns(alias: "f", column: column(of:), genreBits: bits, genreMask: "f.genres")
    }

    /// `INSERT INTO movie_facets (id, genres, <columns>) VALUES ` without its value groups.
    static let insertHead = "INSERT INTO movie_facets (id, genres, "
        + fields.map(\.column).joined(separator: ", ") + ") VALUES "

    /// One `(?, ?, ...)` group of `insertHead`.
    static let insertValues = "(" + Array(repeating: "?", count: fields.count + 2).joined(separator: ", ") + ")"

    /// Rewrites the rows of the movies `condition` (over `movies m`) selects, from `movies` and
    /// `movie_genres`: after a bulk load changed them with the triggers off.
    static func refresh(_ db: Database, where condition: String) throws {
        let columns = fields.map { "m.\($0.field.column!)" }.joined(separator: ", ")
        try db.execute("""
            INSERT OR REPLACE INTO movie_facets (id, genres, \(fields.map(\.column).joined(separator: ", ")))
            SELECT m.id, \(maskSQL(of: "m.id")), \(columns) FROM movies m WHERE \(condition)
            """)
    }

    /// Binds a movie's facet row after parameter `offset`: its id (nil: SQLite's next), genre bits and values.
    static func bind(_ movie: Movie, id: Int64?, genres: Int64, to statement: Statement, at offset: Int32,
                     arena: TextArena? = nil) throws {
        try statement.bind(id, at: offset + 1)
        try statement.bind(genres, at: offset + 2)
        for (index, entry) in fields.enumerated() {
            try MovieColumns.bind(entry.field, of: movie, to: statement, at: offset + 3 + Int32(index), arena: arena)
        }
    }

    /// Drops movie_facets' indexes (the sort keys') on any of `columns`, returning their
    /// definitions to rebuild them.
    static func dropIndexes(_ db: Database, on columns: Set<String>) throws -> [(name: String, sql: String)] {
        try db.dropSchemaObjects("index", on: ["movie_facets"]) { index in
            try db.query("SELECT name FROM pragma_index_info(?)", [.text(index.name)]) { try $0.text(0) }.contains(where: columns.contains)
        }
    }

    /// The trigger on `movies` that copies updated values into movie_facets (0004's).
    static let updateTrigger = "movie_facets_update"

    /// Copies the values of `fields` from movies into the facet rows of the movies `condition`
    /// (over `movies m`) selects, in one pass in id order: after updates ran without the update
    /// trigger. Only those columns are written, so only their indexes move.
    static func copy(_ db: Database, _ fields: [MovieField], where condition: String, _ bindings: [SQLValue]) throws {
        let assignments = self.fields.filter { fields.contains($0.field) }.map { "\($0.column) = m.\($0.field.column!)" }
        guard !assignments.isEmpty else { return }
        try db.run("UPDATE movie_facets AS f SET \(assignments.joined(separator: ", ")) FROM movies m WHERE m.id = f.id AND \(condition)",
                   bindings)
    }

    /// The smallest and largest ids of movie_facets, or nil when it is empty.
    static func idBounds(_ db: Database) throws -> ClosedRange<Int64>? {
        // Two subqueries: each is one index probe (a min and a max together would scan).
        let bounds = try db.query("SELECT (SELECT min(id) FROM movie_facets), (SELECT max(id) FROM movie_facets)") {
            ($0.optionalInt(0).map(Int64.init), $0.optionalInt(1).map(Int64.init))
        }
        guard let first = bounds.first, let low = first.0, let high = first.1 else { return nil }
        return low...high
    }

    /// The number of rows where movie_facets differs from what movies and movie_genres say
    /// (0 when it is exact): for tests and checks.
    static func mismatches(_ db: Database) throws -> Int {
        let columns = fields.map(\.column).joined(separator: ", ")
        let derived = "SELECT m.id, \(maskSQL(of: "m.id")), " + fields.map { "m.\($0.field.column!)" }.joined(separator: ", ") + " FROM movies m"
        return try db.intScalar("""
            SELECT (SELECT count(*) FROM (SELECT id, genres, \(columns) FROM movie_facets EXCEPT \(derived)))
                 + (SELECT count(*) FROM (\(derived) EXCEPT SELECT id, genres, \(columns) FROM movie_facets))
            """)
    }
}

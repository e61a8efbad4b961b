/// A movie's fields, in output order: the one table of the `movies` columns.
///
/// INSERT, UPDATE and SELECT column lists, import aliases, JSON and CSV names and table headers
/// all come from here; a new column is a new case (the compiler then points at the few
/// switches that give its value).
public enum MovieField: Int, CaseIterable, Sendable, Comparable {
    case title, year, genres, rating, votes, duration, certification, imdbID

    /// What the rest of the code needs to know about a field.
    struct Facts {
        /// The column in `movies`, or nil (genres live in `movie_genres`).
        let column: String?
        /// The key in JSON objects and the CSV/TSV header.
        let outputName: String
        /// The column title in tables.
        let header: String
        /// Input column names and JSON keys that feed the field (any case), besides its name.
        let aliases: [String]
        /// Whether table cells are right-aligned (numbers).
        let rightAligned: Bool
    }

    private var facts: Facts {
        switch self {
        case .title: return Facts(column: "title", outputName: "title", header: "Title",
                                  aliases: ["primaryTitle", "movie title", "film title", "film", "movie", "series title"], rightAligned: false)
        case .year: return Facts(column: "year", outputName: "year", header: "Year",
                                 aliases: ["startYear", "release year", "movie release year", "year released", "released year", "title year", "release date"], rightAligned: true)
        case .genres: return Facts(column: nil, outputName: "genres", header: "Genres",
                                   aliases: ["genre", "genre(s)"], rightAligned: false)
        case .rating: return Facts(column: "rating", outputName: "rating", header: "Rating",
                                   aliases: ["averageRating", "imdb rating", "imdbRating", "imdb score", "avg vote", "score"], rightAligned: true)
        case .votes: return Facts(column: "votes", outputName: "votes", header: "Votes",
                                  aliases: ["numVotes", "num votes", "vote count", "imdb votes", "imdbVotes", "no of votes", "num voted users"], rightAligned: true)
        case .duration: return Facts(column: "duration_minutes", outputName: "duration_minutes", header: "Duration",
                                     aliases: ["runtime", "runtimeMinutes", "length", "duration minutes", "runtime (mins)", "running time", "minutes"], rightAligned: false)
        case .certification: return Facts(column: "certification", outputName: "certification", header: "Certification",
                                          aliases: ["mpaa", "certificate", "rated", "content rating", "contentRating", "mpaa rating", "age rating"], rightAligned: false)
        case .imdbID: return Facts(column: "imdb_id", outputName: "imdb_id", header: "IMDb",
                                   aliases: ["tconst", "imdb", "imdbId", "imdb url", "imdb link", "imdb title id", "movie imdb link"], rightAligned: false)
        }
    }

    /// The field's name, as `--map` and messages write it (`duration`).
    public var name: String {
        switch self {
        case .title: return "title"
        case .year: return "year"
        case .genres: return "genres"
        case .rating: return "rating"
        case .votes: return "votes"
        case .duration: return "duration"
        case .certification: return "certification"
        case .imdbID: return "imdb_id"
        }
    }

    /// The field with this name, ignoring case.
    public init?(named name: String) {
        guard let field = MovieField.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = field
    }

    /// The column in `movies`, or nil for genres.
    public var column: String? { facts.column }
    /// The key in JSON output and the CSV/TSV header.
    public var outputName: String { facts.outputName }
    /// The column title in tables.
    public var header: String { facts.header }
    /// A movie's names in JSON objects and in CSV and TSV headers, in order: `id`, then each field's.
    public static let recordNames = ["id"] + allCases.map(\.outputName)
    /// Names that feed the field on import: its name and its aliases.
    public var aliases: [String] { [name] + facts.aliases }
    /// Whether table cells are right-aligned.
    public var rightAligned: Bool { facts.rightAligned }

    /// The fields stored as `movies` columns, in column order.
    public static let stored: [MovieField] = allCases.filter { $0.column != nil }

    /// Field order (output order).
    public static func < (a: MovieField, b: MovieField) -> Bool { a.rawValue < b.rawValue }
}

/// A set of fields as a bitmask (checked for every imported row, so no hashing).
public struct MovieFields: Hashable, Sendable, ExpressibleByArrayLiteral, Sequence {
    private var bits: UInt32 = 0

    /// Creates an empty set.
    public init() {}
    /// Creates a set of the given fields.
    public init(_ fields: some Sequence<MovieField>) { for field in fields { insert(field) } }
    /// Creates a set from an array literal of fields.
    public init(arrayLiteral fields: MovieField...) { self.init(fields) }

    /// Every field.
    public static var all: MovieFields { MovieFields(MovieField.allCases) }

    /// Whether the set holds `field`.
    public func contains(_ field: MovieField) -> Bool { bits & (1 << field.rawValue) != 0 }
    /// Adds `field` to the set.
    public mutating func insert(_ field: MovieField) { bits |= 1 << field.rawValue }
    /// Removes `field` from the set.
    public mutating func remove(_ field: MovieField) { bits &= ~(1 << field.rawValue) }

    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[MovieField]> {
        MovieField.allCases.filter(contains).makeIterator()
    }
}

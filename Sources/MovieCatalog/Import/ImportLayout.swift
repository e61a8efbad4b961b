import MovieDomain
import SQLiteStore
/// A known layout of a published movie list (SPEC section 7), as data: how it is recognised,
/// which columns feed which fields, which rows it keeps by default, and its value rules.
///
/// The next layout is one more entry in `all`.
public struct ImportLayout: Sendable, Equatable {
    /// The name `--layout` takes (`imdb-basics`).
    public let name: String
    /// How the report names it (`IMDb title.basics layout`).
    public let title: String
    /// Recognised when the header has all of these (any case)...
    let keyColumns: [String]
    /// ...and none of these.
    let absentColumns: [String]
    /// Column -> field. A layout's mapping replaces the plain aliases: its other columns
    /// (a Letterboxd `Rating`, the user's own stars) are ignored.
    let mapping: [(column: String, field: MovieField)]
    /// Rows kept by default: column -> allowed values (`--where` overrides per column).
    let defaultWhere: [(column: String, values: [String])]
    /// Value rules applied to its cells before validation.
    let rules: [ValueRule]
    /// Why the input holds no movies (IMDb's other datasets), when it does not: it is skipped,
    /// not read as titles (title.akas has a `title` column) or as updates (title.crew a `tconst`).
    var notMovies: String? = nil
    /// Whether rows whose title names a series' episode (Netflix's `Show: Season 1: Pilot`) are
    /// left out, counted as filtered.
    var leavesOutEpisodes = false

    /// Whether `title` names an episode as Netflix writes one: two or more `: ` and a part after
    /// the first that starts as a season, series, volume, part, book, chapter, collection or
    /// episode does (`Dune: Part Two`, one `: `, is a film).
    static func isEpisode(_ title: String) -> Bool {
        let parts = title.split(separator: ": ", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return false }
        return parts.dropFirst().contains { part in
            episodeWords.contains { part.hasPrefix($0 + " ") || part == $0 }
        }
    }

    private static let episodeWords = ["Season", "Series", "Limited Series", "Miniseries", "Volume", "Part", "Book", "Chapter",
                                       "Collection", "Episode"]

    /// A value rule of a layout.
    enum ValueRule: Sendable, Equatable {
        /// MovieLens: the title's trailing `(1995)` is the year, and a trailing article (`, The`,
        /// `, La`, `, Das`...) of the rest and of each parenthesised alternative title moves to the front.
        case yearInTitle
        /// A list of no known layout and no year column or key: a title's trailing `(1995)`
        /// is the year (`Heat (1995)`, as people write both in one cell).
        case yearAfterTitle
        /// A genres cell of exactly this text means no genres (`(no genres listed)`).
        case noGenres(String)
        /// A value of `0` means none known (IMDb's runtime of a title nobody timed): a movie of
        /// 0 minutes is refused, and one such row would stop a whole dataset's import.
        case zeroIsUnknown(MovieField)
        /// Genres given as numbers (TMDB's `genre_ids`), named by this table; others left out.
        case genreIDs([String: String])
        /// A duration given in seconds (Kodi) or milliseconds (Plex): this many make a minute.
        case durationUnits(perMinute: Int)
        /// A certification written after a word (Kodi's `Rated PG-13`).
        case certificationAfter(String)
        /// An IMDb id cell that is not `tt` and digits is another site's id: none.
        case imdbIDsOnly
        /// Ids of several sites (`imdb://tt1375666`, `tmdb://27205`), as a list or joined by `;`:
        /// the IMDb one, else none.
        case imdbIDFromGuids
        /// A certification cell holding minutes (`74 min`, a row shifted a column) is the
        /// duration, when none is given.
        case minutesInCertification
        /// Genre names (as slugs) read as other genres (comma-separated codes) or as none (``).
        case genreNames([String: String])
        /// MovieLens: the movieId read as the IMDb id is looked up in links.csv's ids (none when
        /// it has no link).
        case movieLensLinks([String: String])
    }

    public static func == (a: ImportLayout, b: ImportLayout) -> Bool { a.name == b.name }

    /// Whether the layout reads IMDb ids through a links.csv (`linked`).
    var readsLinks: Bool { rules.contains { if case .movieLensLinks = $0 { true } else { false } } }

    /// The movielens layout reading each film's IMDb id from links.csv's `links` by its movieId.
    func linked(_ links: [String: String]) -> ImportLayout {
        ImportLayout(name: name, title: title + " (IMDb ids from links.csv)", keyColumns: keyColumns, absentColumns: absentColumns,
                     mapping: mapping + [("movieId", .imdbID)], defaultWhere: defaultWhere,
                     rules: rules + [.movieLensLinks(links)], notMovies: notMovies, leavesOutEpisodes: leavesOutEpisodes)
    }

    /// Every layout's name, once each (Trakt's is recognised by several first records).
    public static var names: [String] {
        all.map(\.name).reduce(into: []) { names, name in if !names.contains(name) { names.append(name) } }
    }

    /// The layout named `name` (any case).
    public static func named(_ name: String) -> ImportLayout? {
        all.first { $0.name == name.lowercased() }
    }

    /// The layout a header has: the first whose key columns are all there (and absent ones not).
    static func recognise(_ header: [String]) -> ImportLayout? {
        let names = Set(header.map { $0.trimmingWhitespace().lowercased() })
        return all.first { layout in
            layout.keyColumns.allSatisfy { names.contains($0.lowercased()) }
                && !layout.absentColumns.contains { names.contains($0.lowercased()) }
        }
    }
}

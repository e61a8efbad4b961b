import MovieDomain
/// The rows of a list of no known layout that are not films, told by a column naming each row's
/// kind (`type`, `media_type`: `movie`, `tv`, `episode`), as services' exports and trackers'
/// lists mix shows, episodes, games and books in. Only kinds that are surely no film are left
/// out: a `Type` of `DVD` or `Drama` (a sheet's own use of the word) keeps its row.
enum RowKinds {
    /// Column names (compared as fields' are: any case, `_` as a space) that name a row's kind.
    static let columnNames: Set<String> = ["type", "media type", "entity type", "content type", "title type", "item type", "kind"]
    /// Of those, the ones that name a medium: their `tv` is a show (TMDB's and trackers' `tv`),
    /// where a plain `Type` of `TV` may say where a film was watched (Cinema, TV, Streaming).
    static let mediumColumnNames: Set<String> = ["media type", "entity type", "content type", "item type"]

    /// Kinds that are no film, ASCII case ignored.
    static let notFilms = ["tv show", "tv shows", "tvshow", "show", "shows", "series", "tv series", "tvseries",
                           "tv mini series", "tv mini-series", "tvminiseries", "miniseries", "mini-series", "limited series",
                           "web series", "podcast series", "documentary series", "docuseries",
                           "episode", "episodes", "tv episode", "tvepisode", "season", "seasons", "serie", "serie tv",
                           "game", "video game", "videogame", "book", "books", "manga", "comic", "podcast", "person", "people"]

    /// The index of the kind column in `names` (a header, or a JSON record's keys), when no
    /// layout reads the input, none was turned off, and no `--where` names that column.
    static func column(in names: [String], layout: ImportLayout?, options: ImportOptions) -> Int? {
        guard layout == nil, options.layout == .automatic else { return nil }
        return names.firstIndex { isKindColumn($0, options: options) }
    }

    /// Whether `name` names a row's kind, and no `--where` names it.
    static func isKindColumn(_ name: String, options: ImportOptions) -> Bool {
        let folded = FieldMapping.folded(name.trimmingWhitespace())
        return columnNames.contains(folded) && !options.wheres.contains { FieldMapping.folded($0.column) == folded }
    }

    /// The condition that leaves out rows whose `name` column is a kind of no film.
    static func condition(column: Int, name: String) -> RowCondition {
        let medium = mediumColumnNames.contains(FieldMapping.folded(name.trimmingWhitespace()))
        return RowCondition(column: column, name: name, values: notFilms + (medium ? ["tv"] : []), given: false, excludes: true)
    }

    /// How the report says that `count` rows were left out by their `name` column (quoted for a
    /// shell when it holds spaces).
    static func note(_ name: String, count: Int) -> String {
        let plain = name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x27 && $0 != 0x22 && $0 != 0x5C }
        let lift = plain ? "\(name)=*" : "'\(name.replacing("'", with: "'\\''"))=*'"
        return "\(NumberText.grouped(count)) row\(count == 1 ? "" : "s") left out by \(count == 1 ? "its" : "their") \(name): shows, episodes, games or books (--where \(lift) keeps them)"
    }
}

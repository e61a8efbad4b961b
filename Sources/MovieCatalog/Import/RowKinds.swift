/// The rows of a list of no known layout that are not films, told by a column naming each row's
/// kind (`type`, `media_type`: `movie`, `tv`, `episode`), as services' exports and trackers'
/// lists mix shows, episodes, games and books in. Only kinds that are surely no film are left
/// out: a `Type` of `DVD` or `Drama` (a sheet's own use of the word) keeps its row.
enum RowKinds {
    /// Column names (compared as fields' are: any case, `_` as a space) that name a row's kind.
    static let columnNames: Set<String> = ["type", "media type", "entity type", "content type", "title type", "item type", "kind"]

    /// Kinds that are no film, ASCII case ignored.
    static let notFilms = ["tv", "tv show", "tv shows", "tvshow", "show", "shows", "series", "tv series", "tvseries",
                           "tv mini series", "tv mini-series", "tvminiseries", "miniseries", "mini-series", "limited series",
                           "episode", "episodes", "tv episode", "tvepisode", "season", "seasons", "serie", "serie tv",
                           "game", "video game", "videogame", "book", "books", "manga", "comic", "podcast", "person", "people"]

    /// The index of the kind column in `names` (a header, or a JSON record's keys), when no
    /// layout reads the input, none was turned off, and no `--where` names that column.
    static func column(in names: [String], layout: ImportLayout?, options: ImportOptions) -> Int? {
        guard layout == nil, options.layout == .automatic,
              let index = names.firstIndex(where: { columnNames.contains(FieldMapping.folded($0.trimmingWhitespace())) }) else { return nil }
        let folded = FieldMapping.folded(names[index].trimmingWhitespace())
        if options.wheres.contains(where: { FieldMapping.folded($0.column) == folded }) { return nil }
        return index
    }

    /// The condition that leaves out rows whose `name` column is a kind of no film.
    static func condition(column: Int, name: String) -> RowCondition {
        RowCondition(column: column, name: name, values: notFilms, given: false, excludes: true)
    }

    /// How the report says so.
    static func note(_ name: String) -> String {
        "shows, episodes, games and books left out by their \(name) (--where \(name)=* keeps them)"
    }
}

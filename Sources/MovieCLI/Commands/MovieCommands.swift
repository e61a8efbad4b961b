import MovieCatalog

import MovieDomain

/// `add`, `edit` and `remove`.
enum MovieCommands {
    /// An option for one stored field, its text checked by the field's rules when parsed
    /// (empty text means no value: null for `edit`; so do `N/A` and its kin, as in an import,
    /// so that a copy through a file keeps what was stored).
    static func field(_ field: MovieField, _ name: String, value: String, help: String) -> Option<FieldValue> {
        Option(name, value: value, help: help) { text in
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty || field != .title && ValueParsing.isNullWord(trimmed) {
                if field == .title { throw CatalogError(.usage, "\(name): a title cannot be empty") }
                return .null
            }
            switch MovieRules.value(field, from: trimmed) {
            case .success(let value): return value
            case .failure(let violation): throw CatalogError(.usage, "\(name): \(violation.reason)")
            }
        }
    }

    /// A repeatable genre option: comma lists add names; each must give a code.
    static func genres(_ name: String, help: String) -> Option<[String]> {
        Option(name, value: "g", help: help, repeatable: true, completion: .genres) { text in
            let names = text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty && !ValueParsing.isNullWord($0) }
            return try names.map { genre in
                switch MovieRules.value(.genres, from: genre) {
                case .success(.text(let stored)): return stored
                case .success: return genre
                case .failure(let violation): throw CatalogError(.usage, "\(name): \(violation.reason)")
                }
            }
        }
    }

    static let title = field(.title, "--title", value: "title", help: "The title.")
    static let year = field(.year, "--year", value: "year", help: "Release year, 1870..2100 (or a date).")
    static let rating = field(.rating, "--rating", value: "r", help: "Rating, 0..10.")
    static let votes = field(.votes, "--votes", value: "n", help: "How many people rated it (IMDb's votes).")
    static let duration = field(.duration, "--duration", value: "d", help: "Duration: 120, 2h, 1h 30m or 1:30:00.")
    static let certification = field(.certification, "--certification", value: "c", help: "Certification, e.g. PG-13.")
    static let imdb = field(.imdbID, "--imdb", value: "id", help: "IMDb id: tt0111161, its digits, or an imdb.com title URL.")
    static let genre = genres("--genre", help: "A genre code or name; repeat or comma-list. New genres are added.")

    /// The stored fields' options, as `add` and `edit` share them.
    static let fieldOptions: [(MovieField, Option<FieldValue>)] = [
        (.title, title), (.year, year), (.rating, rating), (.votes, votes), (.duration, duration),
        (.certification, certification), (.imdbID, imdb),
    ]

    static let addSpec = CommandSpec(
        name: "add", abstract: "Add one movie.",
        options: [title, year, genre, rating, votes, duration, certification, imdb],
        examples: [
            "moviecat add --title Heat --year 1995 --genre crime,thriller --rating 8.3 --duration 2h50m --certification R",
            "moviecat add --title Heat --year 1995 --imdb tt0113277 --votes 700000",
        ])

    static let add = Command(spec: addSpec) { parsed, context in
        if let extra = parsed.positionals.first { throw addSpec.usageError("unexpected argument \(extra.quotedForMessage)") }
        guard case .text? = parsed[title] else { throw addSpec.usageError("missing '--title <title>'") }
        var movie = Movie(title: "")
        for (field, option) in fieldOptions { if let value = parsed[option] { movie[field] = value } }
        movie.genres = parsed.all(genre).flatMap { $0 }
        let catalog = try context.catalog()
        let known = try catalog.genres().codes
        // The id is written before the commit: a failed write (a full disk) adds nothing.
        let (id, added) = try catalog.add(movie) { id in
            context.stdout.write("\(id)\n")
            try context.stdout.flush()
        }
        context.noteAdded(added, knownBefore: known)
        context.note("added movie \(id): \(movie.title)")
    }

    static let replaceGenre = genres("--genre", help: "Replace the genres with these (repeat or comma-list; new ones are added).")
    static let addGenre = genres("--add-genre", help: "Add a genre (repeat or comma-list).")
    static let removeGenre = genres("--remove-genre", help: "Remove a genre (repeat or comma-list).")

    static let editSpec = CommandSpec(
        name: "edit", abstract: "Change stored movies.",
        arguments: [ArgumentSpec("<id>...", "Movie ids, as filter shows them; all change in one transaction.")],
        options: [title, year, rating, votes, duration, certification, imdb, replaceGenre, addGenre, removeGenre],
        examples: [
            "moviecat edit 14 --rating 8.4 --votes 710000",
            "moviecat edit 3 4 --add-genre noir --remove-genre drama",
            "moviecat edit 7 --certification '' --imdb tt0113277",
        ])

    static let edit = Command(spec: editSpec) { parsed, context in
        let ids = try movieIDs(parsed.positionals, spec: editSpec)
        var changes = MovieChanges()
        for (field, option) in fieldOptions { if let value = parsed[option] { changes.values[field] = value } }
        if parsed.has(replaceGenre) { changes.genres = parsed.all(replaceGenre).flatMap { $0 } }
        changes.addGenres = parsed.all(addGenre).flatMap { $0 }
        changes.removeGenres = parsed.all(removeGenre).flatMap { $0 }
        // `--add-genre ''` names no genre: said so, not taken for no option at all.
        for (option, genres) in [(addGenre, changes.addGenres), (removeGenre, changes.removeGenres)] where parsed.has(option) && genres.isEmpty {
            throw editSpec.usageError("empty value for '\(option.name)'")
        }
        guard !changes.isEmpty else { throw editSpec.usageError("nothing to change: give a field option, --genre, --add-genre or --remove-genre") }
        // One genre both added and removed says two things; neither is taken for the other.
        let removing = Set(changes.removeGenres.map(Genre.slug))
        if let both = changes.addGenres.first(where: { removing.contains(Genre.slug($0)) }) {
            throw editSpec.usageError("--add-genre and --remove-genre both name \(both.quotedForMessage)")
        }
        guard let catalog = try context.existingCatalog() else { throw CatalogError(.notFound, "no movie with id \(ids[0])") }
        let known = try catalog.genres().codes
        let added = try catalog.edit(ids: ids, changes)
        context.noteAdded(added, knownBefore: known)
        context.note("changed \(ids.count) movie\(ids.count == 1 ? "" : "s")")
    }

    static let removeSpec = CommandSpec(
        name: "remove", abstract: "Remove movies by id.",
        arguments: [ArgumentSpec("<id>...", "Movie ids, as filter shows them.")],
        examples: ["moviecat remove 12", "moviecat filter --title sequel --format csv | cut -d, -f1 | tail -n +2 | xargs -r moviecat remove"])

    static let remove = Command(spec: removeSpec) { parsed, context in
        let ids = try movieIDs(parsed.positionals, spec: removeSpec)
        guard let catalog = try context.existingCatalog() else { throw CatalogError(.notFound, "no movie with id \(ids[0])") }
        try catalog.remove(ids: ids)
        let count = Set(ids).count
        context.note("removed \(count) movie\(count == 1 ? "" : "s")")
    }

    /// Movie ids from positionals; none, or one that is not an id, is a usage error. Any integer
    /// SQLite takes as a rowid is one: a sqlite3 user may have stored 0 or -1 (given after `--`).
    static func movieIDs(_ texts: [String], spec: CommandSpec) throws -> [Int64] {
        guard !texts.isEmpty else { throw spec.usageError("missing movie id") }
        var seen = Set<Int64>()
        // An id given twice is one movie (`edit 1 1` changes one).
        return try texts.compactMap { text in
            guard let id = Int64(text) else { throw spec.usageError("\(text.quotedForMessage) is not a movie id") }
            return seen.insert(id).inserted ? id : nil
        }
    }
}

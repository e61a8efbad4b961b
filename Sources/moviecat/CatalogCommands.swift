import MovieCatalog
import MovieCLI
import MovieDomain

/// `init`: create or migrate the catalog, optionally with the demo movies.
enum CatalogCommands {
    static let initCommand = Command(spec: CommandSpec(
        name: "init", abstract: "Create or migrate the catalog.",
        usage: "moviecat init [--seed]",
        options: [OptionSpec("--seed", help: "Load the 13 demo movies of the original app.")],
        examples: ["moviecat init", "moviecat --db movies.sqlite init --seed"])
    ) { parsed, context in
        if let extra = parsed.positionals.first {
            throw CatalogError(.usage, "unexpected argument '\(extra)'")
        }
        let catalog = try context.catalog()
        if parsed.has("--seed") { try catalog.seed() }
        let counts = try catalog.counts()
        context.note("\(catalog.path): schema version \(try catalog.schemaVersion()), \(counts.movies) movies, \(counts.genres) genres, \(counts.presets) presets")
    }
}

/// `add`, `remove` and `info`.
enum MovieCommands {
    static let addSpec = CommandSpec(
        name: "add", abstract: "Add one movie.",
        usage: "moviecat add --title <title> [--year <year>] [--genre <g>]... [--rating <r>] [--duration <d>] [--certification <c>] [--votes <n>] [--imdb <id>]",
        options: [
            OptionSpec("--title", value: "title", help: "The title (required)."),
            OptionSpec("--year", value: "year", help: "Release year, 1870..2100."),
            OptionSpec("--genre", value: "g", help: "A genre code or name; repeat or comma-list. New genres are added.", repeatable: true),
            OptionSpec("--rating", value: "r", help: "Rating, 0..10."),
            OptionSpec("--duration", value: "d", help: "Duration: 120, 2h, 1h 30m or 1:30:00."),
            OptionSpec("--certification", value: "c", help: "Certification, e.g. PG-13."),
            OptionSpec("--votes", value: "n", help: "How many people rated it (IMDb's votes)."),
            OptionSpec("--imdb", value: "id", help: "IMDb id: tt0111161, its digits, or an imdb.com title URL."),
        ],
        examples: [
            "moviecat add --title Heat --year 1995 --genre crime,thriller --rating 8.3 --duration 2h50m --certification R",
            "moviecat add --title Heat --year 1995 --imdb tt0113277 --votes 700000",
        ])

    static let add = Command(spec: addSpec) { parsed, context in
        if let extra = parsed.positionals.first { throw addSpec.usageError("unexpected argument '\(extra)'") }
        guard parsed.value("--title") != nil else { throw addSpec.usageError("missing '--title <title>'") }
        let flags: [MovieField: String] = [.title: "--title", .year: "--year", .genres: "--genre", .rating: "--rating",
                                            .votes: "--votes", .duration: "--duration", .certification: "--certification",
                                            .imdbID: "--imdb"]
        let decoded = RowDecoder.decode(file: "add", line: 0) { field in
            if field == .genres {
                let all = parsed.all("--genre")
                return all.isEmpty ? .absent : .text(all.joined(separator: "|"))
            }
            return parsed.value(flags[field]!).map { .text($0) } ?? .absent
        }
        switch decoded {
        case .invalid(let problems):
            let first = problems[0]
            let flag = MovieField(named: first.field).flatMap { flags[$0] } ?? first.field
            throw addSpec.usageError("\(flag): \(first.reason)")
        case .valid(let row):
            let id = try context.catalog().add(row)
            context.stdout.write("\(id)\n")
            context.note("added movie \(id): \(row.title)")
        }
    }

    static let removeSpec = CommandSpec(
        name: "remove", abstract: "Remove movies by id.",
        usage: "moviecat remove <id>...",
        arguments: [("<id>", "Movie ids, as filter shows them.")],
        examples: ["moviecat remove 12", "moviecat filter --title sequel --format csv | cut -d, -f1 | tail -n +2 | xargs moviecat remove"])

    static let remove = Command(spec: removeSpec) { parsed, context in
        guard !parsed.positionals.isEmpty else { throw removeSpec.usageError("missing movie id") }
        let ids = try parsed.positionals.map { text -> Int64 in
            guard let id = Int64(text), id > 0 else { throw removeSpec.usageError("'\(text)' is not a movie id") }
            return id
        }
        try context.catalog().remove(ids: ids)
        let count = Set(ids).count
        context.note("removed \(count) movie\(count == 1 ? "" : "s")")
    }

    static let infoSpec = CommandSpec(
        name: "info", abstract: "Show the catalog's path, versions and counts.",
        usage: "moviecat info", examples: ["moviecat info", "moviecat --db other.sqlite info"])

    static let info = Command(spec: infoSpec) { parsed, context in
        if let extra = parsed.positionals.first { throw infoSpec.usageError("unexpected argument '\(extra)'") }
        let catalog = try context.catalog()
        let counts = try catalog.counts()
        let rows = [("catalog", catalog.path), ("schema version", String(try catalog.schemaVersion())),
                    ("sqlite version", Catalog.sqliteVersion), ("movies", String(counts.movies)),
                    ("genres", String(counts.genres)), ("presets", String(counts.presets))]
        for (label, value) in rows {
            context.stdout.write(DisplayWidth.pad(label + ":", to: 16) + value + "\n")
        }
    }
}

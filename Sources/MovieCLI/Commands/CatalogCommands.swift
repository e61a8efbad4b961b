import MovieCatalog

import MovieDomain

/// `init` and `info`.
enum CatalogCommands {
    static let seed = Flag("--seed", help: "Load the 13 demo movies of the original app.")

    static let initCommand = Command(spec: CommandSpec(
        name: "init", abstract: "Create or migrate the catalog.", options: [seed],
        examples: ["moviecat init", "moviecat --db movies.sqlite init --seed"])
    ) { parsed, context in
        if let extra = parsed.positionals.first { throw CatalogError(.usage, "unexpected argument \(extra.quotedForMessage)") }
        let catalog = try context.catalog()
        if parsed[seed] { try catalog.seed() }
        let counts = try catalog.counts()
        context.note("\(catalog.path): schema version \(try catalog.schemaVersion()), \(counts.movies) movies, \(counts.genres) genres, \(counts.presets) presets")
    }

    static let infoSpec = CommandSpec(
        name: "info", abstract: "Show the catalog's path, versions and counts.",
        examples: ["moviecat info", "moviecat --db other.sqlite info"])

    static let info = Command(spec: infoSpec) { parsed, context in
        if let extra = parsed.positionals.first { throw infoSpec.usageError("unexpected argument \(extra.quotedForMessage)") }
        let catalog = try context.catalog()
        let counts = try catalog.counts()
        // The whole path, as `--db x.sqlite` names a file only with the folder it ran in.
        let rows = [("catalog", CatalogLocation.resolved(catalog.path)), ("schema version", String(try catalog.schemaVersion())),
                    ("sqlite version", Catalog.sqliteVersion), ("movies", String(counts.movies)),
                    ("genres", String(counts.genres)), ("presets", String(counts.presets))]
        for (label, value) in rows {
            context.stdout.write(DisplayWidth.pad(label + ":", to: 16) + value + "\n")
        }
    }
}

import MovieCatalog

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

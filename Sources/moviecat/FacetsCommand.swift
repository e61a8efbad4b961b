import MovieCatalog
import MovieCLI
import MovieDomain

/// `facets`: the app's filter list with disjunctive counts.
enum FacetsCommand {
    enum Format: String, CaseIterable { case table, json }

    static let spec = CommandSpec(
        name: "facets", abstract: "Show each facet's values with the number of movies they match.",
        usage: "moviecat facets [<facet:value>...] [--genre <g>]... [--preset <name>]... [--format <format>]",
        arguments: [("<facet:value>", "The selected elements, as for filter.")],
        options: FilterOptions.options + [OptionSpec("--format", value: "format", help: "table (default) or json.")],
        examples: [
            "moviecat facets",
            "moviecat facets --genre drama --rating 5",
            "moviecat facets genre:comedy year:2010s --format json",
        ])

    static let command = Command(spec: spec) { parsed, context in
        let catalog = try context.catalog()
        let set = try FilterOptions.filterSet(from: parsed, tokens: parsed.positionals, catalog: catalog)
        let format = try parsed.choice("--format", in: spec, as: Format.self) ?? .table
        let counts = try FacetCounter(catalog: catalog).counts(for: set)
        switch format {
        case .table: context.stdout.write(FacetWriter.table(counts, genres: try catalog.genres()))
        case .json: context.stdout.write(FacetWriter.json(counts))
        }
    }
}

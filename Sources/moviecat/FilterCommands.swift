import MovieCatalog
import MovieCLI
import MovieDomain

/// `filter`, `save-preset` and `presets`.
enum FilterCommands {
    static let filterSpec = CommandSpec(
        name: "filter", abstract: "List the movies that match a filter set.",
        usage: "moviecat filter [<facet:value>...] [--genre <g>]... [--preset <name>]... [--sort <key>] [--desc] [--limit <n>] [--offset <n>] [--format <format>] [--count] [--explain]",
        arguments: [("<facet:value>", "Filter elements as tokens: genre:drama rating:4.. year:1990s title:godfather.")],
        options: FilterOptions.options + [
            OptionSpec("--sort", value: "key", help: "title (default, then year), year, rating or duration."),
            OptionSpec("--desc", help: "Sort in descending order."),
            OptionSpec("--limit", value: "n", help: "Print at most N movies."),
            OptionSpec("--offset", value: "n", help: "Skip the first N movies."),
            OptionSpec("--format", value: "format", help: "table (default), csv, tsv, json or jsonl."),
            OptionSpec("--count", help: "Print only the number of matching movies."),
            OptionSpec("--explain", help: "Print the SQL, its bound values and SQLite's query plan instead of movies."),
        ],
        examples: [
            "moviecat filter --genre drama --rating 5 --duration 3h",
            "moviecat filter --genre action,comedy --year 2010.. --sort rating --desc --limit 10",
            "moviecat filter genre:drama exclude-genre:romance title:godfather",
            "moviecat filter --preset classics --format json",
            "moviecat filter --rating 7.5.. --count",
        ])

    static let filter = Command(spec: filterSpec) { parsed, context in
        let catalog = try context.catalog()
        var query = MovieQuery(filters: try FilterOptions.filterSet(from: parsed, tokens: parsed.positionals, catalog: catalog))
        query.sort = try parsed.choice("--sort", in: filterSpec, as: SortKey.self) ?? .title
        query.descending = parsed.has("--desc")
        query.limit = try parsed.integer("--limit", in: filterSpec)
        query.offset = try parsed.integer("--offset", in: filterSpec)
        let format = try parsed.choice("--format", in: filterSpec, as: OutputFormat.self) ?? .table
        if parsed.has("--explain") {
            try explain(parsed.has("--count") ? query.countSQL : query.selectSQL, catalog: catalog, to: context.stdout)
            return
        }
        if parsed.has("--count") {
            context.stdout.write("\(try catalog.count(query.filters))\n")
            return
        }
        var tableFields = MovieField.allCases
        if format == .table {
            let shown = try catalog.fieldsWithValues(MovieWriter.optionalColumns, in: query)
            tableFields.removeAll { MovieWriter.optionalColumns.contains($0) && !shown.contains($0) }
        }
        let writer = MovieWriter(format: format, to: context.stdout, genres: try catalog.genres(),
                                 width: context.stdout.terminalColumns(environment: context.environment),
                                 tableFields: tableFields)
        try catalog.forEachMovie(query) { writer.write($0) }
        try writer.finish()
        if format == .table { context.note("\(writer.count) movie\(writer.count == 1 ? "" : "s")") }
    }

    /// Prints a statement's SQL, bound values and query plan.
    static func explain(_ sql: SQLFragment, catalog: Catalog, to out: TextOutput) throws {
        out.write("SQL:\n  \(sql.sql)\n")
        out.write("BINDINGS:\n")
        if sql.bindings.isEmpty { out.write("  (none)\n") }
        for (index, value) in sql.bindings.enumerated() { out.write("  ?\(index + 1) = \(value)\n") }
        out.write("QUERY PLAN:\n")
        for line in try catalog.queryPlan(sql) { out.write("  \(line)\n") }
    }

    static let savePresetSpec = CommandSpec(
        name: "save-preset", abstract: "Save a filter set under a name.",
        usage: "moviecat save-preset <name> [<facet:value>...] [--genre <g>]... [--preset <other>]... [--replace]",
        arguments: [("<name>", "1 to 64 characters, unique ignoring case."),
                    ("<facet:value>", "Filter elements as tokens, as for filter.")],
        options: FilterOptions.options + [OptionSpec("--replace", help: "Overwrite an existing preset of that name.")],
        examples: [
            "moviecat save-preset \"great dramas\" --genre drama --rating 8..",
            "moviecat save-preset short-comedies genre:comedy duration:..90m",
            "moviecat save-preset both --preset \"great dramas\" --preset short-comedies",
        ])

    static let savePreset = Command(spec: savePresetSpec) { parsed, context in
        guard let name = parsed.positionals.first else { throw savePresetSpec.usageError("missing preset name") }
        let catalog = try context.catalog()
        let set = try FilterOptions.filterSet(from: parsed, tokens: Array(parsed.positionals.dropFirst()), catalog: catalog)
        try catalog.savePreset(name: name, filters: set, replace: parsed.has("--replace"))
        context.note("saved preset '\(try Catalog.validatePresetName(name))': \(set.isEmpty ? "(every movie)" : set.description)")
    }

    static let presetsSpec = CommandSpec(
        name: "presets", abstract: "List, show, delete or rename saved presets.",
        usage: "moviecat presets [list [--format <format>] | show <name> [--sql] | delete <name> | rename <old> <new>]",
        arguments: [("<name>", "A preset name (any case).")],
        options: [
            OptionSpec("--format", value: "format", help: "For list: table (default) or json."),
            OptionSpec("--sql", help: "For show: print the SQL, bound values and query plan."),
        ],
        examples: [
            "moviecat presets",
            "moviecat presets list --format json",
            "moviecat presets show \"great dramas\" --sql",
            "moviecat presets rename \"great dramas\" classics",
            "moviecat presets delete classics",
        ],
        subcommands: [("list", "List presets (default)."), ("show", "Print a preset's elements, one per line."),
                      ("delete", "Delete a preset."), ("rename", "Rename a preset.")])

    enum ListFormat: String, CaseIterable { case table, json }

    static let presets = Command(spec: presetsSpec) { parsed, context in
        var args = parsed.positionals
        let action = args.isEmpty ? "list" : args.removeFirst()
        func expect(_ count: Int, _ names: String) throws {
            guard args.count == count else {
                throw presetsSpec.usageError("'presets \(action)' takes \(names), got \(args.count) argument\(args.count == 1 ? "" : "s")")
            }
        }
        let catalog = try context.catalog()
        switch action {
        case "list":
            try expect(0, "no arguments")
            let format = try parsed.choice("--format", in: presetsSpec, as: ListFormat.self) ?? .table
            let all = try catalog.presets()
            if format == .json {
                let items = all.map { p in
                    "{\"name\":\(TextEscaping.json(p.name)),\"filters\":[" + p.filters.sorted.map { TextEscaping.json($0.description) }.joined(separator: ",") + "]}"
                }
                context.stdout.write("[" + items.joined(separator: ",\n ") + "]\n")
            } else {
                let width = max(4, all.map { DisplayWidth.of($0.name) }.max() ?? 0)
                if !all.isEmpty { context.stdout.write(DisplayWidth.pad("NAME", to: width) + "  FILTERS\n") }
                for preset in all {
                    context.stdout.write(DisplayWidth.pad(preset.name, to: width) + "  " + preset.filters.description + "\n")
                }
                context.note("\(all.count) preset\(all.count == 1 ? "" : "s")")
            }
        case "show":
            try expect(1, "a preset name")
            let preset = try catalog.preset(named: args[0])
            if parsed.has("--sql") {
                try explain(MovieQuery(filters: preset.filters).selectSQL, catalog: catalog, to: context.stdout)
            } else {
                for element in preset.filters.sorted { context.stdout.write(element.description + "\n") }
            }
        case "delete":
            try expect(1, "a preset name")
            try catalog.deletePreset(named: args[0])
            context.note("deleted preset '\(args[0])'")
        case "rename":
            try expect(2, "the old and the new name")
            try catalog.renamePreset(args[0], to: args[1])
            context.note("renamed preset '\(args[0])' to '\(args[1])'")
        default:
            let hint = Suggestion.nearest(to: action, in: ["list", "show", "delete", "rename"]).map { ". Did you mean '\($0)'?" } ?? ""
            throw presetsSpec.usageError("unknown presets action '\(action)'\(hint)")
        }
    }
}

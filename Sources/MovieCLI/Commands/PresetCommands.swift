import MovieCatalog

import MovieDomain

/// `save-preset` and `presets list|show|delete|rename`.
enum PresetCommands {
    static let replace = Flag("--replace", help: "Overwrite an existing preset of that name.")

    static let savePresetSpec = CommandSpec(
        name: "save-preset", abstract: "Save a filter set under a name.",
        usage: "moviecat save-preset <name> [<facet:value>...] [--genre <g>]... [--preset <other>]... [--replace]",
        arguments: [ArgumentSpec("<name>", "1 to 64 characters, unique ignoring case."),
                    ArgumentSpec("<facet:value>", "Filter elements as tokens, as for filter.", completion: .filterTokens)],
        options: FilterOptions.all + [replace],
        examples: [
            "moviecat save-preset \"great dramas\" --genre drama --rating 8..",
            "moviecat save-preset short-comedies genre:comedy duration:..90m",
            "moviecat save-preset both --preset \"great dramas\" --preset short-comedies",
        ])

    static let savePreset = Command(spec: savePresetSpec) { parsed, context in
        guard let raw = parsed.positionals.first else { throw savePresetSpec.usageError("missing preset name") }
        let name = try Catalog.validatePresetName(raw)
        let set = try context.filterSet(parsed, tokens: Array(parsed.positionals.dropFirst()))
        try context.catalog().savePreset(name: name, filters: set, replace: parsed[replace])
        context.note("saved preset '\(name)': \(set.isEmpty ? "(every movie)" : words(set))")
    }

    enum ListFormat: String, CaseIterable, Sendable { case table, json }
    static let listFormat = Option<ListFormat>.choice("--format", value: "format", help: "table (default) or json.")
    static let sql = Flag("--sql", help: "Print the SQL, bound values and query plan instead of the elements.")
    static let presetName = ArgumentSpec("<name>", "A preset name (any case).", completion: .presets)

    static let list = Command(spec: CommandSpec(
        name: "presets list", abstract: "List presets (the default).", options: [listFormat],
        examples: ["moviecat presets", "moviecat presets list --format json"])
    ) { parsed, context in
        try expect(0, parsed, "presets list")
        let all = try context.existingCatalog()?.presets() ?? []
        if parsed[listFormat] == .json {
            let items = all.map { p in
                "{\"name\":\(TextEscaping.json(p.name)),\"filters\":[" + p.filters.sorted.map { TextEscaping.json($0.description) }.joined(separator: ",") + "]"
                    + (p.problem.map { ",\"problem\":" + TextEscaping.json($0) } ?? "") + "}"
            }
            context.stdout.write("[" + items.joined(separator: ",\n ") + "]\n")
            return
        }
        // Names and titles a sqlite3 user stored may hold anything: shown safely.
        let rows = all.map { preset in
            (TextEscaping.terminalSafe(preset.name),
             // The empty set, as `save-preset` said it was saved.
             preset.filters.isEmpty && preset.problem == nil ? ["(every movie)"]
                : (tokens(preset.filters) + (preset.problem.map { ["(unusable: \($0))"] } ?? [])).map(TextEscaping.terminalSafe))
        }
        // On a terminal, a long name is cut and the filters wrap under their column.
        let columns = context.stdout.terminalColumns(environment: context.environment)
        let width = min(max(4, rows.map { DisplayWidth.of($0.0) }.max() ?? 0), columns.map { max(4, $0 / 3) } ?? Int.max)
        let room = columns.map { max(12, $0 - width - 2) } ?? Int.max
        if !rows.isEmpty { context.stdout.write(DisplayWidth.pad("NAME", to: width) + "  FILTERS\n") }
        for (name, filters) in rows {
            // Whole tokens a line: a token broken or respaced would paste as another filter.
            let lines = room == Int.max ? [filters.joined(separator: " ")] : DisplayWidth.wrap(words: filters, to: room)
            for (index, line) in lines.enumerated() {
                let first = index == 0 ? DisplayWidth.truncate(name, to: width) : ""
                context.stdout.write(DisplayWidth.pad(first, to: width) + "  " + line + "\n")
            }
        }
        context.note("\(all.count) preset\(all.count == 1 ? "" : "s")")
    }

    /// A set's tokens as shell words: quoted where a token has a space or a shell's special
    /// character, so one can see where each ends and paste them into a command.
    static func words(_ set: FilterSet) -> String { tokens(set).joined(separator: " ") }

    /// A set's tokens, each a shell word.
    static func tokens(_ set: FilterSet) -> [String] { set.sorted.map { TextEscaping.shellWord($0.description) } }

    static let show = Command(spec: CommandSpec(
        name: "presets show", abstract: "Print a preset's elements, one per line.", arguments: [presetName], options: [sql],
        examples: ["moviecat presets show \"great dramas\"", "moviecat presets show \"great dramas\" --sql"])
    ) { parsed, context in
        try expect(1, parsed, "presets show")
        let catalog = try existing(context, parsed.positionals[0])
        if parsed[sql] {
            let preset = try catalog.preset(named: parsed.positionals[0])
            try FilterCommand.explain(catalog.plan(MovieQuery(filters: preset.filters)), catalog: catalog, to: context.stdout)
        } else {
            // A preset that no longer reads shows what still does, then says what does not
            // (the stored preset is at fault, not the command line: no usage lines).
            let preset = try catalog.storedPreset(named: parsed.positionals[0])
            for element in preset.filters.sorted { context.stdout.write(TextEscaping.visible(element.description) + "\n") }
            if let problem = preset.problem {
                throw CatalogError(.usage, "preset \(preset.name.quotedForMessage) is unusable: \(problem)", usageHint: "")
            }
        }
    }

    static let delete = Command(spec: CommandSpec(
        name: "presets delete", abstract: "Delete a preset.", arguments: [presetName],
        examples: ["moviecat presets delete classics"])
    ) { parsed, context in
        try expect(1, parsed, "presets delete")
        let name = try existing(context, parsed.positionals[0]).deletePreset(named: parsed.positionals[0])
        context.note("deleted preset \(name.quotedForMessage)")
    }

    static let rename = Command(spec: CommandSpec(
        name: "presets rename", abstract: "Rename a preset.",
        arguments: [presetName, ArgumentSpec("<new>", "The new name: 1 to 64 characters, unique ignoring case.")],
        examples: ["moviecat presets rename \"great dramas\" classics"])
    ) { parsed, context in
        try expect(2, parsed, "presets rename")
        let new = try Catalog.validatePresetName(parsed.positionals[1])
        let old = try existing(context, parsed.positionals[0]).renamePreset(parsed.positionals[0], to: parsed.positionals[1])
        context.note("renamed preset \(old.quotedForMessage) to \(new.quotedForMessage)")
    }

    static let presets = Command(
        spec: CommandSpec(name: "presets", abstract: "List, show, delete or rename saved presets.",
                          usage: "moviecat presets [list [--format <format>] | show <name> [--sql] | delete <name> | rename <old> <new>]",
                          arguments: [ArgumentSpec("<action>", "list (default), show, delete or rename; see 'moviecat help presets ACTION'.")],
                          examples: ["moviecat presets", "moviecat presets list --format json",
                                     "moviecat presets show \"great dramas\" --sql", "moviecat presets rename \"great dramas\" classics",
                                     "moviecat presets delete classics"],
                          subcommands: [list.spec, show.spec, delete.spec, rename.spec]),
        subcommands: [list, show, delete, rename], default: "list")

    /// A usage error unless the action got `count` arguments.
    static func expect(_ count: Int, _ parsed: ParsedArguments, _ action: String) throws {
        guard parsed.positionals.count == count else {
            let names = ["no arguments", "a preset name", "the old and the new name"][count]
            let spec = presets.subcommands.first { $0.spec.name == action }?.spec ?? presets.spec
            throw spec.usageError("\(action.quotedForMessage) takes \(names), got \(parsed.positionals.count) argument\(parsed.positionals.count == 1 ? "" : "s")")
        }
    }

    /// The catalog, which must exist to hold the preset (a missing one is not created).
    static func existing(_ context: Context, _ name: String) throws -> Catalog {
        guard let catalog = try context.existingCatalog() else { throw CatalogError(.notFound, "no preset named \(name.trimmingWhitespace().quotedForMessage)") }
        return catalog
    }
}

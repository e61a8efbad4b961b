import MovieCatalog

import MovieDomain

/// `import FILE... | -`.
enum ImportCommand {
    static let format = Option<ImportFormat>.choice("--format", value: "format", help: "csv, tsv, json or jsonl (default: from the file extension, .gz looked through).")
    static let map = Option("--map", value: "field=column", help: "Read FIELD (title, year, genres, rating, votes, duration, certification, imdb_id) from COLUMN (field= from none).",
                            repeatable: true, completion: .choices(MovieField.allCases.map { $0.name + "=" })) { text in
        guard let pair = try FieldMapping.parseOverrides([text]).first else { throw InvalidValue("expected field=column") }
        return pair
    }
    static let filterRows = Option("--where", value: "column=values", help: "Keep only rows whose COLUMN is one of the comma-separated VALUES (any case); COLUMN=* keeps all.",
                                   repeatable: true) { text in try WhereClause.parse([text])[0] }
    static let layout = Option("--layout", value: "name", help: "A known layout (\(ImportLayout.names.joined(separator: ", "))), or none (default: from the header).",
                               completion: .choices(ImportLayout.names + ["none"])) { text -> LayoutChoice in
        if text.lowercased() == "none" { return .none }
        if let layout = ImportLayout.named(text) { return .forced(layout) }
        let names = ImportLayout.names + ["none"]
        let hint = Suggestion.nearest(to: text, in: names).map { "; did you mean '\($0)'?" } ?? ""
        throw CatalogError(.usage, "unknown layout \(text.quotedForMessage) for '--layout'\(hint) (one of \(names.joined(separator: ", ")))")
    }
    static let onDuplicate = Option<DuplicatePolicy>.choice("--on-duplicate", value: "policy", help: "update (default), skip or fail when a row's movie is already stored.")
    static let skipInvalid = Flag("--skip-invalid", help: "Import the valid rows and report the rest (default: any invalid row aborts).")
    static let rejects = Option<String>("--rejects", value: "file", help: "With --skip-invalid, write rejected rows there as CSV plus an error column.", completion: .file)
    static let dryRun = Flag("--dry-run", help: "Validate and report; import nothing (the rejects file is still written).")
    static let quiet = Flag("--quiet", help: "Print no report.")

    static let spec = CommandSpec(
        name: "import", abstract: "Import movies from CSV, TSV, JSON or JSON Lines files, gzipped or not.",
        usage: "moviecat import <file>... [--format <format>] [--map <field=column>]... [--where <column=values>]... [--layout <name>] [--on-duplicate <policy>] [--skip-invalid [--rejects <file>]] [--dry-run] [--quiet]",
        arguments: [ArgumentSpec("<file>", "Files to import, or - for standard input (needs --format).", completion: .file)],
        options: [format, map, filterRows, layout, onDuplicate, skipInvalid, rejects, dryRun, quiet],
        examples: [
            "moviecat import movies.csv",
            "moviecat import title.basics.tsv.gz title.ratings.tsv.gz",
            "moviecat import title.basics.tsv --where titleType=movie,short --skip-invalid --rejects rejects.csv",
            "moviecat filter --format jsonl | moviecat --db copy.sqlite import --format jsonl -",
            "moviecat import list.csv --map title=Name --map year=Released",
        ])

    static let command = Command(spec: spec) { parsed, context in
        let paths = parsed.positionals
        guard !paths.isEmpty else { throw spec.usageError("missing file to import (or - for standard input)") }
        if paths.filter({ $0 == "-" }).count > 1 { throw spec.usageError("standard input (-) can be read only once") }
        var options = ImportOptions()
        options.format = parsed[format]
        options.mapping = FieldMapping(overrides: try FieldMapping.parseOverrides(parsed.values.filter { $0.name == map.name }.map(\.text)))
        options.wheres = parsed.all(filterRows)
        options.layout = parsed[layout] ?? .automatic
        options.onDuplicate = parsed[onDuplicate] ?? .update
        options.skipInvalid = parsed[skipInvalid]
        options.rejectsPath = parsed[rejects]
        options.dryRun = parsed[dryRun]
        if options.rejectsPath != nil && !options.skipInvalid { throw spec.usageError("--rejects needs --skip-invalid") }
        if let rejects = options.rejectsPath {
            if rejects.isEmpty { throw spec.usageError("--rejects needs a file name") }
            // Never let the rejects file overwrite the catalog or an input.
            let guarded = ["", "-wal", "-shm", "-journal"].map { context.catalogPath + $0 } + paths.filter { $0 != "-" }
            if let clash = guarded.first(where: { CatalogLocation.sameFile(rejects, $0) }) {
                let what = paths.contains(clash) ? "the input \(clash)" : "the catalog (\(clash))"
                throw spec.usageError("--rejects \(rejects) would overwrite \(what)")
            }
            try Importer.checkRejects(rejects)
        }
        // The inputs open before the catalog: a missing file (66) creates nothing.
        let inputs = try Importer.open(paths, format: options.format)
        // By what is open, too: `/dev/stdin` is the input `-`, and with standard output closed
        // an input file is opened where `/dev/stdout` points.
        if let rejects = options.rejectsPath, let input = inputs.first(where: { $0.reads(rejects) }) {
            throw spec.usageError("--rejects \(rejects) would overwrite \(input.name == "-" ? "standard input" : input.name)")
        }
        let catalog = try context.catalog()
        let importer = Importer(catalog: catalog, options: options,
                                progressOutput: !parsed[quiet] && context.stderr.isTerminal ? context.stderr : nil)
        let report = try importer.run(inputs)
        if !parsed[quiet] {
            for line in report.lines { context.note(line) }
            context.noteAdded(report.addedGenres, knownBefore: report.genresBefore, dryRun: report.dryRun)
            // Where the time went, for benchmarks and profiling.
            if context.environment["MOVIECAT_TIMINGS"] == "1" {
                for (name, seconds) in report.timings { context.note("timing: \(name): \(NumberText.decimal((seconds * 1000).rounded() / 1000)) s") }
            }
            if report.problemCount > 0 {
                for problem in report.firstProblems { context.note(problem.description) }
                if report.problemCount > report.firstProblems.count {
                    context.note("... and \(report.problemCount - report.firstProblems.count) more problems")
                }
            }
        }
    }
}

import MovieCatalog
import MovieCLI
import MovieDomain

/// `import FILE... | -`.
enum ImportCommand {
    static let spec = CommandSpec(
        name: "import", abstract: "Import movies from CSV, TSV, JSON or JSON Lines files.",
        usage: "moviecat import <file>... [--format <format>] [--map <field=column>]... [--where <column=values>]... [--layout <name>] [--on-duplicate <policy>] [--skip-invalid [--rejects <file>]] [--dry-run] [--quiet]",
        arguments: [("<file>", "Files to import, or - for standard input (needs --format).")],
        options: [
            OptionSpec("--format", value: "format", help: "csv, tsv, json or jsonl (default: from the file extension)."),
            OptionSpec("--map", value: "field=column", help: "Read FIELD (title, year, genres, rating, votes, duration, certification, imdb_id) from COLUMN.", repeatable: true),
            OptionSpec("--where", value: "column=values", help: "Keep only rows whose COLUMN is one of the comma-separated VALUES (any case); COLUMN=* keeps all.", repeatable: true),
            OptionSpec("--layout", value: "name", help: "A known layout (imdb-basics, imdb-ratings, imdb-list, letterboxd, movielens), or none (default: from the header)."),
            OptionSpec("--on-duplicate", value: "policy", help: "update (default), skip or fail when a title and year are already stored."),
            OptionSpec("--skip-invalid", help: "Import the valid rows and report the rest (default: any invalid row aborts)."),
            OptionSpec("--rejects", value: "file", help: "With --skip-invalid, write rejected rows there as CSV plus an error column."),
            OptionSpec("--dry-run", help: "Validate and report; write nothing."),
            OptionSpec("--quiet", help: "Print no report."),
        ],
        examples: [
            "moviecat import movies.csv",
            "moviecat import title.basics.tsv.gz title.ratings.tsv.gz",
            "moviecat import title.basics.tsv --where titleType=movie,short --skip-invalid --rejects rejects.csv",
            "moviecat filter --format jsonl | moviecat --db copy.sqlite import --format jsonl -",
            "moviecat import list.csv --map title=Name --map year=Released",
        ])

    static let command = Command(spec: spec) { parsed, context in
        guard !parsed.positionals.isEmpty else { throw spec.usageError("missing file to import (or - for standard input)") }
        if parsed.positionals.filter({ $0 == "-" }).count > 1 {
            throw spec.usageError("standard input (-) can be read only once")
        }
        var options = ImportOptions()
        options.format = try parsed.choice("--format", in: spec, as: ImportFormat.self)
        options.mapping = FieldMapping(overrides: try FieldMapping.parseOverrides(parsed.all("--map")))
        options.wheres = try WhereClause.parse(parsed.all("--where"))
        if let name = parsed.value("--layout") {
            if name.lowercased() == "none" {
                options.layout = .none
            } else if let layout = ImportLayout.named(name) {
                options.layout = .forced(layout)
            } else {
                let names = ImportLayout.all.map(\.name) + ["none"]
                let hint = Suggestion.nearest(to: name, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw spec.usageError("unknown layout '\(name)' for '--layout'\(hint) (one of \(names.joined(separator: ", ")))")
            }
        }
        options.onDuplicate = try parsed.choice("--on-duplicate", in: spec, as: DuplicatePolicy.self) ?? .update
        options.skipInvalid = parsed.has("--skip-invalid")
        options.rejectsPath = parsed.value("--rejects")
        if options.rejectsPath != nil && !options.skipInvalid {
            throw spec.usageError("--rejects needs --skip-invalid")
        }
        if let rejects = options.rejectsPath {
            // Never let the rejects file overwrite the catalog or an input.
            let guarded = ["", "-wal", "-shm", "-journal"].map { context.catalogPath + $0 }
                + parsed.positionals.filter { $0 != "-" }
            if let clash = guarded.first(where: { CatalogLocation.sameFile(rejects, $0) }) {
                throw spec.usageError("--rejects \(rejects) would overwrite \(clash)")
            }
        }
        options.dryRun = parsed.has("--dry-run")
        let quiet = parsed.has("--quiet")
        let catalog = try context.catalog()
        let importer = Importer(catalog: catalog, options: options,
                                progressOutput: !quiet && context.stderr.isTerminal ? context.stderr : nil)
        let report = try importer.run(paths: parsed.positionals)
        if !quiet {
            for line in report.lines { context.note(line) }
            if report.problemCount > 0 {
                for problem in report.firstProblems { context.note(problem.description) }
                if report.problemCount > report.firstProblems.count {
                    context.note("... and \(report.problemCount - report.firstProblems.count) more problems")
                }
            }
        }
    }
}

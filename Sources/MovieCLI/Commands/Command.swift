import MovieCatalog

import MovieDomain

/// What every command gets: the catalog location, the environment and the output streams.
public final class Context {
    /// The catalog file ("" when there is none: `CatalogLocation.resolve`).
    public let catalogPath: String
    let hasPath: Bool
    /// The process environment.
    public let environment: [String: String]
    /// Standard output, buffered.
    public let stdout = TextOutput.standardOutput()
    /// Standard error, buffered.
    public let stderr = TextOutput.standardError()
    private var opened: Catalog?

    /// A context for the catalog at `catalogPath`; nil: none could be found, and a command that
    /// opens the catalog fails saying so (one that does not, like `completions`, runs).
    public init(catalogPath: String?, environment: [String: String]) {
        self.catalogPath = catalogPath ?? ""
        hasPath = catalogPath != nil
        self.environment = environment
    }

    /// The catalog, opened (and created and migrated) on first use: after the arguments are checked.
    func catalog() throws -> Catalog {
        if let opened { return opened }
        try checkPath()
        let catalog = try Catalog(path: catalogPath) { [stderr] notice in
            switch notice {
            case .upgrading(let from, let to):
                // Version 10 makes the title index again: a minute and a half at 10M movies, once.
                stderr.write("moviecat: upgrading the catalog from schema version \(from) to \(to) (once; a large catalog takes a while)\n")
            case .rebuilding(let reason):
                stderr.write("moviecat: rebuilding the derived tables: \(reason) (a large catalog takes a while)\n")
            }
            try? stderr.flush()
        }
        opened = catalog
        return catalog
    }

    /// The catalog if its file exists; nil (and nothing created) when it does not.
    func existingCatalog() throws -> Catalog? {
        try checkPath()
        if opened == nil && !CatalogLocation.exists(catalogPath) { return nil }
        return try catalog()
    }

    /// Refuses no path at all, and SQLite's name for a database in memory: every command opens
    /// the catalog anew, so what one stored there would be gone when it ends.
    private func checkPath() throws {
        guard hasPath else { throw CatalogError(.cannotUseCatalog, CatalogLocation.noPathMessage) }
        if catalogPath == ":memory:" {
            throw CatalogError(.cannotUseCatalog, "the catalog path ':memory:' is SQLite's name for a database in memory, gone when the command ends; give a file path (./:memory: names a file)")
        }
    }

    /// A filter parser for checking arguments before anything is created: the catalog's genres,
    /// or the standard catalogue a new catalog will have.
    func filterParser() throws -> FilterParser {
        FilterParser(genres: try existingCatalog()?.genres() ?? Catalog.standardGenres())
    }

    /// The filter set of a command's filter options and tokens, checked before anything is
    /// created (a catalog that does not exist yet has no presets).
    func filterSet(_ parsed: ParsedArguments, tokens: [String]) throws -> FilterSet {
        let parser = try filterParser()
        return try FilterOptions.filterSet(from: parsed, tokens: tokens, parser: parser) { name in
            guard let catalog = try existingCatalog() else { throw CatalogError(.notFound, "no preset named \(name.quotedForMessage)") }
            return try catalog.preset(named: name, parser: parser).filters
        }
    }

    /// Closes the catalog before the process exits. As the last connection, SQLite then
    /// checkpoints and deletes the WAL, so no `-wal` file as large as the last import lingers.
    public func close() {
        // An error closing is not worth failing a command that has done its work for.
        try? opened?.close()
        opened = nil
    }

    /// A message for people, on stderr; what it quotes from input cannot drive the terminal.
    func note(_ text: String) { stderr.write(TextEscaping.visible(text) + "\n") }

    /// Notes the genres a command added to the catalog, each with the closest one it knew.
    func noteAdded(_ genres: [Genre], knownBefore: [String], dryRun: Bool = false) {
        for genre in genres {
            let hint = Suggestion.nearest(to: genre.code, in: knownBefore).map { " (did you mean '\($0)'?)" } ?? ""
            note("\(dryRun ? "would add" : "added") genre \(genre.code.quotedForMessage)\(hint)")
        }
    }
}

/// A command: its spec (for parsing, help and completions) and what it runs. A command with
/// subcommands (`presets`) runs the one named by its first argument, or `defaultSubcommand`.
public struct Command: Sendable {
    /// The command's declaration.
    public let spec: CommandSpec
    /// What it does with its parsed arguments.
    public let run: @Sendable (ParsedArguments, Context) throws -> Void
    var subcommands: [Command] = []
    var defaultSubcommand: String?

    init(spec: CommandSpec, run: @escaping @Sendable (ParsedArguments, Context) throws -> Void) {
        self.spec = spec
        self.run = run
    }

    init(spec: CommandSpec, subcommands: [Command], default name: String) {
        self.spec = spec
        self.subcommands = subcommands
        self.defaultSubcommand = name
        self.run = { _, _ in }
    }

    /// The command (or subcommand) the arguments name, with the arguments left for it.
    public func resolve(_ arguments: [String]) throws -> (Command, [String]) {
        guard !subcommands.isEmpty else { return (self, arguments) }
        if let first = arguments.first, !first.hasPrefix("-") {
            guard let sub = subcommands.first(where: { $0.spec.word == first }) else {
                let words = subcommands.map(\.spec.word)
                let hint = Suggestion.nearest(to: first, in: words).map { ". Did you mean '\($0)'?" } ?? ""
                throw spec.usageError("unknown \(spec.name) action \(first.quotedForMessage)\(hint)")
            }
            return (sub, Array(arguments.dropFirst()))
        }
        // `presets --help` is the group's help; `presets --format json` is the default action's.
        if arguments.contains("--help") || arguments.contains("-h") { return (self, arguments) }
        return (subcommands.first { $0.spec.word == defaultSubcommand } ?? self, arguments)
    }
}

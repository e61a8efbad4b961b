import MovieCatalog
import MovieCLI
import MovieDomain

/// What every command gets: the catalog location, the environment and the output streams.
final class Context {
    let catalogPath: String
    let environment: [String: String]
    let stdout = TextOutput.standardOutput()
    let stderr = TextOutput.standardError()
    private var opened: Catalog?

    init(catalogPath: String, environment: [String: String]) {
        self.catalogPath = catalogPath
        self.environment = environment
    }

    /// The catalog, opened (and created and migrated) on first use.
    func catalog() throws -> Catalog {
        if let opened { return opened }
        let catalog = try Catalog(path: catalogPath)
        opened = catalog
        return catalog
    }

    /// Closes the catalog before the process exits. As the last connection, SQLite then
    /// checkpoints and deletes the WAL, so no `-wal` file as large as the last import lingers.
    func close() {
        // An error closing is not worth failing a command that has done its work for.
        try? opened?.close()
        opened = nil
    }

    /// A message for people, on stderr.
    func note(_ text: String) { stderr.write(text + "\n") }
}

/// A command: its spec (for parsing, help and completions) and what it runs.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (ParsedArguments, Context) throws -> Void
}

import Foundation
import PackagePlugin

/// Generates `EmbeddedSQL.swift` from the package's `Migrations/*.sql` and `seed.sql`.
@main
struct EmbedSQL: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let migrationsDir = root.appending(path: "Migrations")
        // The files there now, so that editing one in place runs the command again.
        let migrations = try FileManager.default.contentsOfDirectory(atPath: migrationsDir.path)
            .filter { $0.hasSuffix(".sql") }.sorted().map { migrationsDir.appending(path: $0) }
        let seed = root.appending(path: "seed.sql")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSQL.swift")
        return [
            .buildCommand(
                displayName: "Embedding Migrations/*.sql and seed.sql",
                executable: try context.tool(named: "embed-sql").url,
                arguments: [output.path, seed.path, migrationsDir.path],
                // The folder too: adding a file changes it, so the command runs again and lists
                // the folder itself. SwiftPM plans with the files it saw last, though: after
                // removing or renaming a migration, or to track edits of a new one, `touch
                // Package.swift` (a test checks the embedded SQL against the files).
                inputFiles: [seed, migrationsDir] + migrations,
                outputFiles: [output]
            )
        ]
    }
}

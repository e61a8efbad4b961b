import Foundation
import PackagePlugin

/// Generates `EmbeddedSQL.swift` from the package's `Migrations/*.sql` and `seed.sql`.
@main
struct EmbedSQL: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let migrationsDir = root.appending(path: "Migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: migrationsDir.path)
            .filter { $0.hasSuffix(".sql") }
            .sorted()
        let migrations = names.map { migrationsDir.appending(path: $0) }
        let seed = root.appending(path: "seed.sql")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSQL.swift")
        return [
            .buildCommand(
                displayName: "Embedding Migrations/*.sql and seed.sql",
                executable: try context.tool(named: "embed-sql").url,
                arguments: [output.path, seed.path, migrationsDir.path],
                // The folder too: adding a file changes it, so the command runs again and lists it.
                inputFiles: [seed, migrationsDir] + migrations,
                outputFiles: [output]
            )
        ]
    }
}

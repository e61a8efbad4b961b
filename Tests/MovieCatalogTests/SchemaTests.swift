import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// The schema compiled into the binary is the one in the files.
@Suite struct SchemaTests {
    @Test("the compiled-in SQL is the Migrations/ and seed.sql files")
    func embeddedSQL() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Migrations").path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(CatalogSchema.migrations.map(\.name) == files)
        for migration in CatalogSchema.migrations {
            let text = try String(contentsOf: root.appendingPathComponent("Migrations/\(migration.name)"), encoding: .utf8)
            #expect(migration.sql == text, "\(migration.name) changed since it was embedded: touch Package.swift and build again")
            #expect(text.contains("PRAGMA user_version = \(migration.version);"))
        }
        #expect(CatalogSchema.seedSQL == (try String(contentsOf: root.appendingPathComponent("seed.sql"), encoding: .utf8)))
    }
}

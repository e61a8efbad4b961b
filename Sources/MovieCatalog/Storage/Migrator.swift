/// Applies the compiled-in migrations in order, each in its own transaction.
public struct Migrator {
    /// One migration: its number (from the file name `0001_name.sql`), name and SQL.
    public struct Migration: Sendable {
        /// The schema version it brings the catalog to.
        public let version: Int
        /// The migration's file name.
        public let name: String
        /// The SQL to run.
        public let sql: String
    }

    /// The migrations this binary knows, from `Migrations/*.sql`.
    public static let migrations: [Migration] = EmbeddedSQL.migrations.map { file in
        let number = Int(file.name.prefix { $0.isNumber }) ?? 0
        return Migration(version: number, name: file.name, sql: file.sql)
    }

    /// The newest schema version this binary knows.
    public static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The demo catalog's SQL, from `seed.sql`.
    public static var seedSQL: String { EmbeddedSQL.seed }

    /// Brings the database up to the latest version; refuses one made by a newer moviecat.
    public static func migrate(_ db: Database) throws {
        let current = try db.intScalar("PRAGMA user_version")
        if current > latestVersion {
            throw CatalogError(.cannotUseCatalog,
                "\(db.path) has schema version \(current), newer than this moviecat's \(latestVersion); upgrade moviecat")
        }
        if current == 0, try db.intScalar("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") > 0 {
            throw CatalogError(.cannotUseCatalog,
                "\(db.path) is a SQLite database of another program (it has tables but no moviecat schema version)")
        }
        guard current < latestVersion else { return }
        // Migrations may rebuild tables (CREATE, copy, DROP, RENAME), which foreign keys would
        // break: dropping `movies` would cascade to its genre links. So they run with the checks
        // off, as in the sqlite3 shell, and each is checked before it commits. Links a sqlite3
        // user left dangling before (the shell does not enforce foreign keys) are not its fault.
        try db.withoutForeignKeys {
            for migration in migrations where migration.version > current {
                try db.transaction {
                    // Re-check inside the write lock: another process may have migrated meanwhile.
                    guard try db.intScalar("PRAGMA user_version") < migration.version else { return }
                    let danglingBefore = try Migrator.danglingReferences(db)
                    try db.execute(migration.sql)
                    // Each file sets user_version itself; enforce it so a forgotten line cannot loop.
                    try db.execute("PRAGMA user_version = \(migration.version)")
                    if try Migrator.danglingReferences(db) > danglingBefore {
                        throw CatalogError(.cannotUseCatalog,
                            "\(db.path): migration \(migration.name) would leave rows pointing at missing ones; nothing was changed")
                    }
                }
            }
        }
    }

    /// The number of rows whose foreign keys point at missing rows.
    private static func danglingReferences(_ db: Database) throws -> Int {
        try db.query("PRAGMA foreign_key_check") { _ in 0 }.count
    }
}

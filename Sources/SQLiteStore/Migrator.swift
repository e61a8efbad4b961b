/// Why migrating a database failed.
public enum MigrationError: Error, Equatable, Sendable {
    /// The migration files are not numbered exactly 1, 2, ... n (a bug in the build).
    case badNumbering(String)
    /// The database was made by a newer program: its version is above every migration.
    case newerVersion(found: Int, known: Int)
    /// The database has tables but no schema version: another program's file.
    case foreignDatabase
    /// A migration would leave rows pointing at missing ones.
    case danglingReferences(migration: String)
    /// The database's version is below 0: no migration's (someone set it by hand).
    case invalidVersion(found: Int)
    /// A migration's SQL failed on this database (a table it makes is there already, one it
    /// reads is missing): the tables do not match the version. SQLite's message.
    case failed(migration: String, version: Int, message: String)
}

/// Applies numbered migrations in order, each in its own transaction together with
/// `PRAGMA user_version`, which records the newest one applied.
public struct Migrator: Sendable {
    /// One migration: its number (from the file name `0001_name.sql`), name and SQL.
    public struct Migration: Sendable, Equatable {
        /// The schema version it brings the database to.
        public let version: Int
        /// The migration's file name.
        public let name: String
        /// The SQL to run.
        public let sql: String
    }

    /// The migrations, in order.
    public let migrations: [Migration]

    /// Migrations from files named `0001_name.sql`, `0002_...`: exactly 1...n, each once.
    public init(files: [(name: String, sql: String)]) throws {
        var migrations: [Migration] = []
        for file in files.sorted(by: { $0.name < $1.name }) {
            let digits = file.name.prefix { $0.isNumber }
            guard !digits.isEmpty, let version = Int(digits) else {
                throw MigrationError.badNumbering("\(file.name) has no version number")
            }
            migrations.append(Migration(version: version, name: file.name, sql: file.sql))
        }
        for (index, migration) in migrations.enumerated() where migration.version != index + 1 {
            let problem = migrations.contains { $0.version == migration.version && $0.name != migration.name }
                ? "two migrations have version \(migration.version)"
                : "version \(index + 1) is missing before \(migration.name)"
            throw MigrationError.badNumbering(problem)
        }
        self.migrations = migrations
    }

    /// The newest version these migrations reach.
    public var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Brings the database up to the latest version; refuses one made by a newer program.
    /// All pending migrations run in one transaction: a command killed while upgrading leaves
    /// the database at the version it had, never between two. `prepare` runs first inside it (a
    /// version wound back to make a missing object again); `after` once each migration's SQL has
    /// run (work a migration needs that SQL cannot say: it commits with the version, or not at all).
    public func migrate(_ db: Database, prepare: ((_ db: Database) throws -> Void)? = nil,
                        after: ((_ version: Int, _ db: Database) throws -> Void)? = nil) throws {
        let current = try db.intScalar("PRAGMA user_version")
        if current > latestVersion { throw MigrationError.newerVersion(found: current, known: latestVersion) }
        // Not an empty catalog's 0: that would run every migration on tables already there.
        if current < 0 { throw MigrationError.invalidVersion(found: current) }
        if current == 0, try db.intScalar("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") > 0 {
            throw MigrationError.foreignDatabase
        }
        guard current < latestVersion else { return }
        // Migrations may rebuild tables (CREATE, copy, DROP, RENAME), which foreign keys would
        // break: dropping a parent table would cascade to its children. So they run with the
        // checks off, as in the sqlite3 shell, and each is checked before the next. Rows a
        // sqlite3 user left dangling before (the shell enforces no foreign keys) are not its fault.
        try db.withoutForeignKeys {
            try db.transaction {
                try prepare?(db)
                // Read inside the write lock: another process may have migrated meanwhile.
                let start = try db.intScalar("PRAGMA user_version")
                for migration in migrations where migration.version > start {
                    let danglingBefore = try Migrator.danglingReferences(db)
                    try run(migration, on: db, at: start)
                    try after?(migration.version, db)
                    // Each file sets user_version itself; enforce it so a forgotten line cannot loop.
                    try db.execute("PRAGMA user_version = \(migration.version)")
                    if try Migrator.danglingReferences(db) > danglingBefore {
                        throw MigrationError.danglingReferences(migration: migration.name)
                    }
                }
            }
        }
    }

    /// Runs the migrations numbered `versions` again, in order, inside the caller's transaction,
    /// and leaves the database at the latest version: for migrations written to be run again
    /// (they drop what they make first), to rebuild what they make.
    public func rerun(_ versions: [Int], _ db: Database) throws {
        let current = try db.intScalar("PRAGMA user_version")
        for migration in migrations where versions.contains(migration.version) {
            try run(migration, on: db, at: current)
        }
        try db.execute("PRAGMA user_version = \(latestVersion)")
    }

    /// Runs a migration's SQL on a database at version `current`; SQL that fails for want of
    /// the tables it expects (SQLITE_ERROR, not a busy or full disk) is a `.failed` mismatch.
    private func run(_ migration: Migration, on db: Database, at current: Int) throws {
        do {
            try db.execute(migration.sql)
        } catch let error as DatabaseError where error.code == .error {
            throw MigrationError.failed(migration: migration.name, version: current, message: error.message)
        }
    }

    /// The number of rows whose foreign keys point at missing rows.
    private static func danglingReferences(_ db: Database) throws -> Int {
        try db.query("PRAGMA foreign_key_check") { _ in 0 }.count
    }
}

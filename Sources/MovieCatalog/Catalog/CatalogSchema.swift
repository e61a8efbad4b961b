import MovieDomain
import SQLiteStore

/// The catalog's schema: the migrations and demo data compiled in from `Migrations/*.sql` and
/// `seed.sql` (by the EmbedSQL build plugin), so the binary needs no source tree.
public enum CatalogSchema {
    /// The migrator of the compiled-in files, or why they are misnumbered (a build bug, tested).
    static let migrator = Result { try Migrator(files: EmbeddedSQL.migrations.map { ($0.name, $0.sql) }) }

    /// The migrations this binary knows.
    public static var migrations: [Migrator.Migration] { (try? migrator.get())?.migrations ?? [] }

    /// The newest schema version this binary knows.
    public static var latestVersion: Int { (try? migrator.get())?.latestVersion ?? 0 }

    /// The demo catalog's SQL, from `seed.sql`.
    public static var seedSQL: String { EmbeddedSQL.seed }
}

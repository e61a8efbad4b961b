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

    /// Refuses a catalog whose version is below 3 while `movies` has version 3's columns (a
    /// user_version wound back by hand): migration 3 rebuilds `movies` from the older columns and
    /// would drop votes and IMDb ids. Later migrations can run again (they drop what they make).
    static func checkVersionMatchesTables(_ db: Database) throws {
        let version = try db.intScalar("PRAGMA user_version")
        guard version == 1 || version == 2 else { return }
        let added = try db.query("SELECT name FROM pragma_table_info('movies') WHERE name IN ('votes', 'imdb_id') ORDER BY cid") {
            try $0.text(0)
        }
        guard !added.isEmpty else { return }
        throw CatalogError(.cannotUseCatalog,
            "\(db.path): schema version \(version) does not match its tables: movies already has version 3's \(added.joined(separator: " and ")), which migrating again would drop; nothing was changed")
    }

    /// The demo catalog's SQL, from `seed.sql`.
    public static var seedSQL: String { EmbeddedSQL.seed }
}

import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Work opening a catalog may do that takes a while on a large one.
public enum CatalogNotice: Sendable, Equatable {
    /// A migration of a catalog made by an older moviecat (it may rebuild an index).
    case upgrading(from: Int, to: Int)
    /// A rebuild of derived tables a sqlite3 user's edit left out of step, and why.
    case rebuilding(reason: String)
}

/// An open, migrated movie catalog: the entry point for queries, imports and presets.
public final class Catalog {
    /// The connection.
    public let db: Database
    /// The catalog file.
    public var path: String { db.path }

    /// Opens the catalog at `path`, creating it and its directories when missing, migrates it, and
    /// checks (and when needed repairs) its derived tables. `notice` hears, before it starts, of
    /// work that may take a while on a large catalog: a migration, a rebuild of derived tables.
    public init(path: String, notice: ((CatalogNotice) -> Void)? = nil) throws {
        var info = stat()
        let existed = stat(path, &info) == 0
        var made: [String] = []
        var opened: Database?
        do {
            made = try CatalogLocation.createParentDirectories(of: path)
            let db = try Database(path: path)
            opened = db
            self.db = db
            let migrator = try CatalogSchema.migrator.get()
            try CatalogSchema.checkVersionMatchesTables(db)
            try DerivedTables.requireSpecTables(db)
            let versionBefore = try DerivedTables.rewoundVersion(db, latest: migrator.latestVersion) ?? db.intScalar("PRAGMA user_version")
            if versionBefore > 0, versionBefore < migrator.latestVersion { notice?(.upgrading(from: versionBefore, to: migrator.latestVersion)) }
            // The rewind in the migrations' transaction: a command killed meanwhile leaves the version as it was.
            try migrator.migrate(db, prepare: { try DerivedTables.rewindPastMissing($0, latest: migrator.latestVersion) }) { version, db in
                if version == DerivedTables.replaceSafeTitlesSince { try DerivedTables.dropTitleCopies(db, migrator: migrator) }
                if version == StoredText.composedSince { try StoredText.compose(db) }
            }
            // Migrations 8 and 9 make movie_facet_totals empty: its blocks are counted while
            // migrating takes the write lock anyway (reads never write them).
            if versionBefore > 0, versionBefore < FacetTotals.packedSince { try db.transaction { try FacetTotals.fill(db) } }
            try DerivedTables.ensure(db, migrator: migrator) { notice?(.rebuilding(reason: $0)) }
        } catch {
            // A catalog this command was making (a full disk, a directory it cannot write): no
            // empty file or directory of it stays behind.
            if !existed {
                try? opened?.close()
                CatalogLocation.removeUnused(path, directories: made)
            }
            throw CatalogError.from(error, catalogPath: path)
        }
    }

    /// Closes the connection (SQLite then deletes the WAL, as the last one).
    public func close() throws { try db.close() }

    /// Loads the demo movies of seed.sql (idempotent), in one transaction. Its INSERT OR IGNORE
    /// of movies already there is logged in movie_stale as a possible REPLACE: put right at once.
    public func seed() throws {
        try db.transaction {
            try db.execute(CatalogSchema.seedSQL)
            try DerivedTables.repairIfLogged(db)
            try FacetTotals.fill(db)
        }
    }

    /// Runs `body`'s reads on one snapshot of the catalog (a read transaction): a plan and the
    /// query it made see the same movies, whatever another process commits meanwhile.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        try db.reading(body)
    }

    /// The genres this catalog knows.
    public func genres() throws -> GenreCatalogue {
        GenreCatalogue(try db.query("SELECT id, code, name FROM genres") {
            Genre(id: try $0.int64(0), code: try $0.text(1), name: try $0.text(2))
        })
    }

    /// The genres every new catalog starts with (the first migration's catalogue), read from a
    /// catalog made in memory: for checking arguments before a catalog file is created.
    public static func standardGenres() throws -> GenreCatalogue {
        try Catalog(path: ":memory:").genres()
    }

    /// The genre codes and preset names stored at `path`, for a shell completing a command line:
    /// read as the file has them (never created, never migrated: a TAB must not upgrade a
    /// catalog), waiting a moment at most for another process's lock. Nil when they cannot be
    /// read so (no such file, locked, no catalog).
    public static func namesForCompletion(at path: String) -> (genres: [String], presets: [String])? {
        guard let db = try? Database(path: path, create: false, busyTimeout: 200, settingWAL: false) else { return nil }
        defer { try? db.close() }
        func texts(_ sql: String) -> [String]? { try? db.query(sql) { try $0.text(0) } }
        guard let genres = texts("SELECT code FROM genres"),
              let presets = texts("SELECT name FROM presets ORDER BY name COLLATE NOCASE") else { return nil }
        return (genres, presets)
    }

    /// A parser that resolves genres against this catalog.
    public func filterParser() throws -> FilterParser { FilterParser(genres: try genres()) }

    /// The SQLite library version, e.g. "3.40.1".
    public static var sqliteVersion: String { Database.sqliteVersion }

    /// Schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int { try db.intScalar("PRAGMA user_version") }
}

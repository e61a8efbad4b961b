/// An open, migrated movie catalog: the entry point for queries, imports and presets.
public final class Catalog {
    /// The connection.
    public let db: Database
    /// The catalog file.
    public var path: String { db.path }

    /// Opens the catalog at `path`, creating it and its directories when missing, and migrates it.
    public init(path: String) throws {
        do {
            try CatalogLocation.createParentDirectories(of: path)
            db = try Database(path: path)
            try Migrator.migrate(db)
        } catch {
            throw CatalogError.from(error, catalogPath: path)
        }
    }

    /// Loads the demo movies of seed.sql (idempotent), in one transaction.
    public func seed() throws {
        try db.transaction { try db.execute(Migrator.seedSQL) }
    }

    /// The genres this catalog knows.
    public func genres() throws -> GenreCatalogue {
        GenreCatalogue(try db.query("SELECT id, code, name FROM genres") {
            Genre(id: $0.int64(0), code: $0.text(1), name: $0.text(2))
        })
    }

    /// A parser that resolves genres against this catalog.
    public func filterParser() throws -> FilterParser { FilterParser(genres: try genres()) }

    /// Schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int { try db.intScalar("PRAGMA user_version") }
}

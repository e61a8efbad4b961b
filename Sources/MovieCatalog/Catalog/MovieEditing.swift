import MovieDomain
import SQLiteStore
/// Adding and removing single movies.
extension Catalog {
    /// Adds one validated movie; a movie it already is (SPEC section 4: by IMDb id, else title
    /// and year) is an error (exit 1) naming it.
    @discardableResult
    public func add(_ row: ImportRow) throws -> Int64 {
        try db.transaction {
            let identity = try MovieIdentity(db: db)
            switch try identity.match(row.movie) {
            case .none: break
            case .movie(let id, _):
                throw CatalogError(.alreadyExists, "'\(row.title)' is already in the catalog as \(try identity.describe(id))")
            case .ambiguous(let movies):
                throw CatalogError(.alreadyExists, "'\(row.title)' is already in the catalog as movies \(movies); give --imdb to add another film of that title and year")
            }
            let writer = try ImportWriter(db: db, policy: .fail, bulkLoad: false)
            // A writer without bulk load never reads its batch, so the row's index does not matter.
            return try writer.write(row, at: 0, file: "add").id
        }
    }

    /// Removes movies by id, all or none; a missing id is an error (exit 1) naming it.
    public func remove(ids: [Int64]) throws {
        try db.transaction {
            for id in Set(ids) {
                try db.run("DELETE FROM movies WHERE id = ?", [.integer(id)])
                if db.changes == 0 { throw CatalogError(.notFound, "no movie with id \(id)") }
            }
        }
    }
}

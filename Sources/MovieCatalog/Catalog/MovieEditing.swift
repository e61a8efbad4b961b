/// Adding and removing single movies.
extension Catalog {
    /// Adds one validated movie; an existing natural key is an error (exit 1) naming its id.
    @discardableResult
    public func add(_ row: ImportRow) throws -> Int64 {
        try db.transaction {
            if let id = try movieID(title: row.title, year: row.year) {
                let year = row.year.map { " (\($0))" } ?? ""
                throw CatalogError(.notFound, "'\(row.title)'\(year) is already in the catalog as movie \(id)")
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

import CSQLite

extension Database {
    /// Copies the rows `select` gives on `source` into this database through `insert`, whose
    /// parameters take the selected columns in order, values of every type (blobs too) as they
    /// are; returns the rows copied. Connections cannot share a transaction, and one in a
    /// transaction cannot ATTACH, so rows built on another connection come over this way.
    @discardableResult
    public func copyRows(_ select: String, from source: Database, into insert: String) throws -> Int {
        let reader = try source.prepare(select)
        let writer = try prepare(insert)
        let columns = sqlite3_column_count(reader.handle)
        guard Int(columns) == writer.parameterCount else {
            throw DatabaseError(code: SQLITE_RANGE, message: "copying \(columns) columns into \(writer.parameterCount) parameters", sql: insert)
        }
        var copied = 0
        while try reader.step() {
            for column in 0..<columns {
                let rc = sqlite3_bind_value(writer.handle, column + 1, sqlite3_column_value(reader.handle, column))
                guard rc == SQLITE_OK else { throw DatabaseError(connection: handle, sql: insert) }
            }
            try writer.step()
            writer.reset(clearingBindings: false)
            copied += 1
        }
        return copied
    }
}

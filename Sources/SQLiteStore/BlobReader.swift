import CSQLite

/// Reads the first bytes of one column's BLOBs, row by row (`sqlite3_blob_open`, then
/// `sqlite3_blob_reopen`), so that a header is read without loading the rest of a value that
/// fills overflow pages (a column read loads all of it). Read-only; valid inside the
/// transaction it is used in. Closed on deinit.
public final class BlobReader {
    private let connection: OpaquePointer
    private let table: String, column: String
    private var blob: OpaquePointer?

    /// A reader of `table.column` (schema "main") on `db`.
    public init(_ db: Database, table: String, column: String) {
        connection = db.handle
        self.table = table
        self.column = column
    }

    deinit { sqlite3_blob_close(blob) }

    /// Reads the first bytes of row `rowid`'s value into `buffer` (as many as fit, fewer when the
    /// value is shorter): how many it read, and the value's whole length; nil when the row is
    /// missing or its value is no BLOB or text.
    public func readPrefix(_ rowid: Int64, into buffer: UnsafeMutableRawBufferPointer) -> (read: Int, length: Int)? {
        guard open(rowid), let blob else { return nil }
        let length = Int(sqlite3_blob_bytes(blob))
        let wanted = min(buffer.count, length)
        guard wanted == 0 || sqlite3_blob_read(blob, buffer.baseAddress, Int32(wanted), 0) == SQLITE_OK else { return nil }
        return (wanted, length)
    }

    /// Points the handle at `rowid`: a failed reopen leaves it aborted, so it is closed and the
    /// next row opens a new one.
    private func open(_ rowid: Int64) -> Bool {
        if let blob {
            if sqlite3_blob_reopen(blob, rowid) == SQLITE_OK { return true }
            sqlite3_blob_close(blob)
            self.blob = nil
            return false
        }
        var handle: OpaquePointer?
        guard sqlite3_blob_open(connection, "main", table, column, rowid, 0, &handle) == SQLITE_OK else {
            sqlite3_blob_close(handle)
            return false
        }
        blob = handle
        return true
    }
}

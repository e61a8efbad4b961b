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

    /// Lends `body` the first `count` bytes (fewer when the value is shorter) of row `rowid`'s
    /// value and its whole length; nil, without calling `body`, when the row is missing or its
    /// value is no BLOB or text.
    public func withPrefix<R>(_ rowid: Int64, count: Int, _ body: (UnsafeRawBufferPointer, Int) -> R) -> R? {
        guard open(rowid), let blob else { return nil }
        let length = Int(sqlite3_blob_bytes(blob))
        let wanted = max(0, min(count, length))
        return withUnsafeTemporaryAllocation(byteCount: max(wanted, 1), alignment: 8) { buffer -> R? in
            guard wanted == 0 || sqlite3_blob_read(blob, buffer.baseAddress, Int32(wanted), 0) == SQLITE_OK else { return nil }
            return body(UnsafeRawBufferPointer(rebasing: buffer[0..<wanted]), length)
        }
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

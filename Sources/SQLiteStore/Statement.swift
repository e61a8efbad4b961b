import CSQLite

/// SQLite's "copy the bytes now" destructor for bound text.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement: bind by 1-based index, step, read typed columns. Finalized on deinit.
public final class Statement {
    let handle: OpaquePointer
    let connection: OpaquePointer
    /// The SQL text the statement was prepared from.
    public let sql: String
    private var arguments: [SQLValue] = []

    init(connection: OpaquePointer, sql: String, persistent: Bool = false) throws {
        var handle: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        var trailing: String?
        let rc = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(connection, text, -1, flags, &handle, &tail)
            if rc == SQLITE_OK, let tail, tail.pointee != 0 { trailing = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw DatabaseError(connection: connection, sql: sql)
        }
        if let trailing, try Statement.holdsStatement(trailing, connection: connection) {
            sqlite3_finalize(handle)
            throw DatabaseError(code: SQLITE_MISUSE, message: "more than one statement given to prepare", sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Whether text after a statement holds another one (not just spaces, `;` and comments).
    private static func holdsStatement(_ text: String, connection: OpaquePointer) throws -> Bool {
        var next: OpaquePointer?
        let rc = sqlite3_prepare_v2(connection, text, -1, &next, nil)
        defer { sqlite3_finalize(next) }
        // A syntax error there is still SQL the caller meant to run.
        return rc != SQLITE_OK || next != nil
    }

    /// The number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds all its parameters; a wrong count is an error.
    public func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        guard values.count == parameterCount else {
            throw DatabaseError(code: SQLITE_RANGE,
                                message: "expected \(parameterCount) arguments, got \(values.count)",
                                sql: sql, arguments: values)
        }
        arguments = values
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Binds one value at a 1-based index.
    public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .blob(let bytes):
            // SQLite copies the bytes now (an empty array may have no address: a zero-length BLOB).
            try check(bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), sqliteTransient) })
        }
    }

    /// Binds text at a 1-based index: its UTF-8 bytes, copied by SQLite (no C string is made).
    public func bind(_ text: String, at index: Int32) throws {
        var text = text
        try text.withUTF8 { try bind(utf8: $0, at: index) }
    }

    /// Binds text at a 1-based index from UTF-8 bytes the caller made valid, copied by SQLite.
    public func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws {
        try check(bytes.withMemoryRebound(to: CChar.self) { chars in
            // An empty buffer may have no address, and a NULL pointer would bind NULL.
            guard let start = chars.baseAddress, chars.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
            return sqlite3_bind_text64(handle, index, start, UInt64(chars.count), sqliteTransient, UInt8(SQLITE_UTF8))
        })
    }

    /// Binds text at a 1-based index from a copy in `arena`, which SQLite reads without copying
    /// it again: the arena must keep it until this statement has been stepped (see `TextArena`).
    public func bind(_ text: String, at index: Int32, keptIn arena: TextArena) throws {
        // The arena's texts always have an address (a NULL one would bind NULL).
        guard let bytes = arena.copy(text), let start = bytes.baseAddress else { return try bind(text, at: index) }
        try check(start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text64(handle, index, $0, UInt64(bytes.count), nil, UInt8(SQLITE_UTF8))
        })
    }

    /// Binds an integer, or NULL for nil, at a 1-based index.
    public func bind(_ value: Int64?, at index: Int32) throws {
        try check(value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    /// Binds a real, or NULL for nil, at a 1-based index.
    public func bind(_ value: Double?, at index: Int32) throws {
        try check(value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index))
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw DatabaseError(connection: connection, sql: sql) }
    }

    /// Steps once: true when a row is ready, false when done.
    @discardableResult
    public func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = DatabaseError(connection: connection, sql: sql, arguments: arguments)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets the statement so it can run again; bindings are cleared unless the caller
    /// rebinds every parameter anyway (a hot loop need not pay for clearing them).
    public func reset(clearingBindings: Bool = true) {
        sqlite3_reset(handle)
        if clearingBindings { sqlite3_clear_bindings(handle) }
    }

    /// True when the column of the current row is NULL.
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as an integer; NULL is an error (read it with `optionalInt`).
    public func int64(_ column: Int32) throws -> Int64 {
        if isNull(column) { throw nullColumn(column) }
        return sqlite3_column_int64(handle, column)
    }

    /// The column as an integer, or nil when NULL.
    public func optionalInt(_ column: Int32) -> Int? {
        // NULL reads as 0, so only a 0 needs the type: one call a column in scans, not two.
        let value = sqlite3_column_int64(handle, column)
        return value == 0 && isNull(column) ? nil : Int(value)
    }

    /// The column as a double, or nil when NULL.
    public func optionalDouble(_ column: Int32) -> Double? {
        let value = sqlite3_column_double(handle, column)
        return value == 0 && isNull(column) ? nil : value
    }

    /// The column as text; NULL is an error (read it with `optionalText`).
    public func text(_ column: Int32) throws -> String {
        guard let text = optionalText(column) else { throw nullColumn(column) }
        return text
    }

    /// The column as text, or nil when NULL.
    public func optionalText(_ column: Int32) -> String? {
        guard !isNull(column), let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Lends the column's UTF-8 bytes (nil when NULL) without making a String: valid only
    /// inside `body`, for scans that compare them.
    public func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        // sqlite3_column_text gives no pointer for NULL (nor when out of memory).
        guard let bytes = sqlite3_column_text(handle, column) else { return body(nil) }
        return body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// Lends the column's bytes as a BLOB (nil when NULL): valid only inside `body`.
    public func withBlob<R>(_ column: Int32, _ body: (UnsafeRawBufferPointer?) -> R) -> R {
        guard !isNull(column) else { return body(nil) }
        // A zero-length BLOB has no pointer.
        let bytes = sqlite3_column_blob(handle, column)
        return body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(sqlite3_column_bytes(handle, column))))
    }

    private func nullColumn(_ column: Int32) -> DatabaseError {
        let name = sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "\(column)"
        return DatabaseError(code: SQLITE_MISMATCH, message: "column \(name) is NULL where a value was expected", sql: sql)
    }

    /// The column as a dynamically typed value.
    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: return .null
        default: return .text(optionalText(column) ?? "")
        }
    }
}

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
        let rc = sqlite3_prepare_v3(connection, sql, -1, flags, &handle, nil)
        guard rc == SQLITE_OK, let handle else {
            sqlite3_finalize(handle)
            throw DatabaseError(connection: connection, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

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
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, sqliteTransient)
        }
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

    /// Resets the statement so it can run again with new bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// True when the column of the current row is NULL.
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as an integer.
    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as an integer, or nil when NULL.
    public func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : Int(int64(column)) }

    /// The column as a double, or nil when NULL.
    public func optionalDouble(_ column: Int32) -> Double? {
        isNull(column) ? nil : sqlite3_column_double(handle, column)
    }

    /// The column as text ("" when NULL).
    public func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column as text, or nil when NULL.
    public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// The column as a dynamically typed value.
    public func value(_ column: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: return .null
        default: return .text(text(column))
        }
    }
}

import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An error reported by SQLite, with the statement and arguments that caused it.
public struct DatabaseError: Error, CustomStringConvertible, Sendable {
    /// The primary result code (`.busy`, `.constraint`, ...).
    public let code: ResultCode
    /// The extended result code (`SQLITE_CONSTRAINT_CHECK`, ...).
    public let extendedCode: ResultCode
    /// SQLite's own message.
    public let message: String
    /// The SQL being run, if any.
    public let sql: String?
    /// The bound arguments, kept for debugging and out of ordinary messages.
    public let arguments: [SQLValue]
    /// The operating system's error number behind an I/O error (`EFBIG`, `ENOSPC`), or 0.
    public var systemErrno: Int32 = 0

    /// Creates an error from a result code and message.
    public init(code: Int32, message: String, sql: String? = nil, arguments: [SQLValue] = []) {
        self.extendedCode = ResultCode(rawValue: code)
        self.code = extendedCode.primary
        self.message = message
        self.sql = sql
        self.arguments = arguments
    }

    /// Reads the last error of a connection.
    init(connection: OpaquePointer?, sql: String? = nil, arguments: [SQLValue] = []) {
        let code = connection.map { sqlite3_extended_errcode($0) } ?? SQLITE_ERROR
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, sql: sql, arguments: arguments)
        systemErrno = connection.map { sqlite3_system_errno($0) } ?? 0
    }

    /// Whether the disk was full: SQLite says so as SQLITE_FULL; as an I/O error with ENOSPC behind
    /// it when a WAL or journal write fails; or, opening a WAL database, as its shared-memory file
    /// failing to grow (no errno kept).
    public var isDiskFull: Bool {
        code == .full || extendedCode.rawValue == Self.sharedMemorySize || (code == .ioError && systemErrno == ENOSPC)
    }

    /// SQLITE_IOERR_SHMSIZE, whose macro Swift does not import.
    private static let sharedMemorySize = SQLITE_IOERR | (19 << 8)

    /// The SQLite error code and message, plus the statement when known.
    public var description: String {
        var text = "SQLite error \(extendedCode.rawValue): \(message)"
        if let sql { text += " - while executing \(sql.split(separator: "\n").joined(separator: " "))" }
        return text
    }
}

import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection. Opens with the pragmas every moviecat connection needs; closes on deinit.
public final class Database {
    let handle: OpaquePointer
    /// Whether `withStepLimit` has a limit set (the connection has one progress handler).
    var stepLimited = false
    /// The file this connection is open on.
    public let path: String

    /// How long a connection waits on another writer before giving up (SPEC: at least 30 s).
    public static let busyTimeoutMilliseconds: Int32 = 30_000

    /// Opens (creating when asked) the database at `path` and checks it really is SQLite; its
    /// statements wait up to `busyTimeout` milliseconds for another connection's lock. Without
    /// `settingWAL` the file's journal mode is left as it is (nothing is written by opening).
    public init(path: String, create: Bool = true, busyTimeout: Int32 = Database.busyTimeoutMilliseconds, settingWAL: Bool = true) throws {
        _ = Database.configureOnce
        try Database.checkWritable(path)
        var handle: OpaquePointer?
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        // A name starting `file:` is a URI to a SQLite built with URI names on (Debian's): then
        // `file:x?mode=memory` opened no file at all. A path is always the file of that name.
        let rc = sqlite3_open_v2(path.hasPrefix("file:") ? "./" + path : path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = DatabaseError(connection: handle)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeout)
        // A first cheap read fails early (SQLITE_NOTADB) on a file that is not a database.
        try execute("SELECT count(*) FROM sqlite_master")
        try execute("PRAGMA foreign_keys = ON")
        try registerFunctions()
        if sqlite3_db_readonly(handle, "main") == 1 {
            throw DatabaseError(code: SQLITE_READONLY, message: "the file is read-only")
        }
        // WAL is persistent: set it only when needed, since changing it needs the file to itself.
        // While another process reads a file a sqlite3 user set to another mode, this command
        // keeps that mode (a later one switches): waiting would last the reader's whole session.
        if settingWAL, try scalar("PRAGMA journal_mode") != .text("wal") {
            do {
                try withBusyTimeout(0) { try execute("PRAGMA journal_mode = WAL") }
            } catch let error as DatabaseError where error.code == .busy || error.code == .locked {}
        }
        // WAL makes NORMAL durable across application crashes; one fsync per checkpoint.
        try execute("PRAGMA synchronous = NORMAL")
    }

    /// Refuses a file that could only be opened read-only before SQLite opens it: opening a WAL
    /// database makes its `-wal` and `-shm` files, with the file's read-only mode, and those then
    /// kept every write failing after the file was made writable again. A directory is named as
    /// one. (Root may write any file: a file with no write permission at all is refused too.)
    static func checkWritable(_ path: String) throws {
        var info = stat()
        guard !path.isEmpty, path != ":memory:", stat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw DatabaseError(code: SQLITE_CANTOPEN, message: "it is a directory") }
        if access(path, W_OK) != 0 {
            throw DatabaseError(code: SQLITE_READONLY, message: "the file is read-only (\(String(cString: strerror(errno))))")
        }
        if info.st_mode & 0o222 == 0 { throw DatabaseError(code: SQLITE_READONLY, message: "the file is read-only") }
        // The WAL's -wal and -shm files are made beside the file, when not there already.
        if access(FilePaths.folder(of: path), W_OK) != 0, access(path + "-shm", W_OK) != 0 {
            throw DatabaseError(code: SQLITE_READONLY, message: "its directory is read-only (SQLite keeps the -wal and -shm files beside it)")
        }
    }

    /// A private database in a temporary file that SQLite deletes when it closes (or at once, if
    /// the process dies), without journal or syncs: scratch space for work another connection
    /// copies from.
    public static func scratch() throws -> Database {
        let db = try Database(path: "")
        try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        return db
    }

    /// Whether the schema has a table (or view, index, trigger) named `name`.
    public func hasSchemaObject(_ name: String, type: String = "table") throws -> Bool {
        try intScalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?)", [.text(type), .text(name)]) == 1
    }

    /// The indexes or triggers (`type`) on `tables` (lower-case names) that have SQL of their own
    /// (not those of constraints): their names and definitions. sqlite_master keeps a table's
    /// name as the statement spelled it (`ON Movies`), and SQLite's names ignore ASCII case.
    public func schemaObjects(_ type: String, on tables: [String]) throws -> [(name: String, sql: String)] {
        let placeholders = Array(repeating: "?", count: tables.count).joined(separator: ", ")
        return try query("SELECT name, sql FROM sqlite_master WHERE type = ? AND sql IS NOT NULL AND lower(tbl_name) IN (\(placeholders)) ORDER BY rowid",
                         [.text(type)] + tables.map { .text($0) }) { (name: try $0.text(0), sql: try $0.text(1)) }
    }

    /// The column of an index made as `ON t (c) WHERE c IS NOT NULL` (one column, its NULLs left
    /// out: no row with c NULL has an entry); nil for any other index, and for one whose SQL has
    /// a comment (which could end it in those words).
    public func nullSkippingColumn(ofIndex index: (name: String, sql: String)) throws -> String? {
        guard !index.sql.contains("--"), !index.sql.contains("/*") else { return nil }
        let columns = try query("SELECT name FROM pragma_index_info(?)", [.text(index.name)]) { $0.optionalText(0) }
        guard columns.count == 1, let column = columns[0] else { return nil }
        let words = index.sql.lowercased().split(whereSeparator: \.isWhitespace)
        return words.suffix(5) == ["where", Substring(column.lowercased()), "is", "not", "null"] ? column : nil
    }

    /// Drops the `schemaObjects` that `include` picks (all by default), returning their names and
    /// definitions to create them again.
    public func dropSchemaObjects(_ type: String, on tables: [String],
                                  where include: ((name: String, sql: String)) throws -> Bool = { _ in true })
        throws -> [(name: String, sql: String)] {
        let objects = try schemaObjects(type, on: tables).filter(include)
        // The keyword is one of two fixed words; the name is quoted as an identifier.
        let keyword = type == "index" ? "INDEX" : "TRIGGER"
        for object in objects { try execute("DROP \(keyword) \"\(object.name.replacing("\"", with: "\"\""))\"") }
        return objects
    }

    /// Runs `body` waiting at most `milliseconds` for locks (0: fail at once when busy), then
    /// waits as long as before again (an enclosing call's timeout stays).
    public func withBusyTimeout<T>(_ milliseconds: Int32, _ body: () throws -> T) rethrows -> T {
        let before = (try? intScalar("PRAGMA busy_timeout")).flatMap { Int32(exactly: $0) } ?? Database.busyTimeoutMilliseconds
        sqlite3_busy_timeout(handle, milliseconds)
        defer { sqlite3_busy_timeout(handle, before) }
        return try body()
    }

    /// True once `close()` ran.
    private var closed = false

    deinit { if !closed { sqlite3_close_v2(handle) } }

    /// Closes the connection now; an error (say, statements still open) is thrown, not ignored.
    /// As the last connection, SQLite checkpoints and deletes the WAL.
    public func close() throws {
        guard !closed else { return }
        let rc = sqlite3_close_v2(handle)
        closed = true
        guard rc == SQLITE_OK else { throw DatabaseError(code: rc, message: String(cString: sqlite3_errstr(rc))) }
    }

    /// Process-wide SQLite settings, applied before the first connection opens.
    private static let configureOnce: Void = {
        // Memory statistics cost a global mutex per allocation; moviecat never reads them.
        _ = moviecat_sqlite3_disable_memstatus()
    }()

    /// Adds `moviecat_contains_any(title, text, ...)`, for title search beyond ASCII (SQLite's
    /// own lower() and LIKE fold ASCII letters only).
    private func registerFunctions() throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        // `moviecat_contains_any(title, a, b, ...)`: whether the title, lower-cased once
        // (`searchFolded`), holds any of the (already lower-cased) texts: a set of
        // many titles beyond ASCII lower-cased each title once for every one of them, and one
        // such text tested without a lower-cased copy of each title handed back to SQLite.
        let any = sqlite3_create_function_v2(handle, "moviecat_contains_any", -1, flags, nil, { context, count, arguments in
            guard let arguments, count > 0, sqlite3_value_type(arguments[0]) != SQLITE_NULL, let text = sqlite3_value_text(arguments[0]) else {
                sqlite3_result_null(context)
                return
            }
            let title = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(arguments[0])))
            // An ASCII title lower-cases to ASCII of its own length: a text longer, or beyond
            // ASCII, is not in it (`filter title:é --count` at 10M: 3.4 -> 1.8 s). Each text is
            // read no further than the title's length.
            if Database.isASCII(title) && (1..<Int(count)).allSatisfy({ Database.cannotHold(title.count, arguments[$0]) }) {
                sqlite3_result_int(context, 0)
                return
            }
            let found = Database.withSearchFolded(title) { folded in
                (1..<Int(count)).contains { index in
                    guard let value = arguments[index], let needle = sqlite3_value_text(value) else { return false }
                    let length = Int(sqlite3_value_bytes(value))
                    return length == 0 || Database.contains(folded, UnsafeBufferPointer(start: needle, count: length))
                }
            }
            sqlite3_result_int(context, found ? 1 : 0)
        }, nil, nil, nil)
        guard any == SQLITE_OK else { throw DatabaseError(connection: handle) }
    }

    /// Runs one or more statements without arguments (migrations, pragmas, seed data).
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw DatabaseError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Prepares one statement; `persistent` hints that it will be reused many times. SQL after
    /// the first statement is an error (SQLite would ignore it silently); `execute` runs several.
    public func prepare(_ sql: String, persistent: Bool = false) throws -> Statement {
        try Statement(connection: handle, sql: sql, persistent: persistent)
    }

    /// Runs one statement with bound arguments.
    public func run(_ sql: String, _ arguments: [SQLValue] = []) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() {}
    }

    /// Runs a query and maps each row.
    public func query<T>(_ sql: String, _ arguments: [SQLValue] = [],
                         _ row: (Statement) throws -> T) throws -> [T] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var rows: [T] = []
        while try statement.step() { rows.append(try row(statement)) }
        return rows
    }

    /// Runs a query and visits each row without collecting them (streaming output).
    public func forEachRow(_ sql: String, _ arguments: [SQLValue] = [],
                           _ body: (Statement) throws -> Void) throws {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        while try statement.step() { try body(statement) }
    }

    /// The first column of the first row, or nil when there is no row or it is NULL.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        guard try statement.step() else { return nil }
        let value = statement.value(0)
        return value == .null ? nil : value
    }

    /// An integer scalar, 0 when absent.
    public func intScalar(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
        if case .integer(let value)? = try scalar(sql, arguments) { return Int(value) }
        return 0
    }

    /// The rowid of the last insert.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: commits on return, rolls back on throw.
    /// With `commit: false` it rolls back even on success (a dry run).
    public func transaction<T>(commit: Bool = true, _ body: () throws -> T) throws -> T {
        try enclosed(begin: "BEGIN IMMEDIATE", end: commit ? "COMMIT" : "ROLLBACK") {
            // Another connection may have changed the schema while BEGIN waited for the lock;
            // SQLite 3.40 then fails to prepare a DELETE on movies ("no such table", SQLITE_SCHEMA)
            // where other statements prepare again. Reading the schema table under the lock
            // loads the schema as it now is, for every statement after.
            _ = try scalar("SELECT count(*) FROM sqlite_master")
            return try body()
        }
    }

    /// Runs `body` in a read transaction (`BEGIN`, deferred): all its statements see the file as
    /// the first of them found it, whatever other connections commit meanwhile (WAL). Inside an
    /// open transaction it just runs `body`.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        if inTransaction { return try body() }
        return try enclosed(begin: "BEGIN", end: "COMMIT", body)
    }

    /// Runs `body` between `begin` and `end`; rolls back on throw.
    private func enclosed<T>(begin: String, end: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute(end)
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Stops the statement this connection is running as soon as it can (it fails with
    /// SQLITE_INTERRUPT); callable from any thread.
    public func interrupt() { sqlite3_interrupt(handle) }

    /// Whether a transaction is open.
    public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` (whole transactions) without foreign-key enforcement, then turns it back on.
    /// Only for writers that keep references right by construction: without it there are no
    /// checks and no cascades. The pragma is a no-op inside a transaction, so that is an error.
    public func withoutForeignKeys<T>(_ body: () throws -> T) throws -> T {
        guard !inTransaction else {
            throw DatabaseError(code: SQLITE_MISUSE, message: "foreign keys cannot be turned off inside a transaction")
        }
        try execute("PRAGMA foreign_keys = OFF")
        defer { try? execute("PRAGMA foreign_keys = ON") }
        return try body()
    }

    /// The SQLite library version, e.g. "3.40.1".
    public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// A temporary file path, removed with its WAL files at deinit.
final class TempPath {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("mc-\(UUID().uuidString).sqlite").path
    deinit { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
}

/// The connection, statements, transactions and migrations.
@Suite struct StorageTests {
    @Test("a connection applies the pragmas every moviecat connection needs")
    func pragmas() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        #expect(try db.intScalar("PRAGMA foreign_keys") == 1)
        #expect(try db.scalar("PRAGMA journal_mode") == .text("wal"))
        #expect(try db.intScalar("PRAGMA busy_timeout") >= 30_000)
    }

    @Test("a file that is not SQLite is refused with SQLITE_NOTADB")
    func notADatabase() throws {
        let temp = TempPath()
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: temp.path))
        let error = #expect(throws: DatabaseError.self) { try Database(path: temp.path) }
        #expect(error?.code == .notADatabase)
        #expect(CatalogError.from(error!, catalogPath: "x").kind == .cannotUseCatalog)
    }

    @Test("binding the wrong number of arguments is an error, not a crash")
    func argumentCount() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let statement = try db.prepare("SELECT ?, ?")
        #expect(throws: DatabaseError.self) { try statement.bind([.integer(1)]) }
    }

    @Test("typed columns and text with quotes round-trip through bindings")
    func typedRows() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let values: [SQLValue] = [.null, .integer(-3), .real(2.5), .text("it's \"ok\" 🎬")]
        let row = try db.query("SELECT ?, ?, ?, ?", values) { s in (0..<4).map { s.value(Int32($0)) } }
        #expect(row == [values])
    }

    @Test("a transaction rolls back when its body throws")
    func rollback() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        try db.execute("CREATE TABLE t (x)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (?)", [.integer(1)])
                throw Boom()
            }
        }
        #expect(try db.intScalar("SELECT count(*) FROM t") == 0)
    }

    @Test("migrations set user_version; a newer catalog is refused naming both versions")
    func migrations() throws {
        let temp = TempPath()
        let catalog = try Catalog(path: temp.path)
        #expect(try catalog.schemaVersion() == CatalogSchema.latestVersion)
        try catalog.db.execute("PRAGMA user_version = 99")
        let error = #expect(throws: CatalogError.self) { try Catalog(path: temp.path) }
        #expect(error?.kind == .cannotUseCatalog)
        #expect(error?.message.contains("99") == true && error?.message.contains("\(CatalogSchema.latestVersion)") == true)
    }

    @Test("seeding twice keeps 13 movies; the app's example matches four")
    func seed() throws {
        let temp = TempPath()
        let catalog = try Catalog(path: temp.path)
        try catalog.seed()
        try catalog.seed()
        #expect(try catalog.counts().movies == 13)
        let set = FilterSet([.genre("drama"), .rating(.bucket(5)), .duration(.hours(3))])
        #expect(try catalog.movies(MovieQuery(filters: set)).map(\.title)
                == ["2001: A Space Odyssey", "Bohemian Rhapsody", "La La Land", "The Godfather"])
    }

    @Test("presets store one row per element and come back equal")
    func presets() throws {
        let temp = TempPath()
        let catalog = try Catalog(path: temp.path)
        let set = FilterSet([.genre("drama"), .rating(.range(7.5, nil)), .title("it's"), .year(.decade(1990))])
        try catalog.savePreset(name: " Drámas 🎬 ", filters: set, replace: false)
        #expect(try catalog.preset(named: "drámas 🎬").filters == set)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM preset_filters") == 4)
        let duplicate = #expect(throws: CatalogError.self) { try catalog.savePreset(name: "DRÁMAS 🎬", filters: set, replace: false) }
        #expect(duplicate?.kind == .alreadyExists)
        try catalog.renamePreset("Drámas 🎬", to: "best")
        try catalog.deletePreset(named: "BEST")
        #expect(try catalog.presets().isEmpty)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM preset_filters") == 0)
    }
}

/// The SQLite wrapper's edges: one statement per prepare, NULL where a value is expected,
/// closing, foreign keys and migration numbering.
@Suite struct StorageEdgeTests {
    /// Texts bound from an arena are read where they lie: each batch's must come back as bound,
    /// whether they fit (bound in place) or not (copied by SQLite), empty and non-ASCII ones too.
    @Test("texts bound from an arena round-trip, batch after batch, in place or copied", arguments: [1, 1 << 16])
    func arenaTexts(capacity: Int) throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE t (batch INTEGER, a TEXT, b TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?), (?, ?, ?)")
        let arena = TextArena(capacity: capacity), tiny = TextArena(capacity: 1)
        #expect(tiny.copy("ab") == nil && tiny.copy("a").map(Array.init) == Array("a".utf8), "a text that does not fit is not copied")
        var expected: [[String]] = []
        for batch in 0..<50 {
            let texts = ["", "é\(batch)", String(repeating: "x", count: batch * 7), "Ǆ \(batch) 東京", "Mr. \(batch)", "\(batch)"]
            // Every other batch binds from an arena of one byte: texts longer are copied by SQLite.
            let kept = batch % 2 == 0 ? arena : tiny
            kept.clear(reserving: batch % 2 == 0 ? texts.reduce(0) { $0 + $1.utf8.count } : 0)
            for (row, pair) in [(0, 1), (2, 3)].enumerated() {
                try insert.bind(Int64(batch), at: Int32(3 * row + 1))
                try insert.bind(texts[pair.0], at: Int32(3 * row + 2), keptIn: kept)
                try insert.bind(texts[pair.1], at: Int32(3 * row + 3), keptIn: kept)
            }
            try insert.step()
            insert.reset(clearingBindings: false)
            expected += [["\(batch)", texts[0], texts[1]], ["\(batch)", texts[2], texts[3]]]
        }
        let stored = try db.query("SELECT batch, a, b FROM t ORDER BY rowid", []) { ["\(try $0.int64(0))", try $0.text(1), try $0.text(2)] }
        #expect(stored == expected)
        #expect(try db.intScalar("SELECT count(*) FROM t WHERE a IS NULL OR b IS NULL") == 0, "an empty text binds '', not NULL")
    }

    @Test("prepare refuses SQL after the first statement; spaces, semicolons and comments may follow", arguments: [
        ("SELECT 1; SELECT 2", false), ("SELECT 1;", true), ("SELECT 1;  -- done\n", true), ("SELECT 1; /* c */ ;", true),
        ("CREATE TABLE a (x); DROP TABLE a", false), ("SELECT 1; nonsense", false),
    ])
    func trailingSQL(_ sql: String, _ accepted: Bool) throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        if accepted {
            #expect(throws: Never.self) { try db.run(sql) }
        } else {
            let error = #expect(throws: DatabaseError.self) { try db.run(sql) }
            #expect(error?.code == .misuse || error?.code == .error)
        }
        #expect(try db.intScalar("SELECT count(*) FROM sqlite_master") == 0, "nothing ran")
    }

    @Test("reading NULL as a non-optional value throws; the optional readers give nil")
    func nullColumns() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let statement = try db.prepare("SELECT NULL AS missing, '' AS empty")
        #expect(try statement.step())
        let text = #expect(throws: DatabaseError.self) { try statement.text(0) }
        #expect(text?.message == "column missing is NULL where a value was expected")
        #expect(throws: DatabaseError.self) { try statement.int64(0) }
        #expect(statement.optionalText(0) == nil && statement.optionalInt(0) == nil)
        #expect(try statement.text(1) == "")
    }

    @Test("close() closes and reports; foreign keys cannot be turned off inside a transaction")
    func closeAndForeignKeys() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let error = #expect(throws: DatabaseError.self) {
            try db.transaction { try db.withoutForeignKeys { } }
        }
        #expect(error?.code == .misuse)
        #expect(try db.intScalar("PRAGMA foreign_keys") == 1)
        try db.close()
        try db.close()
        #expect(!FileManager.default.fileExists(atPath: temp.path + "-wal"), "the last connection removes the WAL")
    }

    @Test("migrations must be numbered exactly 1...n", arguments: [
        (["0001_a.sql", "0002_b.sql"], nil),
        (["0001_a.sql", "0003_c.sql"], "version 2 is missing before 0003_c.sql"),
        (["0001_a.sql", "0001_b.sql"], "two migrations have version 1"),
        (["0001_a.sql", "readme.sql"], "readme.sql has no version number"),
        (["0002_b.sql"], "version 1 is missing before 0002_b.sql"),
    ] as [([String], String?)])
    func numbering(_ names: [String], _ problem: String?) {
        let files = names.map { (name: $0, sql: "SELECT 1;") }
        if let problem {
            #expect(throws: MigrationError.badNumbering(problem)) { try Migrator(files: files) }
        } else {
            #expect(throws: Never.self) { try Migrator(files: files) }
        }
    }

    @Test("pending migrations land together or not at all: a failing third leaves the first two undone and the version as it was")
    func migrationsInOneTransaction() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try Database(path: dir.appendingPathComponent("m.sqlite").path)
        let first = try Migrator(files: [("0001_a.sql", "CREATE TABLE a (x); PRAGMA user_version = 1;")])
        try first.migrate(db)
        let failing = try Migrator(files: [("0001_a.sql", "CREATE TABLE a (x); PRAGMA user_version = 1;"),
                                           ("0002_b.sql", "CREATE TABLE b (x); PRAGMA user_version = 2;"),
                                           ("0003_c.sql", "CREATE TABLE c (x); PRAGMA user_version = 3;"),
                                           ("0004_d.sql", "INSERT INTO nowhere VALUES (1); PRAGMA user_version = 4;")])
        var hooked: [Int] = []
        #expect(throws: (any Error).self) { try failing.migrate(db, prepare: { try $0.execute("INSERT INTO a VALUES (1)") }) { version, _ in hooked.append(version) } }
        #expect(hooked == [2, 3])
        #expect(try db.intScalar("PRAGMA user_version") == 1)
        #expect(try db.intScalar("SELECT count(*) FROM sqlite_master WHERE name IN ('b', 'c')") == 0)
        #expect(try db.intScalar("SELECT count(*) FROM a") == 0, "what prepare wrote is rolled back too")
    }

    @Test("the compiled-in migrations are numbered 1...n")
    func compiledIn() throws {
        let migrator = try CatalogSchema.migrator.get()
        #expect(migrator.migrations.map(\.version) == Array(1...migrator.latestVersion))
    }
}

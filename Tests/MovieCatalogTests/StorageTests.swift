import Foundation
import Testing
@testable import MovieCatalog

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
        #expect(error?.code == 26)
        #expect(CatalogError.from(error!, catalogPath: "x").status == .cannotUseCatalog)
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
        #expect(try catalog.schemaVersion() == Migrator.latestVersion)
        try catalog.db.execute("PRAGMA user_version = 99")
        let error = #expect(throws: CatalogError.self) { try Catalog(path: temp.path) }
        #expect(error?.status == .cannotUseCatalog)
        #expect(error?.message.contains("99") == true && error?.message.contains("\(Migrator.latestVersion)") == true)
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
        #expect(duplicate?.status == .notFound)
        try catalog.renamePreset("Drámas 🎬", to: "best")
        try catalog.deletePreset(named: "BEST")
        #expect(try catalog.presets().isEmpty)
        #expect(try catalog.db.intScalar("SELECT count(*) FROM preset_filters") == 0)
    }
}

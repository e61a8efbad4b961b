import Foundation
import Testing

/// Writers that wait for another process's transaction, one that changes the schema (an import
/// rebuilding indexes, a sqlite3 user's CREATE INDEX), then do their work.
@Suite struct ConcurrencyTests {
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        /// What must hold afterwards, read with sqlite3.
        let check: String
        var description: String { arguments.joined(separator: " ") }
    }

    // `remove` exited 70 here ("no such table: movies"): SQLite 3.40 failed to prepare its DELETE
    // after BEGIN waited out a schema change.
    @Test("a writer waits out another process's schema change, then succeeds", arguments: [
        Case(arguments: ["remove", "2"], check: "SELECT count(*) = 0 FROM movies WHERE id = 2"),
        Case(arguments: ["edit", "2", "--rating", "3"], check: "SELECT rating = 3 FROM movies WHERE id = 2"),
        Case(arguments: ["add", "--title", "Waited", "--year", "2001"], check: "SELECT count(*) = 1 FROM movies WHERE title = 'Waited'"),
        Case(arguments: ["import", "one.csv"], check: "SELECT count(*) = 1 FROM movies WHERE title = 'Imported'"),
        Case(arguments: ["save-preset", "p", "--genre", "drama"], check: "SELECT count(*) = 1 FROM presets WHERE name = 'p'"),
    ])
    func waitsOutSchemaChange(_ c: Case) throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("one.csv", "title,year\nImported,2002\n")

        // Another process holds the write lock in a transaction that adds an index.
        let holder = try LockHolder(db: box.db, sql: "CREATE INDEX held ON movies (rating);")

        let errors = Pipe()
        let writer = try launch(moviecatBinary, ["--db", box.db] + c.arguments, in: box.dir, errors: errors)
        usleep(500_000)   // it opens the catalog, then waits for the lock
        try holder.commit()
        writer.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        #expect(writer.terminationStatus == 0, "\(stderr)")
        #expect(try box.sql(c.check) == ["1"], "\(stderr)")
        #expect(try box.sql("SELECT count(*) FROM sqlite_master WHERE name = 'held'") == ["1"])
    }
}

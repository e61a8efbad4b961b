import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 3, must have 6: one import is one transaction, and a `kill -9` at any moment leaves the
/// catalog exactly as it was. Checked for both write paths: row by row into a catalog that already
/// holds movies, and the bulk load into an empty one (rollback journal, indexes dropped and rebuilt).
@Suite(.serialized) struct ImportAtomicityTests {
    static let rows = 300_000

    /// Writes a CSV of `rows` distinct movies with 1 to 3 genres each (one new genre), into the sandbox.
    static func writeBigCSV(_ box: Sandbox, name: String = "big.csv") throws -> String {
        var out: [UInt8] = []
        out.reserveCapacity(rows * 64)
        out.append(contentsOf: "title,year,genres,rating,duration,certification\n".utf8)
        let genres: [[UInt8]] = ["Drama", "Comedy|Drama", "Action|Sci-Fi|Thriller", "Film Noir|Crime"].map { Array($0.utf8) }
        let tails: [[UInt8]] = [",7.5,120,PG\n", ",,95,\n", ",3,2h,R\n", ",10,1h 30m,pg-13\n"].map { Array($0.utf8) }
        for i in 0..<rows {
            out.append(contentsOf: "Generated Movie \(i),\(1900 + i % 200),".utf8)
            out.append(contentsOf: genres[i & 3])
            out.append(contentsOf: tails[(i >> 2) & 3])
        }
        let path = box.path(name)
        try Data(out).write(to: URL(fileURLWithPath: path))
        return name
    }

    enum Start: String, Sendable { case seeded, empty }

    /// When the import is killed: after some seconds, or as soon as it has written to its WAL or
    /// journal (a fixed delay alone may end before a busy machine's import has written anything).
    enum Moment: Sendable, CustomStringConvertible {
        case after(Double)
        case written
        var description: String {
            switch self {
            case .after(let seconds): "after \(seconds) s"
            case .written: "once it has written"
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        let start: Start
        let moment: Moment
        var description: String { "\(start) catalog, killed \(moment)" }
    }

    static let cases = [Moment.after(0.3), .after(0.55), .written].flatMap { moment in
        [Case(start: .seeded, moment: moment), Case(start: .empty, moment: moment)]
    }

    /// The sizes of the catalog's WAL and rollback journal (nil: no such file).
    static func sideFileSizes(_ db: String) -> [Int?] {
        ["-wal", "-journal"].map { (try? FileManager.default.attributesOfItem(atPath: db + $0))?[.size] as? Int }
    }

    @Test("kill -9 during an import leaves the catalog exactly as it was", arguments: cases)
    func killedImport(_ c: Case) throws {
        let box = try Sandbox()
        if c.start == .seeded { try box.seed() } else { try box.initEmpty() }
        let file = try Self.writeBigCSV(box)
        let before = try box.dump()
        let movies = c.start == .seeded ? "13" : "0"

        let process = try launch(moviecatBinary, ["--db", box.db, "import", file], in: box.dir)
        let started = Date()
        switch c.moment {
        case .after(let seconds):
            while Date().timeIntervalSince(started) < seconds { usleep(10_000) }
        case .written:
            // What the import writes: a WAL (row by row) or a rollback journal (bulk load).
            while process.isRunning && !Self.sideFileSizes(box.db).contains(where: { ($0 ?? 0) > 0 })
                    && Date().timeIntervalSince(started) < 60 { usleep(5_000) }
        }
        let sizes = Self.sideFileSizes(box.db)
        let sideFiles = "wal \(sizes[0].map(String.init) ?? "none"), journal \(sizes[1].map(String.init) ?? "none")"
        try #require(process.isRunning, "the import ended \(c.moment): the file is too small to kill it midway")
        if case .written = c.moment {
            #expect(sizes.contains { ($0 ?? 0) > 0 }, "the import wrote nothing in 60 s, so the kill proves little (\(sideFiles))")
        }
        #expect(kill(process.processIdentifier, SIGKILL) == 0)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
                "killed by SIGKILL (side files at the kill: \(sideFiles))")

        // The sqlite3 shell sees the catalog as before (it rolls back a hot journal or ignores an uncommitted WAL).
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        #expect(try box.scalar("SELECT count(*) FROM movies") == movies, "side files at the kill: \(sideFiles)")
        #expect(try box.scalar("SELECT count(*) FROM movie_genres WHERE movie_id > 13") == "0")
        #expect(try box.scalar("SELECT count(*) FROM genres WHERE code = 'film-noir'") == "0")
        #expect(try box.dump() == before, "the catalog changed (side files at the kill: \(sideFiles))")

        // moviecat works on it afterwards, in WAL mode, and can import into it.
        let count = try box.moviecat("filter", "--count")
        #expect(count.status == 0 && count.lines == [movies], "\(count)")
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"])
        try box.write("small.csv", "title,year,genres\nAfter The Kill,2020,Film Noir\n")
        let run = try box.moviecat("import", "small.csv")
        #expect(run.status == 0 && run.report("small.csv")?.inserted == 1, "\(run)")
        #expect(try box.scalar("SELECT count(*) FROM movies") == String(Int(movies)! + 1))
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"])
    }

    @Test("the empty-catalog path is still atomic when moviecat opens the killed catalog first")
    func killedBulkLoadReopenedByMoviecat() throws {
        let box = try Sandbox()
        try box.initEmpty()
        let file = try Self.writeBigCSV(box)
        let before = try box.dump()
        let process = Process()
        process.executableURL = moviecatBinary
        process.arguments = ["--db", box.db, "import", file]
        process.currentDirectoryURL = box.dir
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(600_000)
        try #require(process.isRunning, "the import ended too soon")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        // Here moviecat, not sqlite3, is the first to open the catalog after the kill.
        let count = try box.moviecat("filter", "--count")
        #expect(count.status == 0 && count.lines == ["0"], "\(count)")
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"])
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        #expect(try box.dump() == before)
    }
}

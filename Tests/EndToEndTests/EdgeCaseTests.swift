import Foundation
import Testing

/// Edge cases found in review: file endings, rejects across inputs, foreign databases,
/// numbers that must survive a round trip, and inputs that once crashed or misled.
@Suite struct EdgeCaseTests {
    struct Ending: Sendable, CustomStringConvertible {
        let name: String
        let bytes: String
        let titles: [String]
        var description: String { name }
    }

    static let endings: [Ending] = [
        Ending(name: "no-final-newline.csv", bytes: "title,year\nAlpha,2000\nBeta,2001", titles: ["Alpha", "Beta"]),
        Ending(name: "no-final-newline.tsv", bytes: "title\tyear\nGamma\t2000", titles: ["Gamma"]),
        Ending(name: "cr-only.csv", bytes: "title,year\rAlpha,2000\rBeta,2001\r", titles: ["Alpha", "Beta"]),
        Ending(name: "quoted-last.csv", bytes: "title\r\n\"Delta, the end\"", titles: ["Delta, the end"]),
    ]

    @Test("files without a final newline or with CR-only line ends import whole", arguments: endings)
    func importsWhole(_ c: Ending) throws {
        let box = try Sandbox()
        let path = try box.write(c.name, c.bytes)
        let run = try box.moviecat("import", path)
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY title") == c.titles)
    }

    @Test("rejects from inputs with different columns each follow their own header; a failed import leaves none")
    func rejectsAcrossInputs() throws {
        let box = try Sandbox()
        try box.write("j.jsonl", "{\"title\":\"A\",\"rating\":11}\n")
        try box.write("c.csv", "title,year\nB,99999\n")
        let run = try box.moviecat("import", "j.jsonl", "c.csv", "--skip-invalid", "--rejects", "rej.csv")
        #expect(run.status == 0, "\(run)")
        let lines = try String(contentsOf: box.dir.appendingPathComponent("rej.csv"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(lines == ["title,year,genres,rating,votes,duration,certification,imdb_id,error",
                          "A,,,11,,,,,j.jsonl:1: rating: '11' is outside 0..10",
                          "title,year,error",
                          "B,99999,c.csv:2: year: '99999' is outside 1870..2100"])
        try box.write("broken.csv", "title\n\"never closed\n")
        let failed = try box.moviecat("import", "c.csv", "broken.csv", "--skip-invalid", "--rejects", "rej2.csv")
        #expect(failed.status == 65, "\(failed)")
        #expect(!FileManager.default.fileExists(atPath: box.dir.appendingPathComponent("rej2.csv").path))
    }

    @Test("a tiny rating and JSON exponents survive the jsonl round trip")
    func numbersRoundTrip() throws {
        let box = try Sandbox()
        let input = "{\"title\":\"Tiny\",\"rating\":0.00001}\n{\"title\":\"Exp\",\"rating\":7.5e0,\"year\":1.994e3}\n"
        #expect(try box.moviecat(["import", "--format", "jsonl", "-"], stdin: input).status == 0)
        let out = try box.moviecat("filter", "--format", "jsonl")
        #expect(out.stdout.contains("\"rating\":0.00001"), "\(out)")
        let copy = box.dir.appendingPathComponent("copy.sqlite").path
        let back = try runProcess(moviecatBinary, ["--db", copy, "import", "--format", "jsonl", "-"], stdin: Data(out.stdout.utf8))
        #expect(back.status == 0, "\(back)")
        #expect(try box.sql("SELECT title, year, rating FROM movies ORDER BY title", db: copy)
                == box.sql("SELECT title, year, rating FROM movies ORDER BY title"))
    }

    @Test("another program's SQLite file is refused with 73, without SQL in the message")
    func foreignDatabase() throws {
        let box = try Sandbox()
        _ = try box.sql("CREATE TABLE movies (x)")
        let before = try box.dump()
        let run = try box.moviecat("info")
        #expect(run.status == 73, "\(run)")
        #expect(run.errorLines == ["moviecat: error: \(box.db) is a SQLite database of another program (it has tables but no moviecat schema version)"])
        #expect(try box.dump() == before)
    }

    struct Usage: Sendable, CustomStringConvertible {
        let arguments: [String]
        let message: String
        var description: String { arguments.joined(separator: " ") }
    }

    static let usages: [Usage] = [
        Usage(arguments: ["--db=", "info"], message: "invalid for '--db <path>': the catalog path cannot be empty"),
        Usage(arguments: ["import", "x.csv", "--map", "title=name", "--map", "year=NAME"],
              message: "column 'NAME' already feeds title"),
        Usage(arguments: ["save-preset", "bad\u{2028}name", "--genre", "drama"], message: "line-separator characters"),
        Usage(arguments: ["save-preset", "zero\u{200B}width", "--genre", "drama"], message: "format"),
    ]

    @Test("usage errors for empty --db, one column for two fields, invisible preset characters", arguments: usages)
    func usage(_ c: Usage) throws {
        let box = try Sandbox()
        try box.write("x.csv", "name,year\nA,2000\n")
        let run = try runProcess(moviecatBinary, c.arguments.first == "--db=" ? c.arguments : ["--db", box.db] + c.arguments,
                                 directory: box.dir)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains(c.message), "\(run)")
    }

    @Test("ids a sqlite3 user spread over all of Int64 are counted, searched and faceted, not an overflow")
    func extremeIDs() throws {
        let box = try Sandbox()
        try box.seed()
        _ = try box.sql("""
            INSERT INTO movies (id, title, year) VALUES (-9000000000000000000, 'Low Heart', 1999),
                (1000000, 'Far Heart', 2000), (9223372036854775807, 'Last Heart', 2002)
            """)
        for (args, expected) in [(["filter", "--count"], "16"), (["filter", "--count", "--title", "heart"], "3"),
                                 (["filter", "--count", "--year", "1999..2002"], "3")] {
            let run = try box.moviecat(args)
            #expect(run.status == 0 && run.stdout == expected + "\n", "\(args): \(run)")
        }
        let listed = try box.moviecat("filter", "--title", "heart", "--sort", "year", "--limit", "5", "--format", "csv")
        #expect(listed.status == 0 && listed.lines.dropFirst().map { String($0.prefix { $0 != "," }) }
                == ["-9000000000000000000", "1000000", "9223372036854775807"], "\(listed)")
        let facets = try box.moviecat("facets", "--format", "json")
        #expect(facets.status == 0 && facets.stderr.isEmpty, "\(facets)")
    }

    @Test("movies a sqlite3 user stored with id 0 or a negative id can be edited and removed")
    func nonPositiveIDs() throws {
        let box = try Sandbox()
        try box.seed()
        _ = try box.sql("INSERT INTO movies (id, title, year) VALUES (-1, 'Minus', 1999), (0, 'Zero', 2000)")
        let edited = try box.moviecat("edit", "--votes", "5", "--", "-1")
        #expect(edited.status == 0, "\(edited)")
        #expect(try box.sql("SELECT votes FROM movies WHERE id = -1") == ["5"])
        let removed = try box.moviecat("remove", "--", "-1", "0")
        #expect(removed.status == 0, "\(removed)")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE id <= 0") == ["0"])
        let missing = try box.moviecat("remove", "--", "-7")
        #expect(missing.status == 1 && missing.stderr.contains("-7"), "\(missing)")
    }

    @Test("remove with a repeated id removes it once; seeding keeps a user's own genres")
    func removeAndSeed() throws {
        let box = try Sandbox()
        #expect(try box.moviecat("add", "--title", "Taken", "--year", "2008", "--genre", "thriller").status == 0)
        #expect(try box.moviecat("init", "--seed").status == 0)
        #expect(try box.sql("SELECT genres FROM movie_list WHERE title = 'Taken'") == ["Thriller"])
        #expect(try box.sql("SELECT count(*) FROM movies") == ["13"])
        let run = try box.moviecat("remove", "1", "1")
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("removed 1 movie"), "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["12"])
        let edit = try box.moviecat("edit", "2", "2", "--rating", "5")
        #expect(edit.status == 0 && edit.errorLines == ["changed 1 movie"], "\(edit)")
    }

    @Test("title search ignores case beyond ASCII; table output shows control characters")
    func unicodeAndControls() throws {
        let box = try Sandbox()
        try box.write("u.csv", "title,year\nAmélie,2001\nAMÉLIE,2002\n\"Bell\u{07}\u{1B}[2J\",2003\n")
        #expect(try box.moviecat("import", "u.csv").status == 0)
        #expect(try box.moviecat("filter", "--title", "amélie", "--count").stdout == "2\n")
        let table = try box.moviecat("filter", "--title", "bell")
        #expect(table.stdout.contains("Bell␇␛[2J"), "\(table)")
        #expect(!table.stdout.unicodeScalars.contains { $0.value == 0x1B }, "\(table)")
    }

    @Test("readers keep working while a first import into an empty catalog runs")
    func readersDuringBulkLoad() throws {
        let box = try Sandbox()
        #expect(try box.moviecat("init").status == 0)
        // An import that holds its transaction open: stdin delivers rows, then stays open a while.
        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: "/bin/sh")
        importer.arguments = ["-c", "(printf 'title\\nA\\nB\\n'; sleep 4) | \"$0\" --db \"$1\" import --format csv -",
                              moviecatBinary.path, box.db]
        try importer.run()
        defer { importer.terminate(); importer.waitUntilExit() }
        Thread.sleep(forTimeInterval: 1.0)
        let started = Date()
        let reader = try box.moviecat("filter", "--count")
        #expect(reader.status == 0, "\(reader)")
        #expect(reader.stdout == "0\n")
        #expect(Date().timeIntervalSince(started) < 2, "the reader waited for the import")
    }

    @Test("--on-duplicate fail into an empty catalog folds repeats within the input")
    func failWithRepeats() throws {
        let box = try Sandbox()
        try box.write("r.csv", "title,year,rating\nA,2000,5\nB,2001,6\na,2000,7\n")
        let run = try box.moviecat("import", "--on-duplicate", "fail", "r.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("3 rows read, 2 inserted, 0 updated, 0 skipped, 0 rejected, 1 repeated"), "\(run)")
        #expect(try box.sql("SELECT title, rating FROM movies ORDER BY title") == ["B|6.0", "a|7.0"])
    }

    @Test("--rejects may not name the catalog or an input; a failed import keeps an older rejects file")
    func rejectsPathSafety() throws {
        let box = try Sandbox()
        try box.write("in.csv", "title,year\nA,99999\nB,2000\n")
        for target in [box.db, "in.csv", "./in.csv"] {
            let run = try box.moviecat("import", "--skip-invalid", "--rejects", target, "in.csv")
            #expect(run.status == 64, "\(target): \(run)")
            let what = target == box.db ? "the catalog (\(box.db))" : "the input in.csv"
            #expect(run.errorLines.last == "moviecat: error: --rejects \(target) would overwrite \(what)", "\(run)")
        }
        #expect(try String(contentsOf: box.dir.appendingPathComponent("in.csv"), encoding: .utf8) == "title,year\nA,99999\nB,2000\n")
        try box.write("old.csv", "keep\n")
        try box.write("bad.csv", "title\n\"open\n")
        let failed = try box.moviecat("import", "--skip-invalid", "--rejects", "old.csv", "in.csv", "bad.csv")
        #expect(failed.status == 65, "\(failed)")
        #expect(try String(contentsOf: box.dir.appendingPathComponent("old.csv"), encoding: .utf8) == "keep\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.contains("moviecat-rejects") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("an import that fails early does not wait for a stalled pipe to deliver more")
    func failsWithoutWaitingForPipe() throws {
        let box = try Sandbox()
        try box.seed()
        var rows = "title,year\nTaken,2008\n"
        for i in 0..<700 { rows += "Pipe Movie \(i),2001\n" }
        let process = Process()
        process.executableURL = moviecatBinary
        process.arguments = ["--db", box.db, "import", "--format", "csv", "--on-duplicate", "fail", "-"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Deliver the rows, then keep the pipe open as a stalled upstream would.
        try input.fileHandleForWriting.write(contentsOf: Data(rows.utf8))
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        let exitedEarly = !process.isRunning
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(exitedEarly, "moviecat waited for the pipe to close")
        #expect(process.terminationStatus == 65)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("-:2: 'Taken' is already in the catalog as movie"), "\(message)")
    }
}

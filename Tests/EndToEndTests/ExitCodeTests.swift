import Foundation
import Testing
import TestSupport

/// SPEC section 5: each exit code, the one-line error on stderr, and an unchanged catalog after a failure.
@Suite struct ExitCodeTests {
    /// What the catalog given to `--db` is.
    enum CatalogKind: Sendable {
        /// The demo catalog with a preset named "mine".
        case seeded
        /// `somefile/x.sqlite`, where `somefile` is a regular file.
        case underRegularFile
        /// A file of garbage bytes.
        case notSQLite
        /// A directory.
        case directory
        /// A catalog whose `user_version` sqlite3 set to 99.
        case newerVersion
    }

    struct Case: Sendable, CustomStringConvertible {
        let label: String
        let arguments: [String]
        let status: Int32
        /// Text the error line must contain.
        var mentions: [String] = []
        /// Regular expressions the error line must match.
        var patterns: [String] = []
        /// Files written into the sandbox first.
        var files: [String: String] = [:]
        var catalog: CatalogKind = .seeded
        /// For usage errors: the command named in the `See 'moviecat CMD --help'.` line ("" for none).
        var usageOf: String?
        /// Prefixes of the problem lines that come before the error line, in order.
        var details: [String] = []
        var description: String { "\(status): \(label)" }
    }

    static let header = "title,year,genres,rating,duration,certification\n"

    static let cases: [Case] = [
        Case(label: "empty result", arguments: ["filter", "--genre", "western", "--format", "csv"], status: 0),
        Case(label: "empty result as count", arguments: ["filter", "--title", "zzz", "--count"], status: 0),

        Case(label: "missing preset", arguments: ["filter", "--preset", "nosuch"], status: 1, mentions: ["nosuch"]),
        Case(label: "existing preset", arguments: ["save-preset", "MINE", "genre:action"], status: 1,
             mentions: ["already exists"]),
        Case(label: "deleting a missing preset", arguments: ["presets", "delete", "nosuch"], status: 1, mentions: ["nosuch"]),
        Case(label: "showing a missing preset", arguments: ["presets", "show", "nosuch"], status: 1, mentions: ["nosuch"]),

        Case(label: "removing a missing movie id", arguments: ["remove", "9999"], status: 1, mentions: ["9999"]),
        Case(label: "removing an existing and a missing id", arguments: ["remove", "1", "9999"], status: 1,
             mentions: ["9999"]),
        Case(label: "adding an existing natural key names its id", arguments: ["add", "--title", "aquaman", "--year", "2018"],
             status: 1, patterns: [#"\b2\b"#]),

        Case(label: "unknown command suggests the nearest", arguments: ["filtr"], status: 64,
             mentions: ["filtr", "'filter'"], usageOf: ""),
        Case(label: "unknown flag suggests the nearest", arguments: ["filter", "--gnre", "drama"], status: 64,
             mentions: ["--gnre", "'--genre'"], usageOf: "filter"),
        Case(label: "bad rating range", arguments: ["filter", "--rating", "7..x"], status: 64,
             mentions: ["7..x", "--rating"], usageOf: "filter"),
        Case(label: "unknown genre suggests the closest", arguments: ["filter", "--genre", "dramma"], status: 64,
             mentions: ["dramma", "'drama'"], usageOf: "filter"),
        Case(label: "unknown genre token suggests the closest", arguments: ["filter", "genre:scifu"], status: 64,
             mentions: ["scifu", "'sci-fi'"], usageOf: "filter"),
        Case(label: "missing value for --limit", arguments: ["filter", "--limit"], status: 64,
             mentions: ["--limit"], usageOf: "filter"),
        Case(label: "non-numeric --limit", arguments: ["filter", "--limit", "ten"], status: 64,
             mentions: ["ten", "--limit"], usageOf: "filter"),
        Case(label: "unknown output format", arguments: ["filter", "--format", "xml"], status: 64,
             mentions: ["xml"], usageOf: "filter"),
        Case(label: "reversed year range", arguments: ["filter", "--year", "2000..1990"], status: 64,
             mentions: ["2000..1990"], usageOf: "filter"),
        Case(label: "empty genre value", arguments: ["filter", "--genre", ""], status: 64,
             mentions: ["--genre"], usageOf: "filter"),
        Case(label: "bad value inside save-preset", arguments: ["save-preset", "new", "--duration", "forever"], status: 64,
             mentions: ["forever"], usageOf: "save-preset"),

        Case(label: "invalid import row", arguments: ["import", "bad.csv"], status: 65,
             files: ["bad.csv": header + "Good One,2001,Drama,7,120,R\nBad One,2002,Drama,11,100,PG\n"],
             details: ["bad.csv:3: rating: "]),
        Case(label: "several invalid import rows", arguments: ["import", "bad.csv"], status: 65,
             files: ["bad.csv": header + "Bad Rating,2002,Drama,11,100,PG\nFine,2003,Drama,7,100,PG\nBad Year,1700,,,,\n"],
             details: ["bad.csv:2: rating: ", "bad.csv:4: year: "]),
        Case(label: "unterminated quote in CSV", arguments: ["import", "bad.csv"], status: 65,
             mentions: ["bad.csv:2"], files: ["bad.csv": "title,year\n\"Unclosed,1999\nMore,2000\n"]),
        Case(label: "no title column", arguments: ["import", "names.csv"], status: 65,
             mentions: ["names.csv", "label"], files: ["names.csv": "label,year\nX,2000\n"]),
        Case(label: "--on-duplicate fail", arguments: ["import", "dup.csv", "--on-duplicate", "fail"], status: 65,
             mentions: ["dup.csv:3", "Aquaman"], files: ["dup.csv": "title,year\nNew One,2001\naquaman,2018\n"]),

        // Issue 9, item 0: numbers too large for any integer are errors, not traps.
        Case(label: "huge year token", arguments: ["filter", "year:99999999999999999999"], status: 64,
             mentions: ["99999999999999999999"], usageOf: "filter"),
        Case(label: "huge rating flag", arguments: ["filter", "--rating", "99999999999999999999"], status: 64,
             mentions: ["99999999999999999999", "--rating"], usageOf: "filter"),
        Case(label: "huge duration flag", arguments: ["filter", "--duration", "1h 30 30 30 30 30 30 30 30 30 30m"], status: 64,
             mentions: ["--duration"], usageOf: "filter"),
        Case(label: "huge year in add", arguments: ["add", "--title", "Y", "--year", "99999999999999999999"], status: 64,
             mentions: ["--year", "99999999999999999999"], usageOf: "add"),
        Case(label: "huge year in a CSV cell", arguments: ["import", "big.csv"], status: 65,
             files: ["big.csv": "title,year\nX,11111111111111111111999\n"], details: ["big.csv:2: year: "]),
        Case(label: "huge year in a TSV cell", arguments: ["import", "big.tsv"], status: 65,
             files: ["big.tsv": "title\tyear\nX\t11111111111111111111999\n"], details: ["big.tsv:2: year: "]),
        Case(label: "huge year in a JSON number", arguments: ["import", "big.json"], status: 65,
             files: ["big.json": "[{\"title\": \"X\", \"year\": 11111111111111111111999}]\n"], details: ["big.json:1: year: "]),
        Case(label: "huge duration in a JSON Lines cell", arguments: ["import", "big.jsonl"], status: 65,
             files: ["big.jsonl": "{\"title\": \"X\", \"duration\": \"99999999999999999999m\"}\n"], details: ["big.jsonl:1: duration: "]),
        Case(label: "duration digits split by spaces", arguments: ["import", "split.csv"], status: 65,
             files: ["split.csv": "title,duration\nX,30 30\nY,1h 30 30m\n"],
             details: ["split.csv:2: duration: ", "split.csv:3: duration: "]),

        Case(label: "missing input file", arguments: ["import", "nothere.csv"], status: 66, mentions: ["nothere.csv"]),
        Case(label: "one of two input files missing", arguments: ["import", "ok.csv", "nothere.csv"], status: 66,
             mentions: ["nothere.csv"], files: ["ok.csv": "title,year\nNew One,2001\n"]),

        Case(label: "catalog path under a regular file", arguments: ["filter"], status: 73,
             mentions: ["somefile"], catalog: .underRegularFile),
        Case(label: "catalog path under a regular file, init", arguments: ["init"], status: 73,
             mentions: ["somefile"], catalog: .underRegularFile),
        Case(label: "catalog that is not SQLite", arguments: ["filter"], status: 73,
             mentions: ["garbage.sqlite"], catalog: .notSQLite),
        Case(label: "import into a catalog that is not SQLite", arguments: ["import", "ok.csv"], status: 73,
             mentions: ["garbage.sqlite"], files: ["ok.csv": "title,year\nNew One,2001\n"], catalog: .notSQLite),
        Case(label: "catalog path is a directory", arguments: ["filter"], status: 73,
             mentions: ["adir"], catalog: .directory),
        Case(label: "catalog made by a newer moviecat", arguments: ["filter"], status: 73,
             patterns: [#"\b99\b"#, "\\b\(latestSchemaVersion)\\b"], catalog: .newerVersion),
        Case(label: "import into a catalog made by a newer moviecat", arguments: ["import", "ok.csv"], status: 73,
             patterns: [#"\b99\b"#, "\\b\(latestSchemaVersion)\\b"], files: ["ok.csv": "title,year\nNew One,2001\n"], catalog: .newerVersion),
    ]

    @Test("standard input that cannot be read (a directory) exits 66, as an unreadable file does")
    func unreadableStandardInput() throws {
        let box = try Sandbox()
        let run = try ResourceLimitTests.shell("moviecat --db catalog.sqlite import --format csv - < .", in: box)
        #expect(run.status == 66, "\(run)")
        #expect(run.errorLines == ["moviecat: error: cannot read standard input: it is a directory"], "\(run)")
        #expect(!FileManager.default.fileExists(atPath: box.db))
    }

    @Test("exit code", arguments: cases)
    func exitCode(_ c: Case) throws {
        let box = try Sandbox()
        try box.seed()
        #expect(try box.moviecat("save-preset", "mine", "genre:drama").status == 0)
        for (name, text) in c.files { try box.write(name, text) }
        var db = box.db
        switch c.catalog {
        case .seeded: break
        case .underRegularFile:
            try box.write("somefile", "just text\n")
            db = "somefile/x.sqlite"
        case .notSQLite:
            db = try box.write("garbage.sqlite", bytes: (0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        case .directory:
            try FileManager.default.createDirectory(atPath: box.path("adir"), withIntermediateDirectories: false)
            db = "adir"
        case .newerVersion:
            db = box.path("future.sqlite")
            #expect(try runProcess(moviecatBinary, ["--db", db, "init", "--seed"]).status == 0)
            try box.sqlite3("PRAGMA user_version = 99;\n", db: db)
            #expect(try box.sql("PRAGMA user_version", db: db) == ["99"])
        }
        let before = try box.snapshot()
        #expect(before["catalog.sqlite"]?.contains("INSERT INTO movies") == true, "the snapshot holds the catalog's rows")

        let run = try runProcess(moviecatBinary, ["--db", db] + c.arguments, directory: box.dir)

        #expect(run.status == c.status, "\(run)")
        #expect(try box.snapshot() == before, "the command changed the sandbox: \(run)")
        if c.status == 0 {
            #expect(!run.stderr.contains("error"), "\(run)")
            return
        }
        #expect(run.stdout.isEmpty, "errors print nothing on stdout: \(run)")
        let lines = run.errorLines
        let errorLines = lines.filter { $0.hasPrefix("moviecat: error: ") }
        try #require(errorLines.count == 1, "exactly one error line: \(run)")
        let errorLine = errorLines[0]
        let at = try #require(lines.firstIndex(of: errorLine))
        for text in c.mentions { #expect(errorLine.contains(text), "'\(text)' not in: \(errorLine)") }
        for pattern in c.patterns {
            #expect(errorLine.contains(try Regex(pattern)), "/\(pattern)/ not in: \(errorLine)")
        }
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("internal error"), "\(run)")
        #expect(at == lines.count - 1, "the error line comes last: \(run)")
        var leading = c.details.count
        if let command = c.usageOf {
            // The usage line and the See line come right before the error line.
            #expect(lines.dropLast().last == (command.isEmpty ? "See 'moviecat --help'." : "See 'moviecat \(command) --help'."), "\(run)")
            #expect(lines.dropLast(2).last?.hasPrefix("USAGE: moviecat") == true, "\(run)")
            leading += 2
        }
        #expect(at == leading, "\(leading) lines expected before the error: \(run)")
        for (line, prefix) in zip(lines, c.details) { #expect(line.hasPrefix(prefix), "\(line) !~ \(prefix)") }
    }

    /// Takes about 30 s: moviecat waits out its busy timeout before giving up.
    @Test("73: a read-only catalog file is refused before SQLite opens it: no -wal or -shm is left that would keep failing once it is writable")
    func readOnlyCatalog() throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.dump()
        #expect(chmod(box.db, 0o444) == 0)
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 73, "\(run)")
        #expect(run.errorLines.last?.hasSuffix("cannot use the catalog: the file is read-only") == true, "\(run)")
        for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: box.db + suffix), "\(suffix) left behind") }
        #expect(chmod(box.db, 0o644) == 0)
        #expect(try box.moviecat("edit", "1", "--rating", "2").status == 0)
        #expect(try box.dump() != before)
    }

    @Test("73: a catalog in a directory moviecat cannot write (where the -wal and -shm go) says so, and stays as it was")
    func readOnlyDirectory() throws {
        let box = try Sandbox()
        try FileManager.default.createDirectory(atPath: box.path("ro"), withIntermediateDirectories: true)
        let db = box.path("ro/c.sqlite")
        #expect(try runProcess(moviecatBinary, ["--db", db, "init", "--seed"]).status == 0)
        // Root writes any directory: the command then runs as nobody, owning the catalog.
        let asUser = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let script = "chmod 755 . && chown -R 65534 ro && chmod 555 ro && \(asUser)\(moviecatBinary.path) --db ro/c.sqlite filter --count"
        let before = try box.dump(db: db)
        let run = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", script], directory: box.dir)
        #expect(run.status == 73, "\(run)")
        #expect(run.errorLines.last == "moviecat: error: ro/c.sqlite: cannot use the catalog: its directory is read-only (SQLite keeps the -wal and -shm files beside it)", "\(run)")
        #expect(chmod(box.path("ro"), 0o755) == 0)
        #expect(try box.dump(db: db) == before)
    }

    @Test("75: the catalog stays locked by another writer past the busy timeout")
    func locked() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("one.csv", "title,year\nLocked Out,2001\n")
        let before = try box.dump()

        // Another process holds the write lock: sqlite3 with BEGIN IMMEDIATE and its stdin left open.
        let holder = try LockHolder(db: box.db)

        let started = Date()
        let run = try box.moviecat("import", "one.csv")
        let waited = Date().timeIntervalSince(started)
        holder.stop()

        #expect(run.status == 75, "\(run)")
        #expect(waited >= 29, "gave up after \(waited) s; the busy timeout is at least 30 s")
        #expect(run.errorLines == ["moviecat: error: \(box.db): the catalog stayed locked by another process for over 30 s"], "\(run)")
        #expect(try box.dump() == before)
        #expect(try box.sql("SELECT count(*) FROM movies WHERE title = 'Locked Out'") == ["0"])
    }
}

import Foundation
import Testing

/// Issue 9, item 5: resource limits and I/O failures give one error line and an exit code, never
/// a signal, and leave the catalog as it was.
@Suite struct ResourceLimitTests {
    /// A CSV of `rows` new movies (about 50 bytes a row).
    static func bigCSV(rows: Int) -> String {
        "title,year,genres,rating\n" + (0..<rows).map { "A Rather Long Movie Title Number \($0),\(1900 + $0 % 120),drama|war,7.5\n" }.joined()
    }

    /// Runs a shell script (bash) with the built binary first on PATH.
    static func shell(_ script: String, in box: Sandbox) throws -> Run {
        let path = moviecatBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["PATH": path], directory: box.dir)
    }

    @Test("past a file size limit (ulimit -f) the import exits 74 with one line, not SIGXFSZ, and writes nothing")
    func fileSizeLimit() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("big.csv", Self.bigCSV(rows: 40_000))
        let before = try box.dump()
        let run = try Self.shell("ulimit -f 300; exec moviecat --db catalog.sqlite import big.csv", in: box)
        #expect(run.status == 74, "\(run)")
        #expect(run.errorLines == ["moviecat: error: \(box.db.replacingOccurrences(of: box.dir.path + "/", with: "")): the file size limit (ulimit -f) was reached; nothing was written"], "\(run)")
        #expect(try box.dump() == before)
    }

    @Test("a file size limit met mid-write (a short WAL write, whose errno SQLite no longer has) is named as such too", arguments: [6_000, 7_000])
    func fileSizeLimitMidWrite(_ limit: Int) throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("first.csv", Self.bigCSV(rows: 2_000).replacingOccurrences(of: "Rather", with: "Fairly"))
        #expect(try box.moviecat("import", "first.csv").status == 0)
        try box.write("big.csv", Self.bigCSV(rows: 60_000))
        let before = try box.dump()
        let run = try Self.shell("ulimit -f \(limit); exec moviecat --db catalog.sqlite import big.csv", in: box)
        #expect(run.status == 74 && run.errorLines.last?.hasSuffix("the file size limit (ulimit -f) was reached; nothing was written") == true, "\(run)")
        #expect(try box.dump() == before)
    }

    /// A command run on a full disk: `prepare` runs first (shell, before the disk fills up).
    struct FullDiskCase: CustomTestStringConvertible, Sendable {
        var command: String
        var prepare = ":"
        /// Whether the command fills the disk itself (SQLITE_FULL) rather than meeting it full.
        var fillsItself = false
        var testDescription: String { command + (prepare == ":" ? "" : " after: " + prepare) }
    }

    /// Writes, reads, and a read that must first put a derived table right after a sqlite3 user's
    /// edit, on a disk already full (SQLite reports most of them as an I/O error); and an import
    /// that fills the disk itself.
    static let fullDiskCases: [FullDiskCase] = [
        FullDiskCase(command: "import big.csv", fillsItself: true),
        FullDiskCase(command: "import more.csv"),
        FullDiskCase(command: "add --title Zzz --year 2001"),
        FullDiskCase(command: "edit 1 --title 'A Much Longer Title Than Before'"),
        FullDiskCase(command: "remove 2"),
        FullDiskCase(command: "save-preset p genre:drama"),
        FullDiskCase(command: "filter --count"),
        FullDiskCase(command: "filter --count", prepare: "sqlite3 small/c.sqlite \"UPDATE movies SET title = title || 'x' WHERE id < 500\""),
    ]

    @Test("a command on a full disk exits 73 saying so, and the catalog stays as it was", arguments: fullDiskCases)
    func fullDisk(_ test: FullDiskCase) throws {
        let box = try Sandbox()
        try box.write("part.csv", Self.bigCSV(rows: 2_000).replacingOccurrences(of: "Number", with: "No."))
        try box.write(test.fillsItself ? "big.csv" : "more.csv", Self.bigCSV(rows: test.fillsItself ? 60_000 : 2_000))
        try FileManager.default.createDirectory(atPath: box.path("small"), withIntermediateDirectories: true)
        // A 2 MiB file system of our own, in a private mount namespace that ends with the script.
        try box.write("full.sh", """
            mount -t tmpfs -o size=2m tmpfs small || exit 99
            moviecat --db small/c.sqlite init --seed 2>/dev/null || exit 98
            moviecat --db small/c.sqlite import part.csv --quiet || exit 97
            \(test.prepare) || exit 96
            sqlite3 small/c.sqlite .dump > before.sql
            \(test.fillsItself ? ":" : "dd if=/dev/zero of=small/filler bs=4k 2>/dev/null")
            moviecat --db small/c.sqlite \(test.command) > /dev/null 2> error.txt; echo $? > status.txt
            rm -f small/filler
            sqlite3 small/c.sqlite .dump > after.sql
            """)
        let run = try Self.shell("unshare -rm bash full.sh", in: box)
        try #require(run.status == 0, "the private tmpfs could not be made: \(run)")
        let status = try String(contentsOfFile: box.path("status.txt"), encoding: .utf8)
        let error = try String(contentsOfFile: box.path("error.txt"), encoding: .utf8)
        #expect(status == "73\n", "\(error)")
        #expect(error == "moviecat: error: small/c.sqlite: the disk is full; nothing was written\n")
        #expect(try String(contentsOfFile: box.path("after.sql"), encoding: .utf8)
                == String(contentsOfFile: box.path("before.sql"), encoding: .utf8))
    }

    @Test("a catalog that cannot be made on a full disk leaves no empty file, nor the directories made for it")
    func fullDiskNewCatalog() throws {
        let box = try Sandbox()
        try FileManager.default.createDirectory(atPath: box.path("small"), withIntermediateDirectories: true)
        try box.write("new.sh", """
            mount -t tmpfs -o size=1m tmpfs small || exit 99
            dd if=/dev/zero of=small/filler bs=4k 2>/dev/null
            moviecat --db small/sub/dir/c.sqlite filter --count > /dev/null 2> error.txt; echo $? > status.txt
            moviecat --db small/c.sqlite init 2>> error.txt; echo $? >> status.txt
            rm small/filler
            find small | sort > left.txt
            """)
        let run = try Self.shell("unshare -rm bash new.sh", in: box)
        try #require(run.status == 0, "the private tmpfs could not be made: \(run)")
        #expect(try String(contentsOfFile: box.path("status.txt"), encoding: .utf8) == "73\n73\n")
        let errors = try String(contentsOfFile: box.path("error.txt"), encoding: .utf8)
        #expect(try String(contentsOfFile: box.path("left.txt"), encoding: .utf8) == "small\n", "\(errors)")
    }

    @Test("a full temporary directory (the import's sorts spill there) is named as such, exit 74, not the catalog's disk")
    func fullTemporaryDirectory() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("big.csv", Self.bigCSV(rows: 100_000))
        try FileManager.default.createDirectory(atPath: box.path("small"), withIntermediateDirectories: true)
        try box.write("tmpfull.sh", """
            mount -t tmpfs -o size=2m tmpfs small || exit 99
            SQLITE_TMPDIR=$PWD/small moviecat --db catalog.sqlite import big.csv > /dev/null 2> error.txt; echo $? > status.txt
            """)
        let before = try box.dump()
        let run = try Self.shell("unshare -rm bash tmpfull.sh", in: box)
        try #require(run.status == 0, "the private tmpfs could not be made: \(run)")
        let status = try String(contentsOfFile: box.path("status.txt"), encoding: .utf8)
        let error = try String(contentsOfFile: box.path("error.txt"), encoding: .utf8)
        #expect(status == "74\n", "\(error)")
        #expect(error == "moviecat: error: catalog.sqlite: the temporary directory '\(box.dir.standardizedFileURL.path)/small' is full (set SQLITE_TMPDIR or TMPDIR to one with room); nothing was written\n")
        #expect(try box.dump() == before)
    }

    /// A preloaded library that fails `read` with EIO once a file has given `FAULT_AFTER` bytes.
    static let faultLibrary: String = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>
        static long served;
        ssize_t read(int fd, void *buffer, size_t count) {
            static ssize_t (*real)(int, void *, size_t);
            if (!real) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
            const char *target = getenv("FAULT_PATH");
            char link[64], path[4096];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t length = target ? readlink(link, path, sizeof path - 1) : -1;
            if (length <= 0) return real(fd, buffer, count);
            path[length] = 0;
            if (!strstr(path, target)) return real(fd, buffer, count);
            long after = atol(getenv("FAULT_AFTER"));
            if (served >= after) { errno = EIO; return -1; }
            if ((long)count > after - served) count = after - served;
            ssize_t got = real(fd, buffer, count);
            if (got > 0) served += got;
            return got;
        }
        """

    @Test("a read error in the middle of an input exits 74 and imports nothing")
    func readError() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("big.csv", Self.bigCSV(rows: 20_000))
        try box.write("fault.c", Self.faultLibrary)
        let compiler = ["/usr/bin/cc", "/opt/swift/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let built = try runProcess(URL(fileURLWithPath: try #require(compiler)), ["-shared", "-fPIC", "-o", box.path("fault.so"), box.path("fault.c"), "-ldl"])
        try #require(built.status == 0, "\(built)")
        let before = try box.dump()
        // Past 400,000 bytes (thousands of rows in) the file stops giving any.
        let run = try box.moviecat(["import", "big.csv"], environment: [
            "LD_PRELOAD": box.path("fault.so"), "FAULT_PATH": "big.csv", "FAULT_AFTER": "400000",
        ])
        #expect(run.status == 74, "\(run)")
        #expect(run.errorLines == ["moviecat: error: cannot read big.csv: Input/output error"], "\(run)")
        #expect(try box.dump() == before)
    }

    @Test("output to a full device exits 74 naming standard output")
    func fullOutput() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try Self.shell("exec moviecat --db catalog.sqlite filter --format csv > /dev/full", in: box)
        #expect(run.status == 74, "\(run)")
        #expect(run.errorLines == ["moviecat: error: cannot write standard output: No space left on device"], "\(run)")
    }

    // add prints the new id: a write that fails must not leave the movie added (SPEC section 5).
    @Test("add with its output to a full device exits 74 and adds nothing")
    func addToFullOutput() throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.dump()
        let run = try Self.shell("exec moviecat --db catalog.sqlite add --title Fullout --genre imax > /dev/full", in: box)
        #expect(run.status == 74, "\(run)")
        #expect(run.errorLines == ["moviecat: error: cannot write standard output: No space left on device"], "\(run)")
        #expect(try box.dump() == before)
    }
}

/// A record that never ends (a binary file, an unclosed quote, a JSON string without its quote)
/// stops at `ByteReader.maxRecordBytes` with one line naming where it began; memory stays bounded.
@Suite struct EndlessRecordTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let file: String
        let head: String
        /// Repeated after `head` past 16 MiB.
        let filler: String
        let message: String
        /// Megabytes of filler: doubled quotes read as half their bytes.
        var megabytes = 17
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "CSV without a line end", file: "x.csv", head: "title,year\nHeat,1995\n", filler: "abcdefgh",
             message: "x.csv:3: a record longer than 16 MiB (no line end); is this a CSV file?"),
        Case(name: "CSV of separators alone", file: "x.csv", head: "title,year\n", filler: ",,,,,,,,",
             message: "x.csv:2: a record of more than 2,097,153 fields; is this a CSV file?"),
        Case(name: "TSV without a line end", file: "x.tsv", head: "title\tyear\n", filler: "abcdefgh",
             message: "x.tsv:2: a record longer than 16 MiB (no line end); is this a TSV file?"),
        Case(name: "CSV quote that never closes", file: "x.csv", head: "title,year\nHeat,1995\n\"Alien,1979\n", filler: "more\ntext\n",
             message: "x.csv:3: a quoted field runs past 16 MiB (its quote opens on line 3); is its closing quote missing?"),
        Case(name: "CSV quoted field of doubled quotes alone", file: "x.csv", head: "title,year\n\"", filler: "\"\"\"\"",
             message: "x.csv:2: a quoted field runs past 16 MiB (its quote opens on line 2); is its closing quote missing?", megabytes: 34),
        Case(name: "JSON Lines string that never closes", file: "x.jsonl", head: "{\"title\": \"Heat\"}\n{\"title\": \"", filler: "abcdefgh",
             message: "x.jsonl:2: an object longer than 16 MiB; is this a JSON file?"),
        Case(name: "JSON string of escapes", file: "x.json", head: "[{\"title\": \"", filler: "\\t\\t\\t\\t",
             message: "x.json:1: an object longer than 16 MiB; is this a JSON file?"),
        Case(name: "JSON number without end", file: "x.jsonl", head: "{\"year\": 1", filler: "00000000",
             message: "x.jsonl:1: an object longer than 16 MiB; is this a JSON file?"),
        Case(name: "JSON object of very many values", file: "x.json", head: "[{\"title\": \"Heat\", \"x\": [", filler: "1,",
             message: "x.json:1: an object of more than 500000 values"),
        // Named by the line its object begins on, not the line reading stopped at.
        Case(name: "JSON object of very many values on many lines", file: "x.json", head: "[\n  {\"title\": \"Heat\"},\n  {\"x\": [\n", filler: "1,\n",
             message: "x.json:3: an object of more than 500000 values"),
    ]

    @Test("a record past 16 MiB exits 65 with one line naming where it began; the catalog stays as it was", arguments: cases)
    func endless(_ test: Case) throws {
        let box = try Sandbox()
        try box.seed()
        let repeats = (test.megabytes << 20) / test.filler.utf8.count
        _ = try box.write(test.file, test.head + String(repeating: test.filler, count: repeats))
        let before = try box.dump()
        let run = try box.moviecat("import", test.file)
        #expect(run.status == 65, "\(run)")
        #expect(run.errorLines.last == "moviecat: error: " + test.message, "\(run)")
        #expect(try box.dump() == before)
    }
}

/// Rows of a megabyte each are parsed ahead in batches bounded by bytes, not only by rows: memory
/// stays flat whatever the rows' size (it held some 5 batches of 512 such rows, 700 MB for 700).
@Suite struct LongRowMemoryTests {
    @Test("an import of 120 one-megabyte invalid rows stays under 80 MB, with and without a rejects file",
          arguments: [false, true])
    func longRows(rejects: Bool) throws {
        let box = try Sandbox()
        try box.seed()
        let row = "T" + String(repeating: "x", count: 1 << 20) + ",abc\n"
        _ = try box.write("long.csv", "title,year\n" + String(repeating: row, count: 120))
        let before = try box.dump()
        // Peak RSS of the child, from getrusage (KiB on Linux).
        let measure = "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:], capture_output=True); "
            + "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"),
                                 ["python3", "-c", measure, moviecatBinary.path, "--db", box.db, "import", "long.csv", "--skip-invalid"]
                                     + (rejects ? ["--rejects", "rejected.csv"] : []), directory: box.dir)
        let fields = run.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(fields.count == 2 && fields[0] == 0, "\(run)")
        #expect((fields.last ?? .max) < 80 * 1024, "peak RSS \(fields.last ?? -1) KiB")
        if rejects {
            let written = try FileManager.default.attributesOfItem(atPath: box.path("rejected.csv"))[.size] as? Int ?? 0
            #expect(written > 120 << 20)
        }
        #expect(try box.dump() == before)
    }
}

import Foundation
import Testing

/// Where `--rejects` puts its file: a directory is refused before anything is imported; a
/// symlink is written through; what is not a file (/dev/stdout, a pipe) gets the rows copied in;
/// rows of the wrong width stay under their header.
@Suite struct RejectsDestinationTests {
    static let mixed = "title,year\nGood,2001\nBad,c. 1999\n"
    static let rejected = "title,year,error\nBad,c. 1999,mixed.csv:3: year: 'c. 1999' is not a whole number\n"

    @Test("a directory, or a directory that does not exist, is refused before the catalog is opened or created",
          arguments: ["rd", "nodir/r.csv", "dangling-into-nodir.csv"])
    func refused(target: String) throws {
        let box = try Sandbox()
        try FileManager.default.createDirectory(atPath: box.path("rd"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: box.path("dangling-into-nodir.csv"), withDestinationPath: "nodir/r.csv")
        try box.write("mixed.csv", Self.mixed)
        let run = try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", target)
        #expect(run.status == 74, "\(run)")
        let reason = target == "rd" ? "it is a directory" : "No such file or directory"
        #expect(run.errorLines == ["moviecat: error: cannot write rejects to '\(target)': \(reason)"], "\(run)")
        #expect(!FileManager.default.fileExists(atPath: box.db), "a catalog was created")
        // A stored catalog is left as it was.
        try box.seed()
        let before = try box.dump()
        #expect(try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", target).status == 74)
        #expect(try box.dump() == before)
    }

    @Test("a symlink to a file is written through: the link stays, its target gets the rows")
    func symlink() throws {
        let box = try Sandbox()
        try box.write("mixed.csv", Self.mixed)
        try box.write("target.csv", "old\n")
        try FileManager.default.createSymbolicLink(atPath: box.path("link.csv"), withDestinationPath: "target.csv")
        let run = try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", "link.csv", "--quiet")
        #expect(run.status == 0, "\(run)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: box.path("link.csv")) == "target.csv")
        #expect(try String(contentsOfFile: box.path("target.csv"), encoding: .utf8) == Self.rejected)
        // A dangling symlink: its target is made.
        try FileManager.default.createSymbolicLink(atPath: box.path("dangling.csv"), withDestinationPath: "made.csv")
        #expect(try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", "dangling.csv", "--quiet").status == 0)
        #expect(try String(contentsOfFile: box.path("made.csv"), encoding: .utf8) == Self.rejected)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.contains("moviecat-rejects") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("/dev/stdout and a pipe get the rows once the import has committed; /dev/stdout stays a symlink")
    func notAFile() throws {
        let box = try Sandbox()
        try box.write("mixed.csv", Self.mixed)
        let run = try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", "/dev/stdout", "--quiet")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == Self.rejected)
        var info = stat()
        #expect(lstat("/dev/stdout", &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try box.sql("SELECT title FROM movies") == ["Good"])
        // Through a pipe from a shell's process substitution (the shell waits for it).
        let piped = try ResourceLimitTests.shell("moviecat --db catalog.sqlite import mixed.csv --skip-invalid --quiet --rejects >(cat > piped.csv); wait $!", in: box)
        #expect(piped.status == 0, "\(piped)")
        #expect(try String(contentsOfFile: box.path("piped.csv"), encoding: .utf8) == Self.rejected)
        // A standard output redirected to a file: the rows follow what the file holds, and the
        // file stays the file it was (renaming over /proc/self/fd/1 would have replaced it).
        try box.write("out.txt", "before\n")
        let redirected = try ResourceLimitTests.shell("moviecat --db catalog.sqlite import mixed.csv --skip-invalid --quiet --rejects /dev/stdout >> out.txt", in: box)
        #expect(redirected.status == 0, "\(redirected)")
        #expect(try String(contentsOfFile: box.path("out.txt"), encoding: .utf8) == "before\n" + Self.rejected)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.contains("moviecat-rejects") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("a named pipe no process reads is refused before the import, not waited on after it")
    func pipeWithoutReader() throws {
        let box = try Sandbox()
        try box.write("mixed.csv", Self.mixed)
        #expect(mkfifo(box.path("fifo"), 0o600) == 0)
        let run = try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", "fifo")
        #expect(run.status == 74, "\(run)")
        #expect(run.errorLines == ["moviecat: error: cannot write rejects to 'fifo': no process is reading the pipe"], "\(run)")
        #expect(!FileManager.default.fileExists(atPath: box.db))
    }

    /// A rejects path that is the input itself, by what is open rather than by name: the rows
    /// would be appended to the file being imported, or block a pipe only this process reads.
    struct OwnInput: Sendable, CustomStringConvertible {
        let script: String
        let status: Int32
        let error: String
        var description: String { script }
    }

    @Test("standard input, or an input opened where standard output pointed, is never the rejects file", arguments: [
        OwnInput(script: "moviecat --db catalog.sqlite import --format csv - --skip-invalid --rejects /dev/stdin < mixed.csv",
                 status: 64, error: "moviecat: error: --rejects /dev/stdin would overwrite standard input"),
        OwnInput(script: "moviecat --db catalog.sqlite import --format csv - --skip-invalid --rejects /dev/fd/0 < mixed.csv",
                 status: 64, error: "moviecat: error: --rejects /dev/fd/0 would overwrite standard input"),
        OwnInput(script: "moviecat --db catalog.sqlite import mixed.csv --skip-invalid --rejects /dev/stdout >&-",
                 status: 64, error: "moviecat: error: --rejects /dev/stdout would overwrite mixed.csv"),
        OwnInput(script: "cat mixed.csv | moviecat --db catalog.sqlite import --format csv - --skip-invalid --rejects /dev/stdin",
                 status: 74, error: "moviecat: error: cannot write rejects to '/dev/stdin': it is this command's standard input"),
        OwnInput(script: "cat mixed.csv | moviecat --db catalog.sqlite import mixed.csv --skip-invalid --rejects /dev/stdin",
                 status: 74, error: "moviecat: error: cannot write rejects to '/dev/stdin': it is this command's standard input"),
        OwnInput(script: "moviecat --db catalog.sqlite import mixed.csv --skip-invalid --rejects ''",
                 status: 64, error: "moviecat: error: --rejects needs a file name"),
        OwnInput(script: "moviecat --db catalog.sqlite import mixed.csv --skip-invalid --rejects \(String(repeating: "r", count: 300))",
                 status: 74, error: "moviecat: error: cannot write rejects to '\(String(repeating: "r", count: 60))…' (300 characters): File name too long"),
    ])
    func ownInput(_ c: OwnInput) throws {
        let box = try Sandbox()
        try box.write("mixed.csv", Self.mixed)
        let run = try ResourceLimitTests.shell("timeout 20 " + c.script, in: box)
        #expect(run.status == c.status, "\(run)")
        #expect(run.errorLines.contains(c.error), "\(run)")
        #expect(try String(contentsOfFile: box.path("mixed.csv"), encoding: .utf8) == Self.mixed, "the input changed")
        #expect(!FileManager.default.fileExists(atPath: box.db), "a catalog was created")
    }

    @Test("rows with too many fields, or too few and invalid, keep their error in the error column")
    func ragged() throws {
        let box = try Sandbox()
        // A short row is read with its last fields empty, and a long one whose extra fields are
        // empty as it is; a long one with values there is refused.
        try box.write("r.csv", "title,year,rating\nC,2000,7,extra\nD,c. 1999\nE,1999,7,,\nF,2001\n")
        let run = try box.moviecat("import", "r.csv", "--skip-invalid", "--rejects", "rej.csv", "--quiet")
        #expect(run.status == 0, "\(run)")
        #expect(try String(contentsOfFile: box.path("rej.csv"), encoding: .utf8) == """
            title,year,rating,,error
            C,2000,7,extra,"r.csv:2: record: expected 3 fields like the header, found 4"
            title,year,rating,error
            D,c. 1999,,r.csv:3: year: 'c. 1999' is not a whole number

            """)
        #expect(try box.rows("SELECT title, ifnull(year, ''), ifnull(rating, '') FROM movies ORDER BY id") == [["E", "1999", "7.0"], ["F", "2001", ""]])
    }

    @Test("rows copied into what is not a file are written before the commit: a copy that fails (a full device) imports nothing")
    func copyFailsBeforeCommit() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("mixed.csv", Self.mixed)
        let before = try box.dump()
        let run = try box.moviecat("import", "mixed.csv", "--skip-invalid", "--rejects", "/dev/full")
        #expect(run.status == 74 && run.errorLines.last == "moviecat: error: cannot write /dev/full: No space left on device", "\(run)")
        #expect(try box.dump() == before)
    }

    @Test("a report stderr cannot take (a full device, a reader gone) does not make a committed import fail")
    func reportAfterCommit() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("mixed.csv", Self.mixed)
        let full = try ResourceLimitTests.shell("moviecat --db catalog.sqlite import mixed.csv --skip-invalid 2>/dev/full; echo \"status $?\"", in: box)
        #expect(full.stdout == "status 0\n", "\(full)")
        try box.write("more.csv", "title\nMore\n")
        let gone = try ResourceLimitTests.shell("moviecat --db catalog.sqlite import more.csv 2>&1 | true; echo \"status ${PIPESTATUS[0]}\"", in: box)
        #expect(gone.stdout == "status 0\n", "\(gone)")
        #expect(try box.sql("SELECT title FROM movies WHERE id > 13 ORDER BY id") == ["Good", "More"])
    }

    @Test("an import killed with kill -9 leaves no temporary rejects file, beside the file or in the temporary directory", arguments: ["out/rejects.csv", "/dev/stdout"])
    func killedLeavesNothing(_ target: String) throws {
        let box = try Sandbox()
        try box.seed()
        try FileManager.default.createDirectory(atPath: box.path("out"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: box.path("tmp"), withIntermediateDirectories: true)
        // Its input stalls after a rejected row, so the process waits, its rejects file begun, when killed.
        let run = try ResourceLimitTests.shell("""
            mkfifo in.csv
            (printf 'title,year\\nBad,1800\\n'; sleep 3) > in.csv &
            TMPDIR=$PWD/tmp moviecat --db catalog.sqlite import in.csv --skip-invalid --rejects \(target) >/dev/null 2>&1 &
            pid=$!
            sleep 1
            kill -9 $pid
            wait $pid
            echo "status $?"
            """, in: box)
        #expect(run.stdout.hasSuffix("status 137\n"), "\(run)")
        for folder in ["out", "tmp", "."] {
            let names = try FileManager.default.contentsOfDirectory(atPath: box.path(folder))
            #expect(!names.contains { $0.hasPrefix(".moviecat-rejects-") }, "\(folder): \(names)")
        }
    }
}

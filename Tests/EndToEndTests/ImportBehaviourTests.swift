import Foundation
import Testing

/// SPEC section 4 `import` and issue 3: the report, formats, values and options (field matching:
/// FieldMatchingTests.swift).
/// Duplicates, repeats and the options that keep or drop rows are in ImportBehaviourTests+Rows.swift.
@Suite struct ImportBehaviourTests {
    static let header = "title,year,genres,rating,duration,certification\n"

    // MARK: Report

    @Test("the report goes to stderr, one line per file, and stdout stays empty")
    func report() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("movies.csv", Self.header + "New One,2001,Drama,7,120,PG\nAquaman,2018,,,,\nNew Two,2002,,,,\n")
        let run = try box.moviecat("import", "movies.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.errorLines.count == 1, "\(run)")
        #expect(run.reports == [ReportLine(file: "movies.csv", read: 3, inserted: 2, updated: 1)], "\(run)")
        #expect(try box.scalar("SELECT count(*) FROM movies") == "15")
    }

    @Test("several files: a line each plus a total")
    func reportPerFile() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("one.csv", "title\nOne\nTwo\n")
        try box.write("two.jsonl", "{\"title\": \"Three\"}\n")
        let run = try box.moviecat("import", "one.csv", "two.jsonl")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "one.csv", read: 2, inserted: 2), ReportLine(file: "two.jsonl", read: 1, inserted: 1),
                                ReportLine(file: "total", read: 3, inserted: 3)], "\(run)")
    }

    @Test("the total line counts the repeats too; a later file's row for an earlier file's movie is an update")
    func totalRepeats() throws {
        let box = try Sandbox()
        try box.write("one.csv", "title,year\nOne,2001\nONE,2001\n")
        try box.write("two.csv", "title,year,rating\nTwo,2002,5\none,2001,6\nOne,2001,7\n")
        let run = try box.moviecat("import", "one.csv", "two.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "one.csv", read: 2, inserted: 1, repeated: 1),
                                ReportLine(file: "two.csv", read: 3, inserted: 1, updated: 1, repeated: 1),
                                ReportLine(file: "total", read: 5, inserted: 2, updated: 1, repeated: 2)], "\(run)")
        #expect(try box.sql("SELECT title, rating FROM movies ORDER BY id") == ["One|7.0", "Two|5.0"])
    }

    @Test("a second large file of one command is bulk-loaded too, and leaves the catalog one command per file leaves")
    func secondFileBulkLoaded() throws {
        func rows(_ range: Range<Int>) -> String {
            "title,year,genres,rating\n" + range.map { "A Long Enough Movie Title Number \($0 % 2_500),\(1950 + $0 % 70),drama|war,\(Double($0 % 100) / 10)\n" }.joined()
        }
        let box = try Sandbox()
        try box.write("one.csv", rows(0..<3_000))
        try box.write("two.csv", rows(2_000..<5_000))
        let run = try box.moviecat(["import", "one.csv", "two.csv"], environment: ["MOVIECAT_TIMINGS": "1"])
        #expect(run.status == 0, "\(run)")
        #expect(run.errorLines.filter { $0.hasPrefix("timing: append rows") }.count == 2, "\(run)")
        // The same as each file in a command of its own, read with SQLite.
        let separate = box.path("separate.sqlite")
        for file in ["one.csv", "two.csv"] {
            #expect(try runProcess(moviecatBinary, ["--db", separate, "import", file], directory: box.dir).status == 0)
        }
        #expect(try box.movies() == box.movies(db: separate))
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
    }

    @Test("a stored movie that two files update counts as updated in each, as imported in turn")
    func storedUpdatedByTwoFiles() throws {
        let box = try Sandbox()
        try box.write("stored.csv", "title,year\nOne,2001\n")
        #expect(try box.moviecat("import", "stored.csv").status == 0)
        try box.write("a.csv", "title,year,rating\nOne,2001,5\n")
        try box.write("b.csv", "title,year,rating\nOne,2001,6\none,2001,7\n")
        let run = try box.moviecat("import", "a.csv", "b.csv")
        #expect(run.reports == [ReportLine(file: "a.csv", read: 1, updated: 1), ReportLine(file: "b.csv", read: 2, updated: 1, repeated: 1),
                                ReportLine(file: "total", read: 3, updated: 2, repeated: 1)], "\(run)")
        #expect(try box.sql("SELECT rating FROM movies") == ["7.0"])
    }

    /// Files of one command are imported as if in turn (in one transaction): `--on-duplicate`
    /// applies to a movie an earlier file inserted, as it would to one stored before.
    @Test("--on-duplicate applies to a later file's rows for an earlier file's movies", arguments: ["skip", "fail"])
    func policyAcrossFiles(policy: String) throws {
        let box = try Sandbox()
        try box.write("one.csv", "title,year,rating\nOne,2001,5\n")
        try box.write("two.csv", "title,year,rating\nTwo,2002,6\nOne,2001,9\n")
        let before = try box.moviecat("import", "one.csv", "two.csv", "--on-duplicate", policy)
        if policy == "skip" {
            #expect(before.status == 0, "\(before)")
            #expect(before.reports.dropFirst().first == ReportLine(file: "two.csv", read: 2, inserted: 1, skipped: 1), "\(before)")
            #expect(try box.sql("SELECT title, rating FROM movies ORDER BY id") == ["One|5.0", "Two|6.0"])
        } else {
            #expect(before.status == 65, "\(before)")
            // The movie it names is gone with the failed import: said to be the earlier file's.
            #expect(before.errorLines.last == "moviecat: error: two.csv:3: 'One' is already in the catalog as movie 1 'One' (2001), added by an earlier file of this import (--on-duplicate fail)", "\(before)")
            #expect(try box.sql("SELECT count(*) FROM movies") == ["0"])
        }
    }

    @Test("--quiet prints nothing and still imports")
    func quiet() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("movies.csv", "title,year,extra\nQuiet One,2001,x\n")
        let run = try box.moviecat("import", "--quiet", "movies.csv")
        #expect(run.status == 0 && run.stdout.isEmpty && run.stderr.isEmpty, "\(run)")
        #expect(try box.scalar("SELECT count(*) FROM movies WHERE title = 'Quiet One'") == "1")
    }

    @Test("unknown columns and keys are ignored and named once", arguments: ["csv", "json"])
    func ignoredColumns(_ format: String) throws {
        let box = try Sandbox()
        try box.initEmpty()
        let file = "list.\(format)"
        if format == "csv" {
            try box.write(file, "id,title,director,year,notes\n1,A,d1,2001,x\n2,B,d2,2002,y\n3,C,d3,2003,z\n")
        } else {
            try box.write(file, #"[{"id": 1, "title": "A", "director": "d1"}, {"id": 2, "title": "B", "notes": "y"}, {"id": 3, "title": "C", "director": "d3", "notes": "z"}]"#)
        }
        let run = try box.moviecat("import", file)
        #expect(run.status == 0, "\(run)")
        let ignored = run.errorLines.filter { $0.contains("ignored") }
        #expect(ignored == ["\(file): ignored columns: id, director, notes"], "\(run)")
        for name in ["director", "notes"] {
            #expect(run.stderr.components(separatedBy: name).count == 2, "\(name) named once: \(run)")
        }
        #expect(try box.scalar("SELECT count(*) FROM movies") == "3")
    }

    @Test("thousands of ignored columns or keys are named up to 20; JSON keys are remembered up to a bound", arguments: ["csv", "jsonl"])
    func manyIgnoredColumns(_ format: String) throws {
        let box = try Sandbox()
        let file = "wide.\(format)"
        if format == "csv" {
            try box.write(file, "title," + (0..<3_000).map { "c\($0)" }.joined(separator: ",") + "\nA" + String(repeating: ",", count: 3_000) + "\n")
        } else {
            // Each record a key of its own: remembering every one would grow with the file.
            try box.write(file, (0..<3_000).map { #"{"title": "T\#($0)", "k\#($0)": 1}"# + "\n" }.joined())
        }
        let run = try box.moviecat("import", file)
        #expect(run.status == 0, "\(run)")
        let ignored = run.errorLines.filter { $0.contains("ignored") }
        let first = format == "csv" ? "c" : "k"
        let named = (0..<20).map { "\(first)\($0)" }.joined(separator: ", ")
        // JSON: 1,000 keys remembered, title among them; the CSV header's 3,000 all counted.
        #expect(ignored == ["\(file): ignored columns: \(named) and \(format == "csv" ? "2,980" : "over 979") more"], "\(run)")
    }

    @Test("a JSON record with bytes that are not UTF-8 or a lone surrogate is rejected alone, as a CSV row is", arguments: ["json", "jsonl"])
    func jsonTextProblems(_ format: String) throws {
        let box = try Sandbox()
        let records: [[UInt8]] = [Array(#"{"title": "Good"}"#.utf8), Array(#"{"title": "Bad"#.utf8) + [0xFF] + Array(#""}"#.utf8),
                                  Array(#"{"title": "Half \ud800 here"}"#.utf8), Array(#"{"title": "Also Good"}"#.utf8)]
        let bytes = format == "json" ? Array("[".utf8) + Array(records.joined(separator: Array(",\n".utf8))) + Array("]".utf8)
                                     : Array(records.joined(separator: [0x0A])) + [0x0A]
        let file = try box.write("text.\(format)", bytes: bytes)
        let failed = try box.moviecat("import", file)
        #expect(failed.status == 65, "\(failed)")
        #expect(failed.errorLines.prefix(2) == ["\(file):2: record: invalid UTF-8", "\(file):3: record: lone surrogate \\uD800"], "\(failed)")
        let run = try box.moviecat("import", file, "--skip-invalid", "--rejects", "rejects.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 4, inserted: 2, rejected: 2)], "\(run)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["Good", "Also Good"])
        // The rejects keep the bytes (a lone surrogate as the three that would encode it): imported
        // again, both rows fail again rather than store U+FFFD.
        let again = try box.moviecat("import", "rejects.csv", "--skip-invalid")
        #expect(again.reports == [ReportLine(file: "rejects.csv", read: 2, rejected: 2)], "\(again)")
        #expect(again.stderr.contains("rejects.csv:2: title: invalid UTF-8") && again.stderr.contains("rejects.csv:3: title: invalid UTF-8"), "\(again)")
    }

    @Test("minified JSON: a problem of a record after the first on its line names the record's number")
    func minifiedJSONProblems() throws {
        let box = try Sandbox()
        try box.write("one.json", #"[{"title": "a", "year": 1}, {"title": "b", "year": true}, {"title": "c", "genres": [1]}]"#)
        let run = try box.moviecat("import", "one.json", "--skip-invalid", "--rejects", "rejects.csv")
        #expect(run.reports == [ReportLine(file: "one.json", read: 3, rejected: 3)], "\(run)")
        #expect(Array(run.errorLines.dropFirst().prefix(3)) == ["one.json:1: year: '1' is outside 1870..2100",
                                                                "one.json:1 (record 2): year: expected text or a number, found a boolean",
                                                                "one.json:1 (record 3): genres: expected genre names, found an array holding a number"], "\(run)")
        let rejects = try String(contentsOfFile: box.path("rejects.csv"), encoding: .utf8)
        #expect(rejects.contains(",\"one.json:1 (record 2): year: expected text or a number, found a boolean\"\n"), "\(rejects)")
    }

    @Test("a bad byte under a key nothing reads spoils no JSON record, as it spoils no CSV row", arguments: ["json", "jsonl"])
    func badBytesUnderIgnoredKeys(_ format: String) throws {
        let box = try Sandbox()
        let records: [[UInt8]] = [Array(#"{"title": "F", "plot": "bad "#.utf8) + [0xC3] + Array(#"", "notes": "\ud800"}"#.utf8),
                                  Array(#"{"title": "G", "year": "19"#.utf8) + [0xFF] + Array(#""}"#.utf8)]
        let bytes = format == "json" ? Array("[".utf8) + Array(records.joined(separator: Array(",\n".utf8))) + Array("]".utf8)
                                     : Array(records.joined(separator: [0x0A])) + [0x0A]
        let file = try box.write("plot.\(format)", bytes: bytes)
        let run = try box.moviecat("import", file, "--skip-invalid")
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 2, inserted: 1, rejected: 1)], "\(run)")
        #expect(run.stderr.contains("\(file):2: record: invalid UTF-8"), "\(run)")
        #expect(try box.sql("SELECT title FROM movies") == ["F"])
    }

    @Test("JSON: --map and --where read the key named exactly as given, though one differing in case comes first or last")
    func exactJSONKeys() throws {
        let box = try Sandbox()
        try box.write("dup.json", #"[{"title": "A", "year": 1990, "YEAR": 2005, "Kind": "movie", "kind": "tv"}, {"title": "B", "YEAR": 2006, "year": 1991, "kind": "movie", "Kind": "tv"}]"#)
        let run = try box.moviecat("import", "dup.json", "--map", "year=YEAR", "--where", "Kind=movie")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, year FROM movies") == [["A", "2005"]])
    }

    @Test("JSON records none of which has a title key exit 65 naming the keys, as a header without a title column does")
    func jsonWithoutTitleKey() throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.dump()
        try box.write("names.json", #"[{"nom": "Heat", "year": 1995}, {"nom": "Alien", "year": 1979}]"#)
        for extra in [[], ["--skip-invalid"]] {
            let run = try box.moviecat(["import", "names.json"] + extra)
            #expect(run.status == 65, "\(run)")
            #expect(run.errorLines.first == "moviecat: error: names.json: no record has a title key (title, primaryTitle, film or movie, or use --map title=KEY); the first record's are 'nom', 'year'", "\(run)")
        }
        #expect(try box.dump() == before)
        // One record with a title is enough: the others are rejected one by one.
        try box.write("some.jsonl", "{\"nom\": \"Heat\"}\n{\"title\": \"Alien\"}\n")
        let some = try box.moviecat("import", "some.jsonl", "--skip-invalid")
        #expect(some.status == 0 && some.reports == [ReportLine(file: "some.jsonl", read: 2, inserted: 1, rejected: 1)], "\(some)")
        // --map names the key.
        #expect(try box.moviecat("import", "names.json", "--map", "title=nom").status == 0)
        // With --where, only the records it keeps count.
        try box.write("kinds.json", #"[{"kind": "movie", "nom": "a"}, {"kind": "tv", "title": "b"}]"#)
        let kept = try box.moviecat("import", "kinds.json", "--where", "kind=movie")
        #expect(kept.errorLines.last == "moviecat: error: kinds.json: no record --where keeps has a title key (title, primaryTitle, film or movie, or use --map title=KEY); the first record's are 'kind', 'nom'", "\(kept)")
    }

    // MARK: Formats

    struct FormatCase: Sendable, CustomStringConvertible {
        let file: String
        let text: String
        var format: String?
        var status: Int32 = 0
        var description: String { file + (format.map { " --format \($0)" } ?? "") }
    }

    @Test("the format comes from the extension, else --format", arguments: [
        FormatCase(file: "a.csv", text: "title,year\nFrom CSV,2001\n"),
        FormatCase(file: "a.TSV", text: "title\tyear\nFrom TSV\t2001\n"),
        FormatCase(file: "a.json", text: #"[{"title": "From JSON", "year": 2001}]"#),
        FormatCase(file: "a.jsonl", text: #"{"title": "From JSONL", "year": 2001}"# + "\n"),
        FormatCase(file: "a.ndjson", text: #"{"title": "From NDJSON", "year": 2001}"# + "\n"),
        FormatCase(file: "a.txt", text: "title,year\nFrom text,2001\n"),
        FormatCase(file: "a.txt", text: "title,year\nFrom text,2001\n", format: "csv"),
        FormatCase(file: "a.dat", text: "title,year\nFrom text,2001\n", status: 64),
        FormatCase(file: "a.csv", text: "title\tyear\nTabs in a .csv\t2001\n", format: "tsv"),
        FormatCase(file: "-", text: "title,year\nFrom stdin,2001\n", format: "csv"),
        FormatCase(file: "-", text: "title\tyear\nFrom stdin\t2001\n", format: "tsv"),
        FormatCase(file: "-", text: #"[{"title": "From stdin", "year": 2001}]"#, format: "json"),
        FormatCase(file: "-", text: #"{"title": "From stdin", "year": 2001}"#, format: "jsonl"),
        FormatCase(file: "-", text: "title,year\nFrom stdin,2001\n", status: 64),
        FormatCase(file: "a.csv", text: "title,year\nX,2001\n", format: "xml", status: 64),
    ])
    func formats(_ c: FormatCase) throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.dump()
        var arguments = ["import", c.file]
        if let format = c.format { arguments += ["--format", format] }
        if c.file != "-" { try box.write(c.file, c.text) }
        let run = try box.moviecat(arguments, stdin: c.file == "-" ? c.text : nil)
        #expect(run.status == c.status, "\(run)")
        if c.status == 0 {
            #expect(run.reports == [ReportLine(file: c.file, read: 1, inserted: 1)], "\(run)")
            #expect(try box.scalar("SELECT count(*) FROM movies WHERE year = 2001") == "1")
        } else {
            #expect(run.errorLines.contains { $0.hasPrefix("moviecat: error: ") && ($0.contains("--format") || $0.contains("xml")) }, "\(run)")
            #expect(try box.dump() == before)
        }
    }

    // MARK: Values

    @Test("durations: minutes, hours, hours and minutes, h:mm:ss, and JSON numbers")
    func durations() throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.write("d.csv", "title,duration\nPlain,120\nHours,2h\nSpaced,1h 30m\nJoined,1h30m\nClock,1:30:00\nMinutes,95m\n")
        try box.write("d.json", #"[{"title": "Number", "duration": 95}, {"title": "Text", "duration": "2h"}]"#)
        let run = try box.moviecat("import", "d.csv", "d.json")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, duration_minutes FROM movies ORDER BY title") == [
            ["Clock", "90"], ["Hours", "120"], ["Joined", "90"], ["Minutes", "95"], ["Number", "95"], ["Plain", "120"],
            ["Spaced", "90"], ["Text", "120"],
        ])
    }

    @Test("genres split on |, , and ; (trimmed, empty parts dropped), or come as a JSON array")
    func genreLists() throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.write("g.csv", "title,genres\nPipes,Drama|Comedy\nCommas,\"Drama,Comedy\"\nSemicolons,Drama;Comedy\n"
                      + "Loose,\" drama | | COMEDY ;\"\nMixed,Drama|Comedy;Crime\nNone,\n")
        try box.write("g.json", #"[{"title": "Array", "genres": ["Drama", "comedy"]}, {"title": "Text", "genres": "Drama;Comedy"}, {"title": "Empty", "genres": []}]"#)
        let run = try box.moviecat("import", "g.csv", "g.json")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, (SELECT count(*) FROM movie_genres WHERE movie_id = movies.id) FROM movies ORDER BY title") == [
            ["Array", "2"], ["Commas", "2"], ["Empty", "0"], ["Loose", "2"], ["Mixed", "3"], ["None", "0"], ["Pipes", "2"],
            ["Semicolons", "2"], ["Text", "2"],
        ])
        #expect(try box.movieRows().map { $0[5] }.filter { !$0.isEmpty }.allSatisfy { $0 == "comedy|drama" || $0 == "comedy|crime|drama" })
        #expect(try box.scalar("SELECT count(*) FROM genres") == box.scalar("SELECT count(*) FROM genres WHERE id <= 22"),
                "known genres are matched, not added again")
    }

    @Test("a new genre is added with code = slug and the name as first seen")
    func newGenres() throws {
        let box = try Sandbox()
        try box.seed()
        let known = try box.scalar("SELECT count(*) FROM genres")
        try box.write("g.csv", "title,genres\nOne,Film Noir|sci-fi\nTwo,film noir|SCI-FI|Sci-Fi\nThree,FILM-NOIR;Neo Noir\n")
        let run = try box.moviecat("import", "g.csv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT code, name FROM genres WHERE code IN ('film-noir', 'neo-noir', 'sci-fi') ORDER BY code") == [
            ["film-noir", "Film Noir"], ["neo-noir", "Neo Noir"], ["sci-fi", "Sci-Fi"],
        ])
        #expect(try box.scalar("SELECT count(*) FROM genres") == String(Int(known)! + 2))
        #expect(try box.rows("SELECT title, genres FROM movie_list WHERE title IN ('One', 'Two', 'Three') ORDER BY title") == [
            ["One", "Film Noir, Sci-Fi"], ["Three", "Film Noir, Neo Noir"], ["Two", "Film Noir, Sci-Fi"],
        ])
    }

    @Test("CSV: BOM, CRLF, quoted fields with doubled quotes, commas and line breaks")
    func csvDialect() throws {
        let box = try Sandbox()
        try box.initEmpty()
        let text = "\u{FEFF}title,year,certification\r\n\"Line one\r\nLine two\",2000,r\r\n\"Say \"\"Hi\"\", world\",2001,\r\nPlain,2002,pg\r\n"
        try box.write("bom.csv", text)
        let run = try box.moviecat("import", "bom.csv")
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("ignored"), "the BOM is not part of the first column's name: \(run)")
        #expect(try box.rows("SELECT hex(title), year, certification FROM movies ORDER BY year") == [
            [Self.hex("Line one\r\nLine two"), "2000", "R"], [Self.hex("Say \"Hi\", world"), "2001", sqlNull], [Self.hex("Plain"), "2002", "PG"],
        ])
    }

    @Test(#"TSV: \N is null, quotes are literal, empty cells are null"#)
    func tsvDialect() throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.write("t.tsv", "title\tyear\tgenres\trating\truntimeMinutes\n\"Quoted\" Title\t\\N\t\\N\t\\N\t\\N\nEmpty Cells\t\t\t\t\nFull\t1999\tDrama,Crime\t7.5\t95\n")
        let run = try box.moviecat("import", "t.tsv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.movieRows() == [
            ["\"Quoted\" Title", sqlNull, sqlNull, sqlNull, sqlNull, ""], ["Empty Cells", sqlNull, sqlNull, sqlNull, sqlNull, ""],
            ["Full", "1999", "7.5", "95", sqlNull, "crime|drama"],
        ])
    }

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02X", $0) }.joined() }
}

import Foundation
import Testing

/// SPEC section 4 `import`: one transaction per command, de-duplication, repeats within the input,
/// and the options that keep, reject or only report rows.
extension ImportBehaviourTests {
    // MARK: One transaction

    enum Start: String, Sendable, CaseIterable { case seeded, empty }

    @Test("several files are one transaction: an invalid second file keeps the first out", arguments: Start.allCases)
    func filesAreOneTransaction(_ start: Start) throws {
        let box = try Sandbox()
        if start == .seeded { try box.seed() } else { try box.initEmpty() }
        try box.write("good.csv", "title,year,genres\nGood One,2001,Film Noir\nGood Two,2002,Drama\n")
        try box.write("bad-row.csv", "title,year\nLate,1700\n")
        try box.write("bad-syntax.csv", "title,year\n\"Never closed,2003\n")
        try box.write("bad.json", #"[{"title": "X"},"#)
        let before = try box.dump()
        for second in ["bad-row.csv", "bad-syntax.csv", "bad.json", "missing.csv"] {
            let run = try box.moviecat("import", "good.csv", second)
            #expect(run.status == (second == "missing.csv" ? 66 : 65), "\(run)")
            #expect(run.errorLines.last?.hasPrefix("moviecat: error: ") == true, "\(run)")
            #expect(try box.dump() == before, "good.csv landed although \(second) failed: \(run)")
        }
        let run = try box.moviecat("import", "good.csv", "good.csv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.scalar("SELECT count(*) FROM movies WHERE title LIKE 'Good %'") == "2")
    }

    // MARK: Duplicates of stored movies

    @Test("--on-duplicate update: present columns overwrite, empty cells set NULL, absent columns stay")
    func updateKeepsAbsentColumns() throws {
        let box = try Sandbox()
        try box.seed()
        // Aquaman 2018: action, 4, 180 min. Taken 2008: drama, 2, 60 min.
        try box.write("up.csv", "title,year,rating,certification\naquaman,2018,9.5,pg-13\n  Taken ,2008,,\n")
        let run = try box.moviecat("import", "up.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "up.csv", read: 2, updated: 2)], "\(run)")
        #expect(try box.rows("SELECT id, title, year, rating, duration_minutes, certification, genres FROM movie_list WHERE id IN (2, 12) ORDER BY id") == [
            ["2", "aquaman", "2018", "9.5", "180", "PG-13", "Action"],
            ["12", "Taken", "2008", sqlNull, "60", sqlNull, "Drama"],
        ])
        #expect(try box.scalar("SELECT count(*) FROM movies") == "13")
    }

    @Test("--on-duplicate update replaces genres only when the input has a genres column")
    func updateReplacesGenres() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("g.csv", "title,year,genres\nForrest Gump,1994,Drama|Romance\nTaken,2008,\n")
        try box.write("nog.jsonl", #"{"title": "Aquaman", "year": 2018, "rating": 6}"# + "\n" + #"{"title": "Seven Samurai", "year": 1954, "genres": ["Drama"]}"# + "\n")
        #expect(try box.moviecat("import", "g.csv").status == 0)
        #expect(try box.moviecat("import", "nog.jsonl").status == 0)
        #expect(try box.rows("SELECT title, ifnull(genres, '-') FROM movie_list WHERE title IN ('Forrest Gump', 'Taken', 'Aquaman', 'Seven Samurai') ORDER BY title") == [
            ["Aquaman", "Action"], ["Forrest Gump", "Drama, Romance"], ["Seven Samurai", "Drama"], ["Taken", "-"],
        ])
    }

    @Test("--on-duplicate skip keeps the stored movie and inserts the new ones")
    func skipDuplicates() throws {
        let box = try Sandbox()
        try box.seed()
        let aquaman = try box.rows("SELECT * FROM movies WHERE id = 2")
        try box.write("s.csv", "title,year,genres,rating\nAQUAMAN,2018,Comedy,1\nBrand New,1999,Drama,3\n")
        let run = try box.moviecat("import", "--on-duplicate", "skip", "s.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "s.csv", read: 2, inserted: 1, skipped: 1)], "\(run)")
        #expect(try box.rows("SELECT * FROM movies WHERE id = 2") == aquaman)
        #expect(try box.scalar("SELECT genres FROM movie_list WHERE id = 2") == "Action")
        #expect(try box.scalar("SELECT count(*) FROM movies") == "14")
    }

    @Test("--on-duplicate fail exits 65 naming the line and the stored movie, and writes nothing")
    func failOnDuplicate() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("dup.csv", "title,year\nNew One,2001\nNew Two,2002\nthe godfather,1972\n")
        let before = try box.dump()
        let run = try box.moviecat("import", "--on-duplicate", "fail", "dup.csv")
        #expect(run.status == 65, "\(run)")
        let last = try #require(run.errorLines.last)
        #expect(last.hasPrefix("moviecat: error: dup.csv:4: "), "\(run)")
        #expect(last.contains("movie 8") && last.contains("The Godfather"), "names the stored movie's id and title: \(run)")
        #expect(try box.dump() == before)
    }

    @Test("--on-duplicate fail names a ratings row, which has no title, by its IMDb id")
    func failOnDuplicateRatings() throws {
        let box = try Sandbox()
        try box.write("heat.csv", "title,year,imdb_id\nHeat,1995,tt0113277\n")
        #expect(try box.moviecat("import", "heat.csv").status == 0)
        try box.write("ratings.tsv", "tconst\taverageRating\tnumVotes\ntt0113277\t8.3\t720000\n")
        let run = try box.moviecat("import", "--on-duplicate", "fail", "ratings.tsv")
        #expect(run.status == 65, "\(run)")
        #expect(run.errorLines.last?.hasPrefix("moviecat: error: ratings.tsv:2: tt0113277 is already in the catalog as movie 1 'Heat' (1995)") == true, "\(run)")
        #expect(try box.sql("SELECT rating IS NULL FROM movies") == ["1"])
    }

    // MARK: Repeats within the input

    /// Six rows, three natural keys; the last repeat of each must win.
    static let repeats = "title,year,genres,rating,duration,certification\n"
        + "Echo,2000,Drama,5,100,PG\nFoxtrot,,Comedy,6,,\necho,2000,Crime|Drama,,110,r\n"
        + "Golf,2001,,1,,\nECHO,2000,Horror,7.5,,g\nfoxtrot,,,,90,PG-13\n"
    static let repeatsResult = [
        ["ECHO", "2000", "7.5", sqlNull, "G", "horror"], ["Golf", "2001", "1.0", sqlNull, sqlNull, ""],
        ["foxtrot", sqlNull, sqlNull, "90", "PG-13", ""],
    ]

    enum Path: String, Sendable, CaseIterable {
        /// CSV into an empty catalog: the bulk path.
        case bulk
        /// CSV into a catalog that already holds a movie: row by row.
        case rowByRow
        /// JSON Lines into an empty catalog, every row with the same keys: bulk as well.
        case json
        /// JSON Lines whose keys change midway (Golf has no certification): bulk, then row by row.
        case jsonMixedKeys
    }

    @Test("repeats within one input: the last one wins and the report counts them", arguments: Path.allCases)
    func repeatsInInput(_ path: Path) throws {
        let box = try Sandbox()
        try box.initEmpty()
        if path == .rowByRow {
            try box.write("other.csv", "title,year\nZulu,1999\n")
            #expect(try box.moviecat("import", "other.csv").status == 0)
        }
        var file = "repeats.csv"
        if path == .json || path == .jsonMixedKeys {
            file = "repeats.jsonl"
            try box.write(file, """
                {"title": "Echo", "year": 2000, "genres": ["Drama"], "rating": 5, "duration": 100, "certification": "PG"}
                {"title": "Foxtrot", "year": null, "genres": "Comedy", "rating": 6, "duration": null, "certification": ""}
                {"title": "echo", "year": 2000, "genres": "Crime|Drama", "rating": null, "duration": "110", "certification": "r"}
                {"title": "Golf", "year": 2001, "genres": [], "rating": 1, "duration": null\(path == .json ? ", \"certification\": null" : "")}
                {"title": "ECHO", "year": 2000, "genres": ["Horror"], "rating": 7.5, "duration": null, "certification": "g"}
                {"title": "foxtrot", "year": null, "genres": null, "rating": null, "duration": 90, "certification": "PG-13"}

                """)
        } else {
            try box.write(file, Self.repeats)
        }
        let run = try box.moviecat("import", file)
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: file, read: 6, inserted: 3, repeated: 3)], "\(run)")
        #expect(run.stderr.contains("3 repeated in the input (last one kept)"), "\(run)")
        #expect(try box.movieRows().filter { $0[0] != "Zulu" } == Self.repeatsResult)
        #expect(try box.scalar("SELECT count(*) FROM movie_genres WHERE movie_id NOT IN (SELECT id FROM movies)") == "0")
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"])
    }

    @Test("a stored movie repeated in the input is updated once and the rest count as repeats")
    func repeatsOfStoredMovie() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("again.csv", "title,year,rating\nAquaman,2018,6\nAQUAMAN,2018,7\n")
        let run = try box.moviecat("import", "again.csv")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, rating FROM movies WHERE id = 2") == [["AQUAMAN", "7.0"]])
        #expect(run.reports == [ReportLine(file: "again.csv", read: 2, updated: 1, repeated: 1)], "\(run)")
    }

    // MARK: Invalid rows

    static let mixed = "title,year,rating,notes\nGood A,2001,7,\"x, y\"\n\"Bad \"\"B\"\"\",2002,11,y\nGood C,2003,8,z\n,2004,5,\"multi\nline\"\n"

    @Test("--skip-invalid imports the valid rows, lists the problems and exits 0")
    func skipInvalid() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("mixed.csv", Self.mixed)
        let run = try box.moviecat("import", "--skip-invalid", "mixed.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "mixed.csv", read: 4, inserted: 2, rejected: 2)], "\(run)")
        #expect(run.errorLines.contains("mixed.csv:3: rating: '11' is outside 0..10"), "\(run)")
        #expect(run.errorLines.contains("mixed.csv:5: title: is blank"), "\(run)")
        #expect(!run.stderr.contains("moviecat: error"), "\(run)")
        #expect(try box.rows("SELECT title FROM movies WHERE id > 13 ORDER BY title") == [["Good A"], ["Good C"]])
    }

    @Test("--rejects writes the rejected rows as CSV, as read, plus an error column")
    func rejectsFile() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("mixed.csv", Self.mixed)
        let run = try box.moviecat("import", "--skip-invalid", "--rejects", "rejects.csv", "mixed.csv")
        #expect(run.status == 0, "\(run)")
        let written = try String(contentsOfFile: box.path("rejects.csv"), encoding: .utf8)
        #expect(written == "title,year,rating,notes,error\n"
                + "\"Bad \"\"B\"\"\",2002,11,y,mixed.csv:3: rating: '11' is outside 0..10\n"
                + ",2004,5,\"multi\nline\",mixed.csv:5: title: is blank\n")
        // The rejects file is itself CSV with the original columns: its rows fail the same way again.
        let again = try box.moviecat("import", "--skip-invalid", "rejects.csv")
        #expect(again.status == 0 && again.reports == [ReportLine(file: "rejects.csv", read: 2, rejected: 2)], "\(again)")
        #expect(again.stderr.contains("ignored columns: notes, error"), "\(again)")

        let usage = try box.moviecat("import", "--rejects", "r2.csv", "mixed.csv")
        #expect(usage.status == 64 && usage.stderr.contains("--skip-invalid"), "--rejects needs --skip-invalid: \(usage)")
        #expect(!FileManager.default.fileExists(atPath: box.path("r2.csv")))
    }

    // (Bytes shaped as UTF-8 but none, an encoded surrogate: a file whose only bytes beyond
    // ASCII are not shaped so is read as Windows-1252.)
    @Test("--rejects keeps bytes that are not UTF-8 as those bytes, apart from a written \\xC0", arguments: ["csv", "tsv"])
    func rejectsKeepBytes(_ format: String) throws {
        let box = try Sandbox()
        let sep: UInt8 = format == "csv" ? 0x2C : 0x09
        let lines: [[UInt8]] = [Array("title".utf8) + [sep] + Array("year".utf8), Array("Lit\\xC0".utf8) + [sep] + Array("abc".utf8),
                                Array("Raw".utf8) + [0xED, 0xA0, 0x80] + [sep] + Array("2000".utf8), Array("Good".utf8) + [sep] + Array("2001".utf8)]
        let file = try box.write("bytes.\(format)", bytes: Array(lines.joined(separator: [0x0A])) + [0x0A])
        let run = try box.moviecat("import", "--skip-invalid", "--rejects", "rejects.csv", file)
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 3, inserted: 1, rejected: 2)], "\(run)")
        let written = try [UInt8](Data(contentsOf: box.dir.appendingPathComponent("rejects.csv")))
        let expected = Array("title,year,error\nLit\\xC0,abc,\(file):2: year: 'abc' is not a whole number\nRaw".utf8) + [0xED, 0xA0, 0x80]
            + Array(",2000,\(file):3: title: invalid UTF-8\n".utf8)
        #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
        // Imported again, the raw byte fails again; the written backslash is text.
        let again = try box.moviecat("import", "--skip-invalid", "rejects.csv")
        #expect(again.reports == [ReportLine(file: "rejects.csv", read: 2, rejected: 2)], "\(again)")
        #expect(again.stderr.contains("rejects.csv:3: title: invalid UTF-8"), "\(again)")
    }

    // `\u0000` is valid JSON but no catalog value: its record alone is rejected, as a CSV record
    // with a NUL byte is (it stopped the whole input once).
    @Test("--skip-invalid rejects a JSON record with an escaped NUL and imports the rest", arguments: ["jsonl", "json"])
    func escapedNUL(format: String) throws {
        let box = try Sandbox()
        try box.seed()
        let objects = [#"{"title":"Good A","year":2001}"#, #"{"title":"I\u0000J","year":2002,"x":"\u0000"}"#,
                       #"{"title":"Good C","year":2003}"#]
        try box.write("n.\(format)", format == "json" ? "[" + objects.joined(separator: ",\n") + "]\n" : objects.joined(separator: "\n") + "\n")
        let run = try box.moviecat("import", "--skip-invalid", "--rejects", "rejects.csv", "n.\(format)")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "n.\(format)", read: 3, inserted: 2, rejected: 1)], "\(run)")
        #expect(run.errorLines.contains("n.\(format):2: record: contains a NUL character (\\u0000)"), "\(run)")
        #expect(try box.rows("SELECT title FROM movies WHERE id > 13 ORDER BY title") == [["Good A"], ["Good C"]])
        #expect(try box.scalar("SELECT count(*) FROM movies WHERE instr(title, char(0)) > 0") == "0")
        // The rejected row as read, NUL and all: imported again, it is rejected again.
        let written = try String(contentsOfFile: box.path("rejects.csv"), encoding: .utf8)
        #expect(written.contains("I\u{0}J,2002,"), "the row as read: \(written)")
        let again = try box.moviecat("import", "--skip-invalid", "rejects.csv")
        #expect(again.reports == [ReportLine(file: "rejects.csv", read: 1, rejected: 1)], "\(again)")
    }

    @Test("--dry-run reports what it would do and writes nothing")
    func dryRun() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("some.csv", "title,year,genres\nAquaman,2018,Film Noir\nNew One,2001,Neo Noir\nnew one,2001,\n")
        let before = try box.dump()
        let run = try box.moviecat("import", "--dry-run", "some.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "some.csv", read: 3, inserted: 1, updated: 1, repeated: 1)], "\(run)")
        #expect(run.errorLines.contains("dry run: nothing was imported"), "\(run)")
        #expect(try box.dump() == before)

        try box.write("bad.csv", "title,rating\nBad,11\n")
        let bad = try box.moviecat("import", "--dry-run", "bad.csv")
        #expect(bad.status == 65 && bad.stderr.contains("bad.csv:2: rating:"), "\(bad)")
        #expect(try box.dump() == before)
    }

    @Test("--dry-run into an empty catalog takes the bulk path, counts alike, and still writes nothing")
    func dryRunBulk() throws {
        let box = try Sandbox()
        #expect(try box.moviecat("init").status == 0)
        try box.write("some.csv", "title,year,genres\nAquaman,2018,Film Noir\nNew One,2001,Neo Noir\nnew one,2001,\n")
        let before = try box.dump()
        let dry = try box.moviecat("import", "--dry-run", "some.csv")
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.reports == [ReportLine(file: "some.csv", read: 3, inserted: 2, repeated: 1)], "\(dry)")
        #expect(try box.dump() == before)
        let real = try box.moviecat("import", "some.csv")
        #expect(real.reports == dry.reports, "\(real)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["2"])
    }
}

/// What an import says of a header it cannot read as it is.
@Suite struct HeaderMessageTests {
    @Test("a doubled byte order mark is shown, a semicolon header gets a hint, unnamed and second columns are named by place",
          arguments: [
              ("bom.csv", "\u{FEFF}\u{FEFF}title,year\nA,2000\n", "moviecat: error: bom.csv:1: no title column (title, primaryTitle, film or movie, or use --map title=COLUMN); the columns are '\\u{FEFF}title', 'year'"),
              // A CSV is read with `;` when its header has no comma (see below); a TSV is not.
              ("semi.tsv", "title;year\nA;2000\n", "moviecat: error: semi.tsv:1: no title column (title, primaryTitle, film or movie, or use --map title=COLUMN); the columns are 'title;year'; the header is one column holding ';': save the file with commas (or tabs, as .tsv)"),
              ("cols.csv", "title,year,,,title\nA,2000,,,B\n", "cols.csv: ignored columns: column 3 (no name), column 4 (no name), title (column 5; column 1 is read)"),
          ])
    func header(_ name: String, _ text: String, _ line: String) throws {
        let box = try Sandbox()
        try box.write(name, text)
        let run = try box.moviecat("import", name)
        #expect(run.errorLines.contains(line), "\(run)")
        #expect(run.status == (name == "cols.csv" ? 0 : 65), "\(run)")
    }

    @Test("a CSV whose header has semicolons and no comma (a European spreadsheet's) is read with ';', ratings with a decimal comma")
    func semicolonCSV() throws {
        let box = try Sandbox()
        try box.write("eu.csv", "\u{FEFF}title;year;rating;genres\r\nAm\u{E9}lie;2001;8,3;Comedy, Romance\r\n\"Tiger; Dragon\";2000;7;Action\r\nBad;20x1;1,5;\r\n")
        let run = try box.moviecat("import", "eu.csv", "--skip-invalid")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "eu.csv", read: 3, inserted: 2, rejected: 1)], "\(run)")
        #expect(run.errorLines.contains("eu.csv: fields separated by ';', ratings with a decimal comma"), "\(run)")
        #expect(run.errorLines.contains("eu.csv:4: year: '20x1' is not a whole number"), "\(run)")
        #expect(try box.rows("SELECT title, year, rating FROM movies ORDER BY id") == [["Am\u{E9}lie", "2001", "8.3"], ["Tiger; Dragon", "2000", "7.0"]])
        #expect(try box.sql("SELECT group_concat(g.code, '|') FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = 1") == ["comedy|romance"])
        // Excel's `sep=;` line, and blank lines before the header, are read past.
        try box.write("sep.csv", "sep=;\r\ntitle;year;rating\r\nSep Film;2001;6,5\r\n")
        try box.write("blank.csv", "\n\ntitle;year\nBlank Film;2002\n")
        #expect(try box.moviecat("import", "sep.csv", "blank.csv").status == 0)
        #expect(try box.rows("SELECT title, year, rating FROM movies WHERE title IN ('Sep Film', 'Blank Film') ORDER BY year") == [["Sep Film", "2001", "6.5"], ["Blank Film", "2002", sqlNull]])
        let noTitle = try box.moviecat("import", "sep.csv", "--map", "title=")
        #expect(noTitle.status == 64 && noTitle.errorLines.last == "moviecat: error: invalid --map 'title=': every row needs a title, so some column must feed it", "\(noTitle)")
        // A comma in the header keeps the comma: `;` inside a field stays text.
        try box.write("us.csv", "title,year\nA;B,2000\n")
        #expect(try box.moviecat("import", "us.csv").status == 0)
        #expect(try box.sql("SELECT title FROM movies WHERE year = 2000 AND title LIKE 'A%'") == ["A;B"])
    }

    @Test("a dry run says which genres it would add")
    func dryRunGenres() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("g.csv", "title,genres\nA,Mumblecore\n")
        let run = try box.moviecat("import", "g.csv", "--dry-run")
        #expect(run.errorLines.contains("would add genre 'mumblecore'"), "\(run)")
        #expect(try box.sql("SELECT count(*) FROM genres WHERE code = 'mumblecore'") == ["0"])
    }
}

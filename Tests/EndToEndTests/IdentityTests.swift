import Foundation
import Testing
import TestSupport

/// Which stored movie a row is (SPEC section 4), votes and IMDb ids through import, add,
/// filters and output, and the upgrade of a version-2 catalog.
@Suite struct IdentityTests {
    /// A catalog with two films of one title and year told apart by their ids, and one movie without an id.
    static func hamlets() throws -> Sandbox {
        let box = try Sandbox()
        try box.write("ids.csv", """
            title,year,imdb_id,votes
            Hamlet,1948,tt0040416,20000
            Hamlet,1948,tt0040417,15
            Heat,1995,,

            """)
        let run = try box.moviecat("import", "ids.csv")
        try #require(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "ids.csv", read: 3, inserted: 3)], "\(run)")
        return box
    }

    @Test("two films of one title and year stay two; an id attaches to the movie without one")
    func attach() throws {
        let box = try Self.hamlets()
        try box.write("more.csv", "title,year,imdb_id,rating\nheat,1995,https://www.imdb.com/title/tt0113277/,8.3\nHeat,1995,tt0113277,8.4\n")
        let run = try box.moviecat("import", "more.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "more.csv", read: 2, updated: 1, repeated: 1)], "\(run)")
        #expect(try box.rows("SELECT title, year, imdb_id, rating FROM movies ORDER BY id") == [
            ["Hamlet", "1948", "tt0040416", sqlNull], ["Hamlet", "1948", "tt0040417", sqlNull], ["Heat", "1995", "tt0113277", "8.4"],
        ])
        // A row with a new id and a title and year whose only movie has another id: a new film.
        try box.write("third.csv", "title,year,imdb_id\nHeat,1995,tt9999999\n")
        #expect(try box.moviecat("import", "third.csv").report("third.csv")?.inserted == 1)
        #expect(try box.scalar("SELECT count(*) FROM movies WHERE title = 'Heat'") == "2")
    }

    @Test("a row without an id naming a shared title and year is ambiguous, rejected like an invalid row")
    func ambiguous() throws {
        let box = try Self.hamlets()
        try box.write("list.csv", "title,year,rating\nHamlet,1948,7.7\nHeat,1995,8.3\nNew One,2001,5\n")
        let before = try box.dump()
        let failed = try box.moviecat("import", "list.csv")
        #expect(failed.status == 65, "\(failed)")
        #expect(failed.errorLines.first == "list.csv:2: title: ambiguous: movies 1 (tt0040416) and 2 (tt0040417) have this title and year; an imdb_id column tells them apart", "\(failed)")
        #expect(try box.dump() == before)

        let run = try box.moviecat("import", "list.csv", "--skip-invalid", "--rejects", "rejects.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "list.csv", read: 3, inserted: 1, updated: 1, rejected: 1)], "\(run)")
        let rejects = try String(contentsOf: box.dir.appendingPathComponent("rejects.csv"), encoding: .utf8)
        #expect(rejects == "title,year,rating,error\nHamlet,1948,7.7,list.csv:2: title: ambiguous: movies 1 (tt0040416) and 2 (tt0040417) have this title and year; an imdb_id column tells them apart\n")
        #expect(try box.sql("SELECT rating FROM movies WHERE title = 'Heat'") == ["8.3"])
        #expect(try box.sql("SELECT count(*) FROM movies WHERE rating IS NOT NULL AND title = 'Hamlet'") == ["0"])
    }

    @Test("an import stopped by an invalid row still counts the ambiguous rows after it, as --skip-invalid rejects them")
    func ambiguousAfterInvalid() throws {
        let box = try Self.hamlets()
        try box.write("list.csv", "title,year\nHamlet,1948\nBad,c. 1999\nHamlet,1948\nBad2,c. 1999\n")
        let failed = try box.moviecat("import", "list.csv")
        #expect(failed.status == 65, "\(failed)")
        #expect(failed.errorLines.filter { $0.contains(": title: ambiguous") }.map { $0.prefix(12) } == ["list.csv:2: ", "list.csv:4: "], "\(failed)")
        #expect(failed.errorLines.last?.hasPrefix("moviecat: error: 4 invalid rows (4 problems)") == true, "\(failed)")
        let dry = try box.moviecat("import", "list.csv", "--skip-invalid", "--dry-run")
        #expect(dry.reports.first?.rejected == 4, "\(dry)")
    }

    @Test("an import never clears a stored id; skip keeps the stored movie as it is")
    func neverClears() throws {
        let box = try Self.hamlets()
        try box.write("empty-id.csv", "title,year,imdb_id,votes\nHeat,1995,,7\n")
        #expect(try box.moviecat("import", "empty-id.csv").status == 0)
        try box.write("id.csv", "title,year,imdb_id\nHeat,1995,tt0113277\n")
        #expect(try box.moviecat("import", "id.csv", "--on-duplicate", "skip").report("id.csv")?.skipped == 1)
        #expect(try box.rows("SELECT imdb_id, votes FROM movies WHERE title = 'Heat'") == [[sqlNull, "7"]])
        #expect(try box.moviecat("import", "id.csv").status == 0)
        #expect(try box.moviecat("import", "empty-id.csv").status == 0)
        #expect(try box.rows("SELECT imdb_id, votes FROM movies WHERE title = 'Heat'") == [["tt0113277", "7"]])
    }

    @Test("add follows the same rules: an id or an unambiguous title is the stored movie")
    func add() throws {
        let box = try Self.hamlets()
        let same = try box.moviecat("add", "--title", "Other Title", "--imdb", "tt0040417")
        #expect(same.status == 1, "\(same)")
        #expect(same.errorLines.last == "moviecat: error: 'Other Title' is already in the catalog as movie 2 'Hamlet' (1948), tt0040417", "\(same)")
        let ambiguous = try box.moviecat("add", "--title", "hamlet", "--year", "1948")
        #expect(ambiguous.status == 1, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("movies 1 (tt0040416) and 2 (tt0040417)"), "\(ambiguous)")
        let third = try box.moviecat("add", "--title", "Hamlet", "--year", "1948", "--imdb", "40418", "--votes", "9")
        #expect(third.status == 0, "\(third)")
        #expect(try box.rows("SELECT imdb_id, votes FROM movies WHERE id = \(third.stdout.trimmingCharacters(in: .whitespacesAndNewlines))")
                == [["tt0040418", "9"]])
        let bad = try box.moviecat("add", "--title", "X", "--imdb", "nm0000001")
        #expect(bad.status == 64 && bad.stderr.contains("--imdb: 'nm0000001' is not an IMDb id"), "\(bad)")
    }

    @Test("--votes and --imdb filter; --sort votes orders by votes", arguments: [
        (["--votes", "1k.."], ["tt0040416"]), (["--votes", "..15"], ["tt0040417"]), (["votes:15"], ["tt0040417"]),
        (["--imdb", "TT0040417"], ["tt0040417"]), (["--imdb", "tt0040416,tt0040417", "--votes", "..100"], ["tt0040417"]),
        (["--sort", "votes", "--desc"], ["tt0040416", "tt0040417", ""]),
    ])
    func filters(_ arguments: [String], _ ids: [String]) throws {
        let box = try Self.hamlets()
        let run = try box.moviecat(["filter", "--format", "csv"] + arguments)
        #expect(run.status == 0, "\(run)")
        #expect(try CSV.rows(run.stdout).map { $0["imdb_id"] ?? "?" } == ids, "\(run)")
    }

    @Test("tables show Votes and IMDb columns only when a listed movie has them")
    func tableColumns() throws {
        let box = try Self.hamlets()
        let all = try box.moviecat("filter")
        #expect(all.lines.first == "ID  Title   Year  Genres  Rating   Votes  Duration  Certification  IMDb", "\(all)")
        #expect(all.lines.contains(" 1  Hamlet  1948                  20,000                           tt0040416"), "\(all)")
        let heat = try box.moviecat("filter", "--title", "heat")
        #expect(heat.lines.first == "ID  Title  Year  Genres  Rating  Duration  Certification", "\(heat)")
        let page = try box.moviecat("filter", "--sort", "votes", "--limit", "1", "--offset", "2")
        #expect(page.lines.first == "ID  Title  Year  Genres  Rating  Duration  Certification", "\(page)")
    }

    @Test("filter --format jsonl | import reproduces ids and votes")
    func roundTrip() throws {
        let box = try Self.hamlets()
        let exported = try box.moviecat("filter", "--format", "jsonl")
        #expect(exported.lines.first == #"{"id":1,"title":"Hamlet","year":1948,"genres":[],"rating":null,"votes":20000,"duration_minutes":null,"certification":null,"imdb_id":"tt0040416"}"#)
        let copy = box.path("copy.sqlite")
        let run = try runProcess(moviecatBinary, ["--db", copy, "import", "--format", "jsonl", "-"], stdin: Data(exported.stdout.utf8))
        #expect(run.status == 0, "\(run)")
        let query = "SELECT title, year, votes, imdb_id FROM movies ORDER BY id"
        #expect(try box.rows(query, db: copy) == box.rows(query))
    }

    /// The SQL that makes the demo catalog at schema version 2, as the sqlite3 shell would.
    static func versionTwoDemo() throws -> String {
        try ["Migrations/0001_initial.sql", "Migrations/0002_drop_facets_index.sql", "seed.sql"].map {
            try String(contentsOf: packageRoot.appendingPathComponent($0), encoding: .utf8)
        }.joined()
    }

    @Test("a version-2 catalog made by sqlite3 upgrades on first use, movies, presets and ids kept")
    func upgradesVersionTwo() throws {
        let box = try Sandbox()
        let script = try Self.versionTwoDemo() + """
            PRAGMA foreign_keys = ON;
            DELETE FROM movies WHERE id = 3;
            INSERT INTO movies (id, title, year, rating) VALUES (40, 'Hamlet', 1948, 7.7);
            INSERT INTO presets (id, name) VALUES (7, 'great');
            INSERT INTO preset_filters VALUES (7, 'genre', 'drama'), (7, 'rating', '5');

            """
        try box.sqlite3(script)
        let before = try box.rows("SELECT m.id, m.title, m.year, m.rating, m.duration_minutes, mg.genre_id FROM movies m LEFT JOIN movie_genres mg ON mg.movie_id = m.id ORDER BY m.id")
        #expect(try box.sql("PRAGMA user_version") == ["2"])

        let run = try box.moviecat("filter", "--preset", "great", "--format", "csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.count == 7, "\(run)")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        #expect(try box.rows("SELECT m.id, m.title, m.year, m.rating, m.duration_minutes, mg.genre_id FROM movies m LEFT JOIN movie_genres mg ON mg.movie_id = m.id ORDER BY m.id") == before)
        #expect(try box.sql("SELECT count(*) FROM preset_filters WHERE preset_id = 7") == ["2"])
        #expect(try box.sql("PRAGMA foreign_key_check") == [])
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        // The new columns and facets work on the upgraded catalog.
        #expect(try box.moviecat("save-preset", "popular", "--votes", "10k..").status == 0)
        try box.write("ids.csv", "title,year,imdb_id\nHamlet,1948,tt0040416\nHamlet,1948,tt0040417\n")
        let imported = try box.moviecat("import", "ids.csv")
        #expect(imported.reports == [ReportLine(file: "ids.csv", read: 2, inserted: 1, updated: 1)], "\(imported)")
        #expect(try box.sql("SELECT imdb_id FROM movies WHERE id = 40") == ["tt0040416"])
    }

    @Test("a version-2 catalog with a sqlite3 user's views and triggers naming the rebuilt tables upgrades; they keep working")
    func upgradesUserViews() throws {
        let box = try Sandbox()
        try box.sqlite3(try Self.versionTwoDemo() + """
            CREATE VIEW top_rated AS SELECT title, year, rating FROM movies WHERE rating >= 5;
            CREATE VIEW listed AS SELECT * FROM movie_list;
            CREATE VIEW preset_sizes AS SELECT preset_id, count(*) AS n FROM preset_filters GROUP BY preset_id;
            CREATE TABLE notes (movie_id INTEGER, note TEXT);
            CREATE TRIGGER notes_rate AFTER INSERT ON notes BEGIN UPDATE movies SET rating = 1 WHERE id = NEW.movie_id; END;

            """)
        let before = try box.rows("SELECT * FROM top_rated ORDER BY title")
        let run = try box.moviecat("filter", "--count")
        #expect(run.status == 0 && run.stdout == "13\n", "\(run)")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        #expect(try box.rows("SELECT * FROM top_rated ORDER BY title") == before)
        #expect(try box.sql("SELECT count(*) FROM listed") == ["13"])
        #expect(try box.sql("SELECT count(*) FROM preset_sizes") == ["0"])
        try box.sqlite3("INSERT INTO notes VALUES (2, 'seen');\n")
        #expect(try box.sql("SELECT rating FROM movies WHERE id = 2") == ["1.0"])
        let ones = try box.sql("SELECT count(*) FROM movies WHERE rating >= 1 AND rating < 2")
        let counted = try box.moviecat("filter", "--count", "rating:1")
        #expect(ones != ["0"] && counted.stdout == ones[0] + "\n", "\(counted)")
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
    }

    @Test("a text in two Unicode spellings (a letter and its accent, or one precomposed letter) is one movie, genre and preset")
    func canonicalSpellings() throws {
        let box = try Sandbox()
        // Decomposed in the first row and from the command line; precomposed in the second row.
        try box.write("two.csv", "title,year,genres,certification\nAme\u{301}lie,2001,Cafe\u{301} Noir,Te\u{301}\nAm\u{E9}lie,2001,Caf\u{E9} Noir,T\u{C9}\n")
        let run = try box.moviecat("import", "two.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "two.csv", read: 2, inserted: 1, repeated: 1)], "\(run)")
        // Stored composed (NFC), read as bytes: Swift's == would take either spelling for the other.
        #expect(try box.rows("SELECT hex(title), hex(certification) FROM movies") == [["416DC3A96C6965", "54C389"]])
        #expect(try box.sql("SELECT code || ' ' || hex(name) FROM genres WHERE code LIKE 'caf%'") == ["caf\u{E9}-noir 436166C3A9204E6F6972"])
        // Either spelling finds it, in a title search and in a certification.
        for title in ["me\u{301}l", "M\u{C9}L"] {
            #expect(try box.moviecat("filter", "--title", title, "--count").lines == ["1"], "\(title.unicodeScalars.map(\.value))")
        }
        #expect(try box.moviecat("filter", "--certification", "TE\u{301}", "--count").lines == ["1"])
        // add and edit compose too: the decomposed title is the stored movie.
        let add = try box.moviecat("add", "--title", "Ame\u{301}lie", "--year", "2001")
        #expect(add.status == 1 && add.errorLines.first?.contains("already in the catalog as movie 1") == true, "\(add)")
        #expect(try box.moviecat("add", "--title", "Ze\u{301}ro", "--genre", "cafe\u{301} noir").status == 0)
        #expect(try box.sql("SELECT count(*) FROM genres WHERE code LIKE 'caf%'") == ["1"])
        #expect(try box.moviecat("edit", "2", "--title", "O\u{308}dipus").status == 0)
        #expect(try box.sql("SELECT hex(title) FROM movies WHERE id = 2") == ["C3966469707573"])
        // A preset's name is stored composed and found in either spelling.
        #expect(try box.moviecat("save-preset", "Caf\u{E9}s", "--genre", "drama").status == 0)
        #expect(try box.moviecat("save-preset", "Cafe\u{301}s", "--genre", "war").status == 1)
        #expect(try box.sql("SELECT hex(name) FROM presets") == ["436166C3A973"])
    }

    @Test("upgrading a catalog composes the text stored before (version 13): the same list imported again finds its movies")
    func upgradeComposesStoredText() throws {
        let box = try Sandbox()
        try box.seed()
        // What an older moviecat stored from a decomposed list (version 12 had these tables).
        try box.sqlite3("""
            INSERT INTO movies (id, title, year, certification) VALUES (40, 'Ame\u{301}lie', 2001, 'TE\u{301}');
            INSERT INTO movies (id, title, year) VALUES (41, 'Zo\u{E9}', 1999), (42, 'Zoe\u{301}', 1999);
            INSERT INTO presets (id, name) VALUES (7, 'Cafe\u{301}');
            INSERT INTO preset_filters VALUES (7, 'title', 'ame\u{301}l'), (7, 'certification', 'TE\u{301}');
            PRAGMA user_version = 12;

            """)
        let run = try box.moviecat("filter", "--preset", "Caf\u{E9}", "--count")
        #expect(run.status == 0 && run.lines == ["1"], "\(run)")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        #expect(try box.rows("SELECT id, hex(title), hex(certification) FROM movies WHERE id >= 40 ORDER BY id") == [
            ["40", "416DC3A96C6965", "54C389"], ["41", "5A6FC3A9", ""],
            // Composed, it would be movie 41: left as stored.
            ["42", "5A6F65CC81", ""],
        ])
        #expect(try box.sql("SELECT hex(name) FROM presets WHERE id = 7") == ["436166C3A9"])
        #expect(try box.sql("SELECT facet || ' ' || hex(value) FROM preset_filters WHERE preset_id = 7 ORDER BY facet") == ["certification 54C389", "title 616DC3A96C"])
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        // The decomposed list again: the stored movie, not a new one; the title index agrees.
        try box.write("list.csv", "title,year\nAme\u{301}lie,2001\n")
        let again = try box.moviecat("import", "list.csv")
        #expect(again.reports == [ReportLine(file: "list.csv", read: 1, updated: 1)], "\(again)")
        #expect(try box.moviecat("filter", "--title", "AM\u{C9}LIE", "--count").lines == ["1"])
    }

    @Test("a catalog whose genre links a sqlite3 user left dangling still upgrades")
    func upgradesWithDanglingLinks() throws {
        let box = try Sandbox()
        let script = try Self.versionTwoDemo()
        // The shell enforces no foreign keys: the movie goes, its links stay.
        try box.sqlite3(script + "DELETE FROM movies WHERE id = 3;\n")
        #expect(try box.sql("PRAGMA foreign_key_check").count == 1)
        let run = try box.moviecat("info")
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        #expect(try box.sql("SELECT count(*) FROM movies") == ["12"])
    }
}

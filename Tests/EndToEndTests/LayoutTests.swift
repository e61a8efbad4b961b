import Foundation
import Testing

/// Real lists as they are (SPEC section 7): each known layout imported end to end, unedited,
/// and the catalog afterwards compared with what the file says; gzip; `--where` and `--layout`.
@Suite struct LayoutTests {
    /// Copies `Tests/Fixtures/layouts/NAME` into the sandbox.
    static func fixture(_ box: Sandbox, _ name: String) throws {
        try box.copyFixture("layouts/" + name)
    }

    /// title, year, rating, votes, duration, imdb_id and genre codes of every movie, by title, year and id.
    static func catalog(_ box: Sandbox, db: String? = nil) throws -> [[String]] {
        try box.rows("""
            SELECT m.title, ifnull(m.year, ''), ifnull(m.rating, ''), ifnull(m.votes, ''), ifnull(m.duration_minutes, ''),
                   ifnull(m.imdb_id, ''), (SELECT ifnull(group_concat(code, '|'), '') FROM
                       (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = m.id ORDER BY g.code))
              FROM movies m ORDER BY m.title, m.year, m.imdb_id
            """, db: db)
    }

    /// The movies and tvMovies of the basics fixture that are not adult, as the file writes them.
    static let basicsKept: [[String]] = [
        ["2001: A Space Odyssey", "1968", "", "", "149", "tt0062622", "adventure|sci-fi"],
        ["Amélie", "2001", "", "", "122", "tt0211915", "comedy|romance"],
        ["Carmen", "1915", "", "", "59", "tt0005074", "drama|romance"],
        ["Carmen", "1915", "", "", "", "tt0005078", "comedy"],
        ["Hamlet", "1948", "", "", "154", "tt0040416", "drama"],
        ["Hamlet", "1948", "", "", "", "tt0040417", "drama"],
        ["Heat", "1995", "", "", "170", "tt0113277", "action|crime|drama"],
        ["Miss Jerry", "1894", "", "", "45", "tt0000009", "romance"],
        ["Seven Samurai", "1954", "", "", "207", "tt0047478", "action|drama"],
        ["Spirited Away", "2001", "", "", "125", "tt0245429", "adventure|animation|family"],
        ["Sunset Blvd.", "1950", "", "", "110", "tt0043014", "drama|film-noir"],
        ["The American President", "1995", "", "", "114", "tt0112346", "comedy|drama|romance"],
        ["The Birth of a Nation", "1915", "", "", "195", "tt0004972", "drama|history|war"],
        ["The Godfather", "1972", "", "", "175", "tt0068646", "crime|drama"],
        ["The Shawshank Redemption", "1994", "", "", "142", "tt0111161", "drama"],
        ["Toy Story", "1995", "", "", "81", "tt0114709", "adventure|animation|comedy"],
        ["Untitled \"Project\", Part 2", "", "", "", "", "tt9999998", ""],
    ]

    @Test("IMDb title.basics: movies and TV movies kept, episodes, series, shorts, games and adult titles left out")
    func basics() throws {
        let box = try Sandbox()
        try Self.fixture(box, "title.basics.tsv")
        let run = try box.moviecat("import", "title.basics.tsv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "title.basics.tsv", read: 25, inserted: 17, filtered: 8)], "\(run)")
        #expect(run.errorLines.contains("title.basics.tsv: IMDb title.basics layout; where titleType=movie,tvMovie isAdult=0"), "\(run)")
        #expect(run.errorLines.contains("title.basics.tsv: ignored columns: originalTitle, endYear"), "\(run)")
        #expect(run.errorLines.contains("added genre 'film-noir'"), "a genre the catalog did not know is named: \(run)")
        #expect(try Self.catalog(box) == Self.basicsKept)
        #expect(try box.rows("SELECT code, name FROM genres WHERE code = 'film-noir'") == [["film-noir", "Film-Noir"]])
    }

    @Test("IMDb's other datasets (akas, crew, principals, episode, names) are skipped whole, gzipped too, as `import title.*` reads them")
    func otherIMDbDatasets() throws {
        let box = try Sandbox()
        try Self.fixture(box, "title.basics.tsv")
        // Their headers as IMDb writes them; akas has a `title` column, crew a `tconst`.
        let files: [(String, String)] = [
            ("title.akas.tsv.gz", "titleId\tordering\ttitle\tregion\tlanguage\ttypes\tattributes\tisOriginalTitle\ntt0000001\t1\tCarmencita\tUS\t\\N\timdbDisplay\t\\N\t0\n"),
            ("title.crew.tsv", "tconst\tdirectors\twriters\ntt0111161\tnm0001104\tnm0000175\n"),
            ("title.principals.tsv", "tconst\tordering\tnconst\tcategory\tjob\tcharacters\ntt0111161\t1\tnm0000209\tactor\t\\N\t[\"Andy\"]\n"),
            ("title.episode.tsv", "tconst\tparentTconst\tseasonNumber\tepisodeNumber\ntt0041951\ttt0041038\t1\t9\n"),
            ("name.basics.tsv", "nconst\tprimaryName\tbirthYear\tdeathYear\tprimaryProfession\tknownForTitles\nnm0000001\tFred Astaire\t1899\t1987\tactor\ttt0050419\n"),
        ]
        for (name, text) in files {
            _ = try box.write(name, bytes: name.hasSuffix(".gz") ? try Self.gzipped(Data(text.utf8)) : Array(text.utf8))
        }
        let run = try box.moviecat(["import"] + files.map(\.0) + ["title.basics.tsv"])
        #expect(run.status == 0, "\(run)")
        for (name, holds) in zip(files.map(\.0), ["title.akas layout: alternative titles of IMDb's titles", "title.crew layout: directors and writers",
                                                  "title.principals layout: cast and crew", "title.episode layout: episodes of series", "name.basics layout: people"]) {
            #expect(run.reports.contains(ReportLine(file: name, read: 0)), "\(name): \(run)")
            #expect(run.errorLines.contains("\(name): IMDb \(holds), not movies; skipped (--layout none reads its columns)"), "\(run)")
        }
        #expect(try Self.catalog(box) == Self.basicsKept)
        // Read as a plain list, akas' titles are titles.
        let plain = try box.moviecat("import", "title.akas.tsv.gz", "--layout", "none")
        #expect(plain.reports == [ReportLine(file: "title.akas.tsv.gz", read: 1, inserted: 1)], "\(plain)")
    }

    /// Basics then ratings: every kept movie with its rating and votes.
    static func imdbCatalog(_ box: Sandbox) throws {
        try Self.fixture(box, "title.basics.tsv")
        try Self.fixture(box, "title.ratings.tsv")
        try #require(try box.moviecat("import", "title.basics.tsv").status == 0)
        let run = try box.moviecat("import", "title.ratings.tsv")
        try #require(run.status == 0, "\(run)")
        // Ratings of a short, a series and an episode: not in the catalog, and no error.
        #expect(run.reports == [ReportLine(file: "title.ratings.tsv", read: 12, updated: 9, notInCatalog: 3)], "\(run)")
        #expect(run.errorLines.contains("title.ratings.tsv: IMDb title.ratings layout"), "\(run)")
    }

    @Test("IMDb title.ratings gives the kept movies their rating and votes, and only updates")
    func ratings() throws {
        let box = try Sandbox()
        try Self.imdbCatalog(box)
        #expect(try box.rows("SELECT imdb_id, rating, votes FROM movies WHERE rating IS NOT NULL ORDER BY imdb_id") == [
            ["tt0000009", "5.4", "230"], ["tt0005074", "6.0", "900"], ["tt0040416", "7.7", "20000"],
            ["tt0040417", "6.1", "150"], ["tt0047478", "8.6", "370000"], ["tt0062622", "8.3", "720000"],
            ["tt0068646", "9.2", "2100000"], ["tt0111161", "9.3", "3000000"], ["tt0113277", "8.3", "720000"],
        ])
        #expect(try box.scalar("SELECT count(*) FROM movies") == "17")
        // A ratings row without an id is invalid; into an empty catalog everything is 'not in catalog'.
        try box.write("bad.tsv", "tconst\taverageRating\tnumVotes\n\\N\t5.0\t10\n")
        let bad = try box.moviecat("import", "bad.tsv")
        #expect(bad.status == 65 && bad.errorLines.first == "bad.tsv:2: imdb_id: is blank", "\(bad)")
        let empty = try Sandbox()
        try Self.fixture(empty, "title.ratings.tsv")
        #expect(try empty.moviecat("import", "title.ratings.tsv").reports
                == [ReportLine(file: "title.ratings.tsv", read: 12, notInCatalog: 12)])
    }

    @Test("an IMDb export from before 2017 (its Title Type 'Feature Film', its header quoted) keeps its films")
    func oldIMDbExport() throws {
        let box = try Sandbox()
        try box.write("old.csv", """
            "position","const","created","modified","description","Title","Title type","Directors","You rated","IMDb Rating","Runtime (mins)","Year","Genres","Num. Votes","Release Date (month/day/year)","URL"
            "1","tt0111161","Mon Jan  2 00:00:00 2012","","","The Shawshank Redemption","Feature Film","Frank Darabont","10","9.3","142","1994","drama","1500000","1994-09-23","http://www.imdb.com/title/tt0111161/"
            "2","tt0903747","Mon Jan  2 00:00:00 2012","","","Breaking Bad","TV Series","","9","9.5","49","2008","crime, drama","1800000","2008-01-20","http://www.imdb.com/title/tt0903747/"
            "3","tt0387412","Mon Jan  2 00:00:00 2012","","","Grizzly Man","Documentary","Werner Herzog","8","7.8","0","2005","documentary","52000","2005-08-12","http://www.imdb.com/title/tt0387412/"

            """)
        let run = try box.moviecat("import", "old.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "old.csv", read: 3, inserted: 2, filtered: 1)], "\(run)")
        // A documentary is a film; its "Num. Votes" are votes; a runtime of 0 is none known.
        #expect(try box.rows("SELECT title, year, rating, votes, duration_minutes, imdb_id FROM movies ORDER BY id")
                == [["The Shawshank Redemption", "1994", "9.3", "1500000", "142", "tt0111161"], ["Grizzly Man", "2005", "7.8", "52000", sqlNull, "tt0387412"]])
    }

    @Test("IMDb title.basics: a runtime of 0 is none known, not a row that stops the dataset's import")
    func basicsZeroRuntime() throws {
        let box = try Sandbox()
        try box.write("basics.tsv", "tconst\ttitleType\tprimaryTitle\toriginalTitle\tisAdult\tstartYear\tendYear\truntimeMinutes\tgenres\n"
            + "tt0000001\tmovie\tUntimed\tUntimed\t0\t1999\t\\N\t0\tDrama\ntt0000002\tmovie\tTimed\tTimed\t0\t2000\t\\N\t90\t\\N\n"
            + "tt0000003\tmovie\tZeros\tZeros\t0\t2001\t\\N\t00\t\\N\n")
        let run = try box.moviecat("import", "basics.tsv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "basics.tsv", read: 3, inserted: 3)], "\(run)")
        #expect(try box.rows("SELECT title, duration_minutes FROM movies ORDER BY id") == [["Untimed", sqlNull], ["Timed", "90"], ["Zeros", sqlNull]])
        // Elsewhere a 0-minute movie is still refused.
        try box.write("plain.csv", "title,duration\nZero,0\n")
        #expect(try box.moviecat("import", "plain.csv").status == 65)
    }

    @Test("an IMDb export, then basics, then ratings, then the same again: the re-import inserts nothing")
    func identityAcrossIMDbFiles() throws {
        let box = try Sandbox()
        try Self.fixture(box, "imdb-ratings-export.csv")
        let export = try box.moviecat("import", "imdb-ratings-export.csv")
        #expect(export.reports == [ReportLine(file: "imdb-ratings-export.csv", read: 6, inserted: 4, filtered: 2)], "\(export)")
        #expect(export.errorLines.contains("imdb-ratings-export.csv: IMDb list export layout; where Title Type=movie,tvMovie,TV Movie,Feature Film,Documentary,Film"), "\(export)")
        #expect(export.errorLines.contains("imdb-ratings-export.csv: ignored columns: Your Rating, Date Rated, Original Title, URL, Release Date, Directors"), "\(export)")
        #expect(try box.rows("SELECT title, year, rating, votes, duration_minutes, imdb_id FROM movies WHERE imdb_id = 'tt0068646'")
                == [["The Godfather", "1972", "9.2", "2100000", "175", "tt0068646"]])
        #expect(try box.sql("SELECT group_concat(g.code) FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id JOIN movies m ON m.id = mg.movie_id WHERE m.imdb_id = 'tt0088850'")
                == ["action,adventure,family"], "a TV Movie spelled the new way is kept; 'Action, Adventure, Family' splits")
        try Self.imdbCatalog(box)
        // Two export movies are in basics (updated there), two are not (Die Hard, The Last Starfighter).
        #expect(try box.scalar("SELECT count(*) FROM movies") == "19")
        let before = try Self.catalog(box)
        for file in ["imdb-ratings-export.csv", "title.basics.tsv", "title.ratings.tsv"] {
            let again = try box.moviecat("import", file)
            #expect(again.status == 0 && again.report(file)?.inserted == 0, "\(again)")
        }
        #expect(try Self.catalog(box) == before, "re-importing the same lists changes nothing")
    }

    @Test("IMDb's list export keeps movies and TV movies, and its own columns")
    func listExport() throws {
        let box = try Sandbox()
        try Self.fixture(box, "imdb-list-export.csv")
        let run = try box.moviecat("import", "imdb-list-export.csv")
        #expect(run.reports == [ReportLine(file: "imdb-list-export.csv", read: 3, inserted: 2, filtered: 1)], "\(run)")
        #expect(try Self.catalog(box) == [
            ["Seven Samurai", "1954", "8.6", "370000", "207", "tt0047478", "action|drama"],
            ["The Last Starfighter", "1984", "6.8", "45000", "101", "tt0088850", "action|adventure|family"],
        ])
    }

    @Test("--where replaces a layout's default for its column spelled any way the names compare: any case, `_` as a space",
          arguments: ["Title Type", "title_type", "TITLE_TYPE", "title type"])
    func whereSpelledAsNames(_ column: String) throws {
        let box = try Sandbox()
        try Self.fixture(box, "imdb-list-export.csv")
        let all = try box.moviecat("import", "imdb-list-export.csv", "--where", "\(column)=*", "--dry-run")
        #expect(all.reports == [ReportLine(file: "imdb-list-export.csv", read: 3, inserted: 3)], "\(all)")
        #expect(!all.stderr.contains("where "), "the lifted default is not in force: \(all)")
        let series = try box.moviecat("import", "imdb-list-export.csv", "--where", "\(column)=tv series,tvSeries")
        #expect(series.reports == [ReportLine(file: "imdb-list-export.csv", read: 3, inserted: 1, filtered: 2)], "\(series)")
        #expect(series.errorLines.contains("imdb-list-export.csv: IMDb list export layout; where Title Type=tv series,tvSeries"), "\(series)")
    }

    @Test("Letterboxd into an IMDb catalog: matched rows update, new rows insert, the ambiguous row is rejected")
    func letterboxd() throws {
        let box = try Sandbox()
        try Self.imdbCatalog(box)
        try Self.fixture(box, "letterboxd-diary.csv")
        let failed = try box.moviecat("import", "letterboxd-diary.csv")
        #expect(failed.status == 65, "\(failed)")
        let run = try box.moviecat("import", "letterboxd-diary.csv", "--skip-invalid")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "letterboxd-diary.csv", read: 4, inserted: 1, updated: 2, rejected: 1)], "\(run)")
        #expect(run.errorLines.contains("letterboxd-diary.csv:3: title: ambiguous: movies 5 (tt0040416) and 6 (tt0040417) have this title and year; an imdb_id column tells them apart"), "\(run)")
        #expect(run.errorLines.contains("letterboxd-diary.csv: ignored columns: Date, Letterboxd URI, Rating, Rewatch, Tags, Watched Date"), "\(run)")
        // The user's own stars are not the movie's rating.
        #expect(try box.rows("SELECT title, year, rating, imdb_id FROM movies WHERE title IN ('Heat', 'The Godfather', 'Past Lives') ORDER BY title")
                == [["Heat", "1995", "8.3", "tt0113277"], ["Past Lives", "2023", sqlNull, sqlNull], ["The Godfather", "1972", "9.2", "tt0068646"]])
        try Self.fixture(box, "letterboxd-watched.csv")
        let watched = try box.moviecat("import", "letterboxd-watched.csv")
        #expect(watched.reports == [ReportLine(file: "letterboxd-watched.csv", read: 2, inserted: 1, updated: 1)], "\(watched)")
        #expect(try box.sql("SELECT title FROM movies WHERE year = 2000") == ["Crouching Tiger, Hidden Dragon"])
    }

    @Test("a Letterboxd list export: the list's own lines before the films' header are passed over; its films merge with the others")
    func letterboxdList() throws {
        let box = try Sandbox()
        try Self.fixture(box, "letterboxd-watched.csv")
        #expect(try box.moviecat("import", "letterboxd-watched.csv").status == 0)
        try Self.fixture(box, "letterboxd-list.csv")
        let run = try box.moviecat("import", "letterboxd-list.csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.reports == [ReportLine(file: "letterboxd-list.csv", read: 3, inserted: 1, updated: 2)], "\(run)")
        #expect(run.errorLines.contains("letterboxd-list.csv: Letterboxd list export layout"), "\(run)")
        #expect(run.errorLines.contains("letterboxd-list.csv: ignored columns: Position, URL, Description"), "\(run)")
        #expect(try box.rows("SELECT title, year FROM movies ORDER BY title") == [["Amélie", "2001"], ["Crouching Tiger, Hidden Dragon", "2000"], ["Spirited Away", "2001"]])
        // Imported again: nothing new.
        #expect(try box.moviecat("import", "letterboxd-list.csv").reports == [ReportLine(file: "letterboxd-list.csv", read: 3, updated: 3)])
        // A problem names the file's own line (the list's lines and a review's line break counted).
        try box.write("bad-list.csv", "Letterboxd list export v7\nDate,Name,Tags,URL,Description\n2024-01-14,L,,u,\n\nPosition,Name,Year,URL,Description\n1,\"Two\nLines\",20x1,u,\n")
        let bad = try box.moviecat("import", "bad-list.csv")
        #expect(bad.errorLines.first == "bad-list.csv:6: year: '20x1' is not a whole number", "\(bad)")
        // A description of many lines before the films' header is read past.
        try box.write("long.csv", "Letterboxd list export v7\nDate,Name,Tags,URL,Description\n2024-01-14,L,,u,\"" + String(repeating: "line\n", count: 40) + "end\"\n\nPosition,Name,Year,URL,Description\n1,Long Film,1999,u,\n")
        #expect(try box.moviecat("import", "long.csv").reports == [ReportLine(file: "long.csv", read: 1, inserted: 1)])
        // Cut short before the films' header: said so.
        try box.write("cut.csv", "Letterboxd list export v7\nDate,Name,Tags,URL,Description\n")
        let cut = try box.moviecat("import", "cut.csv")
        #expect(cut.status == 65 && cut.errorLines.last == "moviecat: error: cut.csv:1: a Letterboxd list export without the films' header (Position,Name,Year,URL) in the records after it", "\(cut)")
    }

    @Test("--layout none reads plain aliases only; --layout forces one; an unknown one is a usage error")
    func layoutOption() throws {
        let box = try Sandbox()
        try Self.fixture(box, "movies.csv")
        let plain = try box.moviecat("import", "movies.csv", "--layout", "none")
        #expect(plain.status == 0, "\(plain)")
        #expect(!plain.stderr.contains("layout"), "\(plain)")
        #expect(try box.sql("SELECT title FROM movies WHERE id = 1") == ["Toy Story (1995)"])
        let unknown = try box.moviecat("import", "movies.csv", "--layout", "movielense")
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'movielens'?"), "\(unknown)")
        let forced = try Sandbox()
        try forced.write("list.csv", "Name,Year,Rating\nHeat,1995,4\n")
        let run = try forced.moviecat("import", "list.csv", "--layout", "letterboxd")
        #expect(run.status == 0 && run.errorLines.contains("list.csv: Letterboxd export layout"), "\(run)")
        #expect(try forced.rows("SELECT title, year, rating FROM movies") == [["Heat", "1995", sqlNull]])
        // A forced layout whose columns the input lacks says which (it said "no title column").
        try forced.write("plain.csv", "title,year\nA,1990\n")
        for (layout, columns) in [("imdb-basics", "'tconst', 'titleType', 'primaryTitle'"), ("letterboxd", "'Name', 'Letterboxd URI'"),
                                  ("imdb-ratings", "'tconst', 'averageRating', 'numVotes'")] {
            let wrong = try forced.moviecat("import", "plain.csv", "--layout", layout)
            #expect(wrong.status == 65, "\(wrong)")
            #expect(wrong.errorLines.last == "moviecat: error: plain.csv:1: --layout \(layout) reads the columns \(columns), which this input lacks; the columns are 'title', 'year'", "\(wrong)")
        }
    }

    @Test("--where: values OR-ed, columns AND-ed, any case; COLUMN=* lifts a layout default; --map wins")
    func whereOption() throws {
        let box = try Sandbox()
        try Self.fixture(box, "title.basics.tsv")
        let shorts = try box.moviecat("import", "title.basics.tsv", "--where", "TITLETYPE=Short,tvSeries", "--dry-run")
        #expect(shorts.reports == [ReportLine(file: "title.basics.tsv", read: 25, inserted: 2, filtered: 23)], "\(shorts)")
        #expect(shorts.errorLines.contains("title.basics.tsv: IMDb title.basics layout; where isAdult=0 titleType=Short,tvSeries"), "\(shorts)")
        let adult = try box.moviecat("import", "title.basics.tsv", "--where", "isAdult=*", "--where", "titleType=movie", "--dry-run")
        #expect(adult.report("title.basics.tsv")?.inserted == 17, "\(adult)")
        let repeated = try box.moviecat("import", "title.basics.tsv", "--where", "titleType=tvEpisode", "--where", "titletype=videoGame", "--dry-run")
        #expect(repeated.report("title.basics.tsv")?.inserted == 4, "\(repeated)")
        let everything = try box.moviecat("import", "title.basics.tsv", "--where", "titleType=*", "--where", "isAdult=*", "--map", "title=originalTitle")
        #expect(everything.reports == [ReportLine(file: "title.basics.tsv", read: 25, inserted: 25)], "\(everything)")
        #expect(try box.sql("SELECT title FROM movies WHERE imdb_id = 'tt0047478'") == ["Shichinin no samurai"])

        let missing = try box.moviecat("import", "title.basics.tsv", "--where", "kind=movie")
        #expect(missing.status == 65, "\(missing)")
        #expect(missing.errorLines.last?.hasPrefix("moviecat: error: title.basics.tsv:1: --where kind: no column 'kind'; the columns are 'tconst', 'titleType'") == true, "\(missing)")
        let bad = try box.moviecat("import", "title.basics.tsv", "--where", "titleType")
        #expect(bad.status == 64, "\(bad)")
        // `*` on a column the input lacks is named too: a typo would lift nothing.
        let typo = try box.moviecat("import", "title.basics.tsv", "--where", "titel_type=*", "--dry-run")
        #expect(typo.status == 65 && typo.errorLines.last?.hasPrefix("moviecat: error: title.basics.tsv:1: --where titel_type=*: no column 'titel_type'; the columns are 'tconst', 'titleType'") == true, "\(typo)")
    }

    @Test("--where on JSON keys; rows left out are never validated")
    func whereJSON() throws {
        let box = try Sandbox()
        try box.write("list.jsonl", """
            {"title": "Kept", "kind": "Movie", "year": 2001}
            {"title": "Bad but left out", "kind": "episode", "year": 99999}
            {"title": "No kind", "year": 2002}

            """)
        let run = try box.moviecat("import", "list.jsonl", "--where", "KIND=movie")
        #expect(run.reports == [ReportLine(file: "list.jsonl", read: 3, inserted: 1, filtered: 2)], "\(run)")
        #expect(run.errorLines.contains("list.jsonl: where KIND=movie"), "\(run)")
        #expect(!run.stderr.contains("kind"), "a --where key is not an ignored one: \(run)")
        let missing = try box.moviecat("import", "list.jsonl", "--where", "genre=x")
        #expect(missing.status == 65 && missing.stderr.contains("no record has the key 'genre'"), "\(missing)")
    }

    @Test("a gzipped list imports as the plain one does, from a file and from standard input", arguments: ["file", "stdin"])
    func gzip(_ source: String) throws {
        let plain = try Sandbox()
        try Self.fixture(plain, "title.basics.tsv")
        try #require(try plain.moviecat("import", "title.basics.tsv").status == 0)
        let box = try Sandbox()
        let bytes = try Self.gzipped(try Data(contentsOf: fixturesDirectory.appendingPathComponent("layouts/title.basics.tsv")))
        try #require(bytes.starts(with: [0x1F, 0x8B]))
        let run: Run
        if source == "file" {
            try box.write("title.basics.tsv.gz", bytes: bytes)
            run = try box.moviecat("import", "title.basics.tsv.gz")
            #expect(run.report("title.basics.tsv.gz")?.inserted == 17, "\(run)")
        } else {
            run = try runProcess(moviecatBinary, ["--db", box.db, "import", "--format", "tsv", "-"], stdin: Data(bytes))
            #expect(run.report("-")?.inserted == 17, "\(run)")
        }
        #expect(run.status == 0, "\(run)")
        #expect(try Self.catalog(box) == Self.catalog(plain))
    }

    @Test("a truncated or corrupt .gz exits 65 naming the file and leaves the catalog unchanged", arguments: ["truncated", "corrupt"])
    func brokenGzip(_ kind: String) throws {
        let box = try Sandbox()
        try box.seed()
        var bytes = try Self.gzipped(try Data(contentsOf: fixturesDirectory.appendingPathComponent("layouts/title.basics.tsv")))
        if kind == "truncated" { bytes.removeLast(bytes.count / 2) } else { for i in 40..<80 { bytes[i] ^= 0x5A } }
        try box.write("title.basics.tsv.gz", bytes: bytes)
        let before = try box.dump()
        let run = try box.moviecat("import", "title.basics.tsv.gz")
        #expect(run.status == 65, "\(run)")
        #expect(run.errorLines.last?.hasPrefix("moviecat: error: title.basics.tsv.gz: \(kind == "truncated" ? "truncated" : "corrupt") gzip data") == true, "\(run)")
        #expect(try box.dump() == before)
    }

    /// The bytes `gzip` makes of some data (through a temporary file: stdout here is text).
    static func gzipped(_ data: Data) throws -> [UInt8] {
        let scratch = try Sandbox()
        let path = scratch.path("data")
        try data.write(to: URL(fileURLWithPath: path))
        let run = try runProcess(URL(fileURLWithPath: "/bin/gzip"), ["-f", path])
        try #require(run.status == 0, "\(run)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
    }
}

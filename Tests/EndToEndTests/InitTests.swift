import Foundation
import Testing
import TestSupport

/// `init`: where the catalog goes, the schema sqlite3 sees, the demo movies, and the sqlite3-shell path.
@Suite struct InitTests {
    @Test("init creates the catalog and its missing parent directories")
    func createsParentDirectories() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["--db", "dir/sub/x.sqlite", "init"], directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.isEmpty, "init prints nothing on stdout: \(run)")
        let path = box.path("dir/sub/x.sqlite")
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try box.sql("SELECT count(*) FROM movies", db: path) == ["0"])
    }

    @Test("the binary links neither Foundation nor Dispatch (they add milliseconds and megabytes to every start)")
    func leanBinary() throws {
        let ldd = try #require(Tools.find("ldd"), "ldd not found")
        let run = try runProcess(URL(fileURLWithPath: ldd), [moviecatBinary.path])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("libsqlite3"), "\(run)")
        for library in ["libFoundation", "libswiftDispatch"] {
            #expect(!run.stdout.contains(library), "moviecat links \(library)")
        }
    }

    @Test("the schema has the tables, the view, the latest version and WAL")
    func schema() throws {
        let box = try Sandbox()
        #expect(try box.moviecat("init").status == 0)
        let tables = try box.sqlite3(".tables\n").stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        // movie_titles is an FTS5 table: its own tables (movie_titles_*) come with it.
        #expect(Set(tables.filter { !$0.hasPrefix("movie_titles_") })
                == ["genres", "movie_facet_totals", "movie_facets", "movie_genres", "movie_list", "movie_stale", "movie_title_exceptions", "movie_titles",
                    "movies", "preset_filters", "presets"])
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"])
        let codes = Set(try box.sql("SELECT code FROM genres"))
        let standard: Set = ["action", "adventure", "animation", "comedy", "crime", "documentary", "drama", "family",
                             "fantasy", "horror", "musical", "mystery", "romance", "sci-fi", "short", "thriller",
                             "war", "western"]
        #expect(standard.isSubset(of: codes), "missing: \(standard.subtracting(codes))")
        #expect(try box.sql("SELECT name FROM genres WHERE code = 'sci-fi'") == ["Sci-Fi"])
    }

    @Test("deleting a movie with sqlite3 cascades to its movie_genres rows")
    func foreignKeysCascade() throws {
        let box = try Sandbox()
        try box.seed()
        let id = try #require(try box.sql("SELECT id FROM movies WHERE title = 'Aquaman'").first)
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = \(id)") == ["1"])
        try box.sqlite3("PRAGMA foreign_keys = ON;\nDELETE FROM movies WHERE id = \(id);\n")
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = \(id)") == ["0"])
        #expect(try box.sql("SELECT count(*) FROM movie_genres") == ["12"])
    }

    @Test("init --seed loads exactly the 13 demo movies")
    func seedRows() throws {
        let box = try Sandbox()
        let run = try box.moviecat("init", "--seed")
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["13"])
        #expect(try box.sql("SELECT count(*) FROM movie_genres") == ["13"])
        let rows = try box.sql("""
            SELECT m.title, m.year, m.rating, m.duration_minutes, g.code
              FROM movies m JOIN movie_genres mg ON mg.movie_id = m.id JOIN genres g ON g.id = mg.genre_id
             WHERE m.title IN ('Aquaman', 'Seven Samurai', '2001: A Space Odyssey', 'Forrest Gump', '50 Shades of Grey')
             ORDER BY m.title
            """)
        #expect(rows == [
            "2001: A Space Odyssey|1968|5.0|180|drama",
            "50 Shades of Grey|2015|1.0|120|drama",
            "Aquaman|2018|4.0|180|action",
            "Forrest Gump|1994|5.0|120|comedy",
            "Seven Samurai|1954|3.0|60|action",
        ])
        #expect(try box.sql("SELECT count(*) FROM movies WHERE title LIKE '%Oddysey%'") == ["0"], "the app's typo is fixed")
        #expect(try box.sql("SELECT genres FROM movie_list WHERE title = 'Taken'") == ["Drama"])
    }

    @Test("seeding twice does not duplicate anything")
    func seedTwice() throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.dump()
        let again = try box.moviecat("init", "--seed")
        #expect(again.status == 0, "\(again)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["13"])
        #expect(try box.sql("SELECT count(*) FROM movie_genres") == ["13"])
        #expect(try box.dump() == before)
    }

    @Test("$MOVIECAT_DB names the catalog when --db is absent")
    func environmentVariable() throws {
        let box = try Sandbox()
        let env = ["MOVIECAT_DB": box.path("env/cat.sqlite"), "XDG_DATA_HOME": box.path("xdg")]
        let run = try runProcess(moviecatBinary, ["init", "--seed"], environment: env, directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies", db: box.path("env/cat.sqlite")) == ["13"])
        #expect(!FileManager.default.fileExists(atPath: box.path("xdg")), "XDG is not used when MOVIECAT_DB is set")
        let count = try runProcess(moviecatBinary, ["filter", "--count"], environment: env, directory: box.dir)
        #expect(count.status == 0 && count.stdout == "13\n", "\(count)")
    }

    @Test("a path starting file: is the file of that name, not a SQLite URI", arguments: ["file:cat.sqlite", "file:cat.sqlite?mode=memory", "file:sub/x.sqlite"])
    func fileNamesAreNotURIs(_ path: String) throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["--db", path, "init", "--seed"], directory: box.dir)
        #expect(run.status == 0, "\(run)")
        // The file as named holds the catalog (read by sqlite3 through a plain ./ path).
        #expect(try box.sql("SELECT count(*) FROM movies", db: box.path(path)) == ["13"])
        #expect(!FileManager.default.fileExists(atPath: box.path("cat.sqlite")), "SQLite took the name for a URI")
        let count = try runProcess(moviecatBinary, ["--db", path, "filter", "--count"], directory: box.dir)
        #expect(count.status == 0 && count.stdout == "13\n", "\(count)")
    }

    @Test("':memory:' as the catalog path is refused (73): what a command stored there would be gone when it ends", arguments: [true, false])
    func memoryIsRefused(_ flag: Bool) throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, (flag ? ["--db", ":memory:"] : []) + ["init", "--seed"],
                                 environment: flag ? [:] : ["MOVIECAT_DB": ":memory:"], directory: box.dir)
        #expect(run.status == 73, "\(run)")
        #expect(run.errorLines == ["moviecat: error: the catalog path ':memory:' is SQLite's name for a database in memory, gone when the command ends; give a file path (./:memory: names a file)"], "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: box.dir.path).isEmpty)
    }

    @Test("--db wins over $MOVIECAT_DB")
    func flagBeatsEnvironment() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["--db", box.db, "init"],
                                 environment: ["MOVIECAT_DB": box.path("env.sqlite")], directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: box.db))
        #expect(!FileManager.default.fileExists(atPath: box.path("env.sqlite")))
    }

    @Test("without --db or $MOVIECAT_DB the catalog is $XDG_DATA_HOME/moviecat/catalog.sqlite")
    func xdgDefault() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["init", "--seed"],
                                 environment: ["XDG_DATA_HOME": box.path("xdg"), "HOME": box.path("home")],
                                 directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies", db: box.path("xdg/moviecat/catalog.sqlite")) == ["13"])
        #expect(!FileManager.default.fileExists(atPath: box.path("home")))
    }

    @Test("without XDG_DATA_HOME the catalog is ~/.local/share/moviecat/catalog.sqlite")
    func homeDefault() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["init"],
                                 environment: ["XDG_DATA_HOME": "", "HOME": box.path("home")], directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: box.path("home/.local/share/moviecat/catalog.sqlite")))
    }

    // The XDG rules ignore a relative XDG_DATA_HOME; a relative HOME would put the catalog
    // wherever one stands (it did: ./.local/share, or /.local/share for an empty HOME).
    @Test("a relative XDG_DATA_HOME is ignored, and a relative HOME is not used")
    func relativeLocations() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["init"],
                                 environment: ["XDG_DATA_HOME": "relative/x", "HOME": box.path("home")], directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(FileManager.default.fileExists(atPath: box.path("home/.local/share/moviecat/catalog.sqlite")))
        #expect(!FileManager.default.fileExists(atPath: box.path("relative")))
    }

    @Test("moviecat closes the catalog on every way out: no -wal or -shm file is left beside it", arguments: [
        (["init", "--seed"], 0), (["import", "ok.csv"], 0), (["import", "bad.csv"], 65),
        (["filter", "--genre", "nosuch"], 64), (["facets"], 0),
    ] as [([String], Int32)])
    func closesCatalog(_ arguments: [String], _ status: Int32) throws {
        let box = try Sandbox()
        try box.write("ok.csv", "title,year,genres\nOne,2001,drama|war\nTwo,2002,comedy\n")
        try box.write("bad.csv", "title,year\nOne,99999\n")
        #expect(try box.moviecat("init").status == 0)
        let run = try box.moviecat(arguments)
        #expect(run.status == status, "\(run)")
        let left = try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.hasPrefix("catalog.sqlite") }
        #expect(left == ["catalog.sqlite"], "\(left)")
    }

    @Test("a version-1 catalog is migrated to the latest version on first use, its movies kept")
    func upgradesVersionOne() throws {
        let box = try Sandbox()
        let first = packageRoot.appendingPathComponent("Migrations/0001_initial.sql")
        try box.sqlite3(try String(contentsOf: first, encoding: .utf8)
            + "INSERT INTO movies (title, year) VALUES ('Heat', 1995);\n")
        #expect(try box.sql("SELECT count(*) FROM sqlite_master WHERE name = 'movies_facets'") == ["1"])
        let run = try box.moviecat("filter", "--year", "1995", "--format", "csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Heat,1995"), "\(run)")
        #expect(run.stderr == "moviecat: upgrading the catalog from schema version 1 to \(latestSchemaVersion) (once; a large catalog takes a while)\n")
        #expect(try box.moviecat("filter", "--year", "1995", "--count").stderr.isEmpty, "said once")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        #expect(try box.sql("SELECT count(*) FROM sqlite_master WHERE name = 'movies_facets'") == ["0"])
        #expect(try box.sql("SELECT title FROM movies") == ["Heat"])
        #expect(try box.sql("SELECT count(*) FROM sqlite_master WHERE name = 'movies_imdb_id'") == ["1"])
    }

    @Test("sqlite3 < migrations then < seed.sql gives the same catalog as init --seed")
    func shellPathMatches() throws {
        let box = try Sandbox()
        try box.seed()
        let shellDB = box.path("shell.sqlite")
        let migrations = try FileManager.default
            .contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Migrations").path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        try #require(migrations.first?.hasPrefix("0001_") == true, "\(migrations)")
        for file in migrations + ["seed.sql"] {
            let url = file == "seed.sql" ? packageRoot.appendingPathComponent(file)
                : packageRoot.appendingPathComponent("Migrations").appendingPathComponent(file)
            let run = try runProcess(sqlite3Binary, ["-batch", "-bail", shellDB], stdin: try Data(contentsOf: url))
            try #require(run.status == 0 && run.stderr.isEmpty, "sqlite3 < \(file): \(run)")
        }
        let queries = [
            ".schema",
            "PRAGMA user_version;",
            "SELECT * FROM movie_list ORDER BY id;",
            "SELECT id, title, year, rating, duration_minutes, certification FROM movies ORDER BY id;",
            "SELECT * FROM genres ORDER BY id;",
            "SELECT * FROM movie_genres ORDER BY movie_id, genre_id;",
            "SELECT count(*) FROM presets;",
        ]
        for query in queries {
            let ours = try box.sqlite3(query + "\n").stdout
            let theirs = try box.sqlite3(query + "\n", db: shellDB).stdout
            #expect(ours == theirs, "\(query) differs")
            #expect(!ours.isEmpty, "\(query) printed nothing")
        }
    }
}

import Foundation
import Testing

/// `add`, `remove ID...` and `info`, checked through the sqlite3 shell.
@Suite struct MovieCommandTests {
    /// A movie row as the sqlite3 shell prints it: title|year|rating|duration_minutes|certification.
    static func row(_ box: Sandbox, id: String) throws -> String? {
        try box.sql("SELECT title, year, rating, duration_minutes, certification FROM movies WHERE id = \(id)").first
    }

    static func genreCodes(_ box: Sandbox, id: String) throws -> [String] {
        try box.sql("SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = \(id) ORDER BY g.code")
    }

    // MARK: - add

    @Test("add with every field stores a trimmed title, upper-cased certification and all genres; stdout is the id")
    func addEveryField() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("add", "--title", "  Heat  ", "--year", "1995", "--genre", "crime",
                                   "--genre", "Drama,thriller", "--rating", "8.3", "--duration", "2h50m",
                                   "--certification", "pg-13")
        #expect(run.status == 0, "\(run)")
        let id = run.stdout.trimmingCharacters(in: .newlines)
        #expect(run.stdout == id + "\n" && Int(id) != nil, "stdout should be the new id only: \(run)")
        #expect(try box.sql("SELECT max(id), count(*) FROM movies") == ["\(id)|14"])
        #expect(try Self.row(box, id: id) == "Heat|1995|8.3|170|PG-13")
        #expect(try Self.genreCodes(box, id: id) == ["crime", "drama", "thriller"])
        #expect(try box.sql("SELECT genres FROM movie_list WHERE id = \(id)").count == 1)
    }

    @Test("add with only a title leaves the other columns null; a new genre is added to the catalogue")
    func addMinimalAndNewGenre() throws {
        let box = try Sandbox()
        let bare = try box.moviecat("add", "--title", "Untitled")
        #expect(bare.status == 0, "\(bare)")
        let bareID = bare.stdout.trimmingCharacters(in: .newlines)
        #expect(try box.sql("SELECT quote(year), quote(rating), quote(duration_minutes), quote(certification) FROM movies WHERE id = \(bareID)")
                == ["NULL|NULL|NULL|NULL"])
        #expect(try Self.genreCodes(box, id: bareID).isEmpty)

        let genres = try box.sql("SELECT count(*) FROM genres").first
        let run = try box.moviecat("add", "--title", "Funny Ha Ha", "--year", "2002", "--genre", "Mumblecore,comedy")
        #expect(run.status == 0, "\(run)")
        let id = run.stdout.trimmingCharacters(in: .newlines)
        #expect(try Self.genreCodes(box, id: id) == ["comedy", "mumblecore"])
        #expect(try box.sql("SELECT name FROM genres WHERE code = 'mumblecore'") == ["Mumblecore"])
        #expect(try box.sql("SELECT count(*) FROM genres").first == genres.map { String(Int($0)! + 1) })
    }

    struct DurationCase: Sendable, CustomStringConvertible {
        let text: String, minutes: Int
        var description: String { "--duration \(text)" }
    }

    @Test("add accepts the importer's duration forms", arguments: [
        DurationCase(text: "2h50m", minutes: 170), DurationCase(text: "95", minutes: 95),
        DurationCase(text: "2h", minutes: 120), DurationCase(text: "1h 30m", minutes: 90),
        DurationCase(text: "1:30:00", minutes: 90),
    ])
    func addDuration(_ c: DurationCase) throws {
        let box = try Sandbox()
        let run = try box.moviecat("add", "--title", "Timed", "--duration", c.text)
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT duration_minutes FROM movies WHERE title = 'Timed'") == ["\(c.minutes)"], "\(run)")
    }

    @Test("adding an existing title and year, in any case, exits 1 naming the existing id")
    func addDuplicate() throws {
        let box = try Sandbox()
        try box.seed()
        let id = try #require(try box.sql("SELECT id FROM movies WHERE title = 'Forrest Gump'").first)
        let before = try box.snapshot()
        for title in ["Forrest Gump", "FORREST GUMP", "  forrest gump "] {
            let run = try box.moviecat("add", "--title", title, "--year", "1994", "--rating", "9")
            #expect(run.status == 1, "\(title): \(run)")
            #expect(run.stdout.isEmpty, "\(run)")
            #expect(run.stderr.contains("moviecat: error:") && run.stderr.contains(id), "should name movie \(id): \(run)")
        }
        #expect(try box.snapshot() == before, "a refused add changed the catalog")
        // A missing year is one value of the natural key too.
        #expect(try box.moviecat("add", "--title", "No Year").status == 0)
        let again = try box.moviecat("add", "--title", "no year")
        #expect(again.status == 1, "\(again)")
        // Another year is another movie.
        #expect(try box.moviecat("add", "--title", "Forrest Gump", "--year", "2094").status == 0)
    }

    struct InvalidCase: Sendable, CustomStringConvertible {
        let arguments: [String], flag: String
        var description: String { arguments.joined(separator: " ") }
    }

    @Test("invalid values exit 64 naming the flag and write nothing", arguments: [
        InvalidCase(arguments: ["--title", "X", "--rating", "11"], flag: "--rating"),
        InvalidCase(arguments: ["--title", "X", "--rating", "good"], flag: "--rating"),
        InvalidCase(arguments: ["--title", "X", "--year", "1500"], flag: "--year"),
        InvalidCase(arguments: ["--title", "X", "--year", "soon"], flag: "--year"),
        InvalidCase(arguments: ["--title", "X", "--duration", "0"], flag: "--duration"),
        InvalidCase(arguments: ["--title", "X", "--duration", "long"], flag: "--duration"),
        InvalidCase(arguments: ["--title", "   "], flag: "--title"),
        InvalidCase(arguments: ["--year", "2000"], flag: "--title"),
    ])
    func addInvalid(_ c: InvalidCase) throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.snapshot()
        let run = try box.moviecat(["add"] + c.arguments)
        #expect(run.status == 64, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(run.stderr.contains("moviecat: error:") && run.stderr.contains(c.flag), "\(run)")
        #expect(try box.snapshot() == before)
    }

    // MARK: - remove

    @Test("remove ID... removes the movies and their movie_genres rows")
    func remove() throws {
        let box = try Sandbox()
        try box.seed()
        let ids = try box.sql("SELECT id FROM movies WHERE title IN ('Aquaman', 'Taken') ORDER BY id")
        try #require(ids.count == 2)
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id IN (\(ids.joined(separator: ",")))") == ["2"])
        let run = try box.moviecat(["remove"] + ids)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.isEmpty, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["11"])
        #expect(try box.sql("SELECT count(*) FROM movies WHERE id IN (\(ids.joined(separator: ",")))") == ["0"])
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id IN (\(ids.joined(separator: ",")))") == ["0"])
        #expect(try box.sql("SELECT count(*) FROM movie_genres") == ["11"])
        #expect(try box.sql("PRAGMA foreign_key_check").isEmpty)
    }

    @Test("remove of thousands of movies in one command leaves the title index, facet rows and counts exact")
    func removeMany() throws {
        let box = try Sandbox()
        let rows = (1...3_000).map { "Movie \($0) of Ages,\(1950 + $0 % 60),\($0 % 2 == 0 ? "drama" : "comedy|western"),\(Double($0 % 100) / 10)" }
        try box.write("many.csv", "title,year,genres,rating\n" + rows.joined(separator: "\n") + "\n")
        #expect(try box.moviecat("import", box.path("many.csv")).status == 0)
        let removed = try box.sql("SELECT id FROM movies WHERE id % 3 <> 0 ORDER BY id")
        let run = try box.moviecat(["remove"] + removed + [removed[0]])   // an id twice
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["1000"])
        #expect(try box.sql("SELECT count(*) FROM movie_facets") == ["1000"])
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id % 3 <> 0") == ["0"])
        #expect(try box.sql("PRAGMA foreign_key_check").isEmpty)
        // The title index finds what LIKE finds; counts and facets agree with SQL over movies.
        for text in ["ovie 1", "of ages", "ie 29"] {
            let like = try box.sql("SELECT count(*) FROM movies WHERE title LIKE '%\(text)%'")
            #expect(try box.moviecat("filter", "--count", "title:\(text)").lines == like, "\(text)")
        }
        let westerns = try box.sql("SELECT count(*) FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE g.code = 'western'")
        #expect(try box.moviecat("filter", "--count", "genre:western").lines == westerns)
        #expect(try box.moviecat("facets", "--format", "json").stdout.contains("{\"value\":\"western\",\"count\":\(westerns[0])"))
    }

    @Test("remove with a missing id exits 1 naming it and removes nothing")
    func removeAllOrNone() throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.snapshot()
        let run = try box.moviecat("remove", "3", "9999", "4")
        #expect(run.status == 1, "\(run)")
        #expect(run.errorLines == ["moviecat: error: no movie with id 9999"], "\(run)")
        #expect(try box.snapshot() == before, "remove was not all-or-none")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE id IN (3, 4)") == ["2"])
        // Of several missing ids, the first given.
        #expect(try box.moviecat("remove", "9998", "3", "9999").errorLines == ["moviecat: error: no movie with id 9998"])

        let bad = try box.moviecat("remove", "three")
        #expect(bad.status == 64 && bad.errorLines.last == "moviecat: error: 'three' is not a movie id", "\(bad)")
        let none = try box.moviecat("remove")
        #expect(none.status == 64, "\(none)")
        #expect(try box.snapshot() == before)
    }

    // MARK: - info

    /// `label: value` lines of info.
    static func infoFields(_ run: Run) -> [String: String] {
        var fields: [String: String] = [:]
        for line in run.lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test("info prints the path, the schema version, the SQLite version and the counts")
    func info() throws {
        let box = try Sandbox()
        try box.seed()
        #expect(try box.moviecat("save-preset", "dramas", "--genre", "drama").status == 0)
        let run = try box.moviecat("info")
        #expect(run.status == 0, "\(run)")
        let fields = Self.infoFields(run)
        #expect(fields["catalog"] == box.db || run.stdout.contains(box.db), "path missing: \(run)")
        #expect(fields["schema version"] == latestSchemaVersion, "\(run)")
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        let version = try box.sql("SELECT sqlite_version()").first
        #expect(fields["sqlite version"] == version, "\(run)")
        #expect(fields["movies"] == "13", "\(run)")
        #expect(fields["genres"] == (try box.sql("SELECT count(*) FROM genres").first), "\(run)")
        #expect(fields["presets"] == "1", "\(run)")
    }

    @Test("info names the catalog by its whole path, given a relative one")
    func infoWholePath() throws {
        let box = try Sandbox()
        let run = try runProcess(moviecatBinary, ["--db", "sub/../rel.sqlite", "info"], directory: box.dir)
        try FileManager.default.createDirectory(atPath: box.path("sub"), withIntermediateDirectories: true)
        let again = try runProcess(moviecatBinary, ["--db", "sub/../rel.sqlite", "info"], directory: box.dir)
        let real = try #require(realpath(box.dir.path, nil))
        defer { free(real) }
        #expect(run.status == 0 && Self.infoFields(run)["catalog"] == String(cString: real) + "/rel.sqlite", "\(run)")
        #expect(again.status == 0 && Self.infoFields(again)["catalog"] == String(cString: real) + "/rel.sqlite", "\(again)")
    }

    @Test("info on a new path creates an empty, migrated catalog")
    func infoFresh() throws {
        let box = try Sandbox()
        let path = box.path("nested/dir/new.sqlite")
        let run = try runProcess(moviecatBinary, ["--db", path, "info"])
        #expect(run.status == 0, "\(run)")
        let fields = Self.infoFields(run)
        #expect(run.stdout.contains(path), "\(run)")
        #expect(fields["movies"] == "0" && fields["presets"] == "0" && fields["schema version"] == latestSchemaVersion, "\(run)")
        #expect(Int(fields["genres"] ?? "") ?? 0 >= 18, "the standard catalogue: \(run)")
    }
}

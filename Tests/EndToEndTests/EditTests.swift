import Foundation
import Testing

/// `edit` (SPEC section 4), and the order every command keeps: parse, check, open, run.
@Suite struct EditTests {
    /// The demo catalog: Aquaman is movie 2, Batman v Superman 3, Taken 12.
    static func demo() throws -> Sandbox {
        let box = try Sandbox()
        try box.seed()
        return box
    }

    @Test("edit sets fields, clears them with an empty value, and changes all ids in one go")
    func setsAndClears() throws {
        let box = try Self.demo()
        let run = try box.moviecat("edit", "2", "3", "--rating", "6.5", "--votes", "12k..", "--certification", "pg-13")
        #expect(run.status == 64, "votes take a count, not a filter range: \(run)")
        let ok = try box.moviecat("edit", "2", "3", "--rating", "6.5", "--votes", "12000", "--certification", "pg-13",
                                  "--imdb", "https://www.imdb.com/title/tt1477834/")
        #expect(ok.status == 1, "two movies cannot share one IMDb id: \(ok)")
        #expect(ok.errorLines.last == "moviecat: error: movie 3 cannot take IMDb id tt1477834: movie 2 'Aquaman' (2018), tt1477834 has it", "\(ok)")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE imdb_id IS NOT NULL OR votes IS NOT NULL") == ["0"], "nothing changed")
        // `12k` is the count 12,000, as filters read it.
        let both = try box.moviecat("edit", "2", "3", "--rating", "6.5", "--votes", "12k", "--certification", "pg-13")
        #expect(both.status == 0, "\(both)")
        #expect(try box.rows("SELECT id, rating, votes, certification FROM movies WHERE id IN (2, 3) ORDER BY id")
                == [["2", "6.5", "12000", "PG-13"], ["3", "6.5", "12000", "PG-13"]])
        let clear = try box.moviecat("edit", "3", "--rating", "", "--certification=", "--year", "2016-03-25")
        #expect(clear.status == 0, "\(clear)")
        #expect(try box.rows("SELECT rating, certification, year FROM movies WHERE id = 3") == [[sqlNull, sqlNull, "2016"]])
    }

    @Test("N/A, none, null and their kin are no value in add and edit, as in an import: a copy through a file keeps them", arguments: ["N/A", "none", "#N/A"])
    func nullWords(_ word: String) throws {
        let box = try Self.demo()
        let add = try box.moviecat("add", "--title", "N/A", "--year", "2000", "--certification", word, "--genre", "\(word),drama", "--rating", word)
        #expect(add.status == 0, "\(add)")
        #expect(try box.rows("SELECT title, ifnull(certification, '-'), ifnull(rating, '-') FROM movies WHERE id = 14") == [["N/A", "-", "-"]])
        #expect(try box.sql("SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = 14") == ["drama"])
        #expect(try box.moviecat("edit", "2", "--certification", "pg-13").status == 0)
        #expect(try box.moviecat("edit", "2", "--certification", word).status == 0)
        #expect(try box.sql("SELECT ifnull(certification, '-') FROM movies WHERE id = 2") == ["-"])
    }

    @Test("a value-taking option is not given the next option for its value: --title --count says the value is missing")
    func optionNotAValue() throws {
        let box = try Self.demo()
        for arguments in [["filter", "--title", "--count"], ["save-preset", "tt", "--title", "--replace"], ["add", "--title", "--year", "2000"],
                          ["filter", "--title", "-h"], ["filter", "--title", "--bogus"], ["filter", "--title", "--db"], ["filter", "--title", "--"]] {
            let run = try box.moviecat(arguments)
            #expect(run.status == 64 && run.errorLines.last?.hasPrefix("moviecat: error: missing value for '--title <") == true, "\(run)")
        }
        let written = try box.moviecat("filter", "--title=--count", "--count")
        #expect(written.status == 0 && written.stdout == "0\n", "\(written)")
    }

    @Test("--genre replaces, --add-genre and --remove-genre adjust; a new genre is named with the closest known one")
    func genres() throws {
        let box = try Self.demo()
        let added = try box.moviecat("edit", "12", "--add-genre", "Thriller,dramma")
        #expect(added.status == 0, "\(added)")
        #expect(added.errorLines.contains("added genre 'dramma' (did you mean 'drama'?)"), "\(added)")
        #expect(try box.sql("SELECT group_concat(g.code, ',') FROM (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = 12 ORDER BY g.code) g")
                == ["drama,dramma,thriller"])
        #expect(try box.moviecat("edit", "12", "--remove-genre", "dramma", "--remove-genre", "Drama").status == 0)
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 12") == ["1"])
        #expect(try box.moviecat("edit", "12", "--genre", "action", "--genre", "war").status == 0)
        #expect(try box.sql("SELECT group_concat(genre_id) FROM movie_genres WHERE movie_id = 12 ORDER BY genre_id").count == 1)
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 12") == ["2"])
        let unknown = try box.moviecat("edit", "12", "--remove-genre", "westrn")
        #expect(unknown.status == 64 && unknown.stderr.contains("did you mean 'western'?"), "\(unknown)")
    }

    @Test("an edit that would give two movies one title and year, or a missing id, exits 1 and changes nothing", arguments: [
        (["edit", "2", "--title", "taken", "--year", "2008"], "movie 2 would have the title and year of movie 12 'Taken' (2008)"),
        (["edit", "2", "99", "--rating", "1"], "no movie with id 99"),
        (["edit", "2", "3", "--title", "Same", "--year", "2000"], "movie 3 would have the title and year of movie 2 'Same' (2000)"),
    ])
    func conflicts(_ arguments: [String], _ message: String) throws {
        let box = try Self.demo()
        let before = try box.dump()
        let run = try box.moviecat(arguments)
        #expect(run.status == 1, "\(run)")
        #expect(run.errorLines.last == "moviecat: error: \(message)", "\(run)")
        #expect(try box.dump() == before)
    }

    @Test("as add: an edit may not give a movie without an IMDb id the title and year of one with an id, nor the reverse; two ids may share them")
    func identityAgainstIMDbIDs() throws {
        let box = try Sandbox()
        try box.initEmpty()
        for arguments in [["Heat", "1995", "tt0113277"], ["Heet", "1995"], ["Hamlet", "1948", "tt0040416"], ["Hamlet", "1948", "tt0040417"], ["Other", "1948"]] {
            let add = try box.moviecat(["add", "--title", arguments[0], "--year", arguments[1]] + (arguments.count > 2 ? ["--imdb", arguments[2]] : []))
            #expect(add.status == 0, "\(add)")
        }
        let before = try box.dump()
        for (arguments, message) in [(["edit", "2", "--title", "heat"], "movie 2 would have the title and year of movie 1 'Heat' (1995), tt0113277"),
                                     (["edit", "4", "--imdb", ""], "movie 4 would have the title and year of movie 3 'Hamlet' (1948), tt0040416"),
                                     (["edit", "1", "--title", "other", "--year", "1948"], "movie 1 would have the title and year of movie 5 'Other' (1948)"),
                                     (["edit", "5", "--title", "Hamlet"], "movie 5 would have the title and year of movie 3 'Hamlet' (1948), tt0040416")] {
            let run = try box.moviecat(arguments)
            #expect(run.status == 1 && run.errorLines.last == "moviecat: error: \(message)", "\(run)")
        }
        #expect(try box.dump() == before)
        // Another id is another film of that title and year; an edit of something else leaves a pair be.
        #expect(try box.moviecat("edit", "1", "--title", "Hamlet", "--year", "1948", "--imdb", "tt0040418").status == 0)
        #expect(try box.moviecat("edit", "3", "--rating", "7").status == 0)
    }

    @Test("values are checked like add's", arguments: [
        (["edit", "2", "--year", "1700"], "--year: '1700' is outside 1870..2100"),
        (["edit", "2", "--title", " "], "--title: a title cannot be empty"),
        (["edit", "2"], "nothing to change"),
        (["edit", "x", "--rating", "1"], "'x' is not a movie id"),
        (["edit", "--rating", "1"], "missing movie id"),
        (["edit", "2", "--add-genre", ""], "moviecat: error: empty value for '--add-genre'"),
        (["edit", "2", "--remove-genre", ""], "moviecat: error: empty value for '--remove-genre'"),
        (["edit", "2", "--add-genre", "Film Noir,war", "--remove-genre", "film-noir"], "moviecat: error: --add-genre and --remove-genre both name 'Film Noir'"),
    ])
    func invalid(_ arguments: [String], _ message: String) throws {
        let box = try Self.demo()
        let run = try box.moviecat(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(run.stderr.contains(message), "\(run)")
        #expect(run.stderr.contains("See 'moviecat edit --help'."), "\(run)")
    }

    @Test("a command with bad arguments exits 64 and creates no catalog", arguments: [
        ["filter", "--limit", "ten"], ["filter", "--genre", "dramma"], ["filter", "year:99999999999999999999"],
        ["filter", "--preset", "nosuch"], ["facets", "--format", "xml"], ["save-preset", "x", "--rating", "11..2"],
        ["add", "--title", "X", "--year", "3000"], ["edit", "1", "--rating", "11"], ["import", "--where", "x"],
        ["import", "nothere.csv"], ["import", "x.csv", "--layout", "imdb"], ["presets", "show"], ["presets", "frob"],
        ["remove", "1"], ["edit", "1", "--rating", "5"], ["presets", "delete", "x"],
    ])
    func nothingCreated(_ arguments: [String]) throws {
        let box = try Sandbox()
        let db = box.path("sub/dir/new.sqlite")
        try box.write("x.csv", "title\nX\n")
        let run = try runProcess(moviecatBinary, ["--db", db] + arguments, directory: box.dir)
        #expect([1, 64, 66].contains(run.status), "\(run)")
        #expect(run.errorLines.contains { $0.hasPrefix("moviecat: error: ") }, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: box.path("sub")), "\(arguments) created \(db)")
    }

    @Test("presets actions have their own options and help")
    func presetActions() throws {
        let box = try Self.demo()
        let show = try box.moviecat("presets", "show", "--help")
        #expect(show.status == 0 && show.stdout.contains("USAGE: moviecat presets show <name> [--sql]"), "\(show)")
        let wrong = try box.moviecat("presets", "list", "--sql")
        #expect(wrong.status == 64 && wrong.stderr.contains("unknown option '--sql'"), "\(wrong)")
        #expect(wrong.stderr.contains("See 'moviecat presets list --help'."), "\(wrong)")
        let frob = try box.moviecat("presets", "shw", "x")
        #expect(frob.status == 64 && frob.stderr.contains("Did you mean 'show'?"), "\(frob)")
        let group = try box.moviecat("help", "presets")
        #expect(group.stdout.contains("SUBCOMMANDS:") && group.stdout.contains("  rename"), "\(group)")
        #expect(try box.moviecat("presets", "--format", "json").stdout == "[]\n")
    }
}

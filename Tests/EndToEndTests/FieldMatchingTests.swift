import Foundation
import Testing

/// Which column or key feeds which field (SPEC section 4, import): the aliases, sheets' own
/// names, `--map`, a list without titles, a year written after the title.
@Suite struct FieldMatchingTests {
    struct AliasCase: Sendable, CustomStringConvertible {
        let header: [String]
        var description: String { header.joined(separator: ",") }
    }

    @Test("aliases match case-insensitively", arguments: [
        AliasCase(header: ["primaryTitle", "startYear", "genre", "averageRating", "runtimeMinutes", "mpaa"]),
        AliasCase(header: ["PRIMARYTITLE", "STARTYEAR", "GENRE", "AVERAGERATING", "RUNTIMEMINUTES", "MPAA"]),
        AliasCase(header: ["Title", "release_year", "Genres", "imdb_rating", "runtime", "certificate"]),
        AliasCase(header: ["title", "Year", "genres", "Score", "length", "Rated"]),
        AliasCase(header: [" Title ", "YEAR", "genres", "rating", "Duration_Minutes", "Certification"]),
    ])
    func aliases(_ c: AliasCase) throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.write("aliased.csv", c.header.joined(separator: ",") + "\nAliased,1999,Drama|Crime,8.5,135,pg-13\n")
        let run = try box.moviecat("import", "aliased.csv")
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("ignored"), "no column is ignored: \(run)")
        #expect(try box.movieRows() == [["Aliased", "1999", "8.5", "135", "PG-13", "crime|drama"]])
    }

    @Test("a sheet's own names: Film, Release Date, Genre(s), IMDb Rating, IMDb Votes, Running Time, Content Rating, IMDb URL")
    func sheetAliases() throws {
        let box = try Sandbox()
        try box.write("sheet.csv", "Film,Release Date,Genre(s),IMDb Rating,IMDb Votes,Running Time,Content Rating,IMDb URL\n"
                      + "Heat,1995-12-15,\"Crime, Drama\",8.3,\"720,000\",170,R,https://www.imdb.com/title/tt0113277/\n")
        let run = try box.moviecat("import", "sheet.csv")
        #expect(run.status == 0 && !run.stderr.contains("ignored"), "\(run)")
        #expect(try box.movieRows() == [["Heat", "1995", "8.3", "170", "R", "crime|drama"]])
        #expect(try box.rows("SELECT votes, imdb_id FROM movies") == [["720000", "tt0113277"]])
    }

    @Test("'name' is no title outside Letterboxd's layout (SPEC 4), in a sheet or in JSON: the error offers --map title=name")
    func nameIsNoTitle() throws {
        let box = try Sandbox()
        try box.write("people.csv", "Person,name,age\nBob,Bob Smith,40\n")
        let people = try box.moviecat("import", "people.csv")
        #expect(people.status == 65 && people.errorLines.last == "moviecat: error: people.csv:1: no title column (title, primaryTitle, film or movie, or use --map title=name); the columns are 'Person', 'name', 'age'", "\(people)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["0"])
        try box.write("both.csv", "Name,Title,Year\nList owner,Heat,1995\n")
        let both = try box.moviecat("import", "both.csv")
        #expect(both.status == 0 && both.errorLines.contains("both.csv: ignored columns: Name"), "\(both)")
        #expect(try box.sql("SELECT title FROM movies ORDER BY id") == ["Heat"])
        // `movie` names a sheet's title column; in JSON an object so named holds the record.
        try box.write("nested.json", #"[{"name": "Alice", "movie": {"title": "Alien", "year": 1979}, "watched": "2024-01-01"}]"#)
        let nested = try box.moviecat("import", "nested.json")
        #expect(nested.status == 65 && nested.errorLines.last == "moviecat: error: nested.json: no record has a title key (title, primaryTitle, film or movie, or use --map title=movie.title); the first record's are 'name', 'movie.title', 'movie.year', 'watched'", "\(nested)")
        #expect(try box.moviecat("import", "nested.json", "--map", "title=movie.title", "--map", "year=movie.year").status == 0)
        #expect(try box.rows("SELECT title, year FROM movies WHERE id = 2") == [["Alien", "1979"]])
        // JSON's `name` is offered, not read unasked.
        try box.write("named.jsonl", #"{"name": "Heat", "year": 1995}"# + "\n")
        let named = try box.moviecat("import", "named.jsonl")
        #expect(named.status == 65 && named.errorLines.last == "moviecat: error: named.jsonl: no record has a title key (title, primaryTitle, film or movie, or use --map title=name); the first record's are 'name', 'year'", "\(named)")
        // A Notion-style sheet's Name, read as the title when asked; Released is no year.
        try box.write("notion.csv", "Name,Movie,Released,Year\nRonin,Yes,Yes,1998\n")
        let notion = try box.moviecat("import", "notion.csv", "--map", "title=Name")
        #expect(notion.status == 0 && notion.errorLines.contains("notion.csv: ignored columns: Movie, Released"), "\(notion)")
        #expect(try box.rows("SELECT title, year FROM movies WHERE id = 3") == [["Ronin", "1998"]])
    }

    @Test("a list with IMDb ids and no title column updates what the catalog has, and says so")
    func updateOnlySaid() throws {
        let box = try Sandbox()
        try box.write("ids.csv", "imdb_id,rating,Director\ntt0113277,8.3,Michael Mann\n")
        let run = try box.moviecat("import", "ids.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "ids.csv", read: 1, notInCatalog: 1)], "\(run)")
        #expect(run.errorLines.contains("ids.csv: no title column: updates the movies the catalog has by IMDb id (--map title=COLUMN adds movies)"), "\(run)")
        // A sheet's `Name` beside its IMDb links is offered as the title, in a sheet and in JSON.
        try box.write("named.csv", "Name,IMDb\nHeat,tt0113277\n")
        let named = try box.moviecat("import", "named.csv")
        #expect(named.status == 0 && named.errorLines.contains("named.csv: no title column: updates the movies the catalog has by IMDb id (--map title=Name adds movies)"), "\(named)")
        try box.write("named.jsonl", #"{"name": "Heat", "imdb": "tt0113277"}"# + "\n")
        let json = try box.moviecat("import", "named.jsonl")
        #expect(json.status == 0 && json.errorLines.contains("named.jsonl: no title column: updates the movies the catalog has by IMDb id (--map title=name adds movies)"), "\(json)")
        #expect(try box.moviecat("import", "named.csv", "--map", "title=Name").reports == [ReportLine(file: "named.csv", read: 1, inserted: 1)])
    }

    @Test("without a year column, a title's trailing (1995) is the year; with one, or in a known layout's list, the title stays")
    func yearAfterTitle() throws {
        let box = try Sandbox()
        try box.write("t.csv", "Movie,Runtime\nHeat (1995),170\n1917 (2019) ,119\nAmélie (Le Fabuleux Destin d'Amélie Poulain),122\nSpace (3001),90\n")
        #expect(try box.moviecat("import", "t.csv").status == 0)
        try box.write("t.jsonl", "{\"title\": \"Alien (1979)\"}\n{\"title\": \"Aliens (1986)\", \"year\": null}\n")
        #expect(try box.moviecat("import", "t.jsonl").status == 0)
        try box.write("y.csv", "title,year\nHamlet (1948),\nHeat (1995),1995\n")
        #expect(try box.moviecat("import", "y.csv").status == 0)
        #expect(try box.rows("SELECT title, ifnull(year, '-') FROM movies ORDER BY id") == [
            ["Heat", "1995"], ["1917", "2019"], ["Amélie (Le Fabuleux Destin d'Amélie Poulain)", "-"], ["Space (3001)", "-"],
            ["Alien", "1979"], ["Aliens (1986)", "-"], ["Hamlet (1948)", "-"], ["Heat (1995)", "1995"]])
        // `--map year=` says there is no year: the title stays whole.
        try box.write("n.csv", "Movie\nRonin (1998)\n")
        #expect(try box.moviecat("import", "n.csv", "--map", "year=").status == 0)
        #expect(try box.sql("SELECT ifnull(year, '-') FROM movies WHERE title = 'Ronin (1998)'") == ["-"])
    }

    @Test("--map field=column reads a field from any column, and wins over the aliases")
    func mapOverrides() throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.write("list.csv", "Name,Released,title,Stars\nMapped,1999,Not This,4.5\n")
        let run = try box.moviecat("import", "list.csv", "--map", "title=Name", "--map", "year=Released", "--map=rating=stars")
        #expect(run.status == 0, "\(run)")
        #expect(try box.movieRows() == [["Mapped", "1999", "4.5", sqlNull, sqlNull, ""]])
        #expect(run.stderr.contains("ignored columns: title"), "the unmapped title column is ignored: \(run)")

        let bad = try box.moviecat("import", "list.csv", "--map", "plot=Name")
        #expect(bad.status == 64 && bad.stderr.contains("plot=Name"), "\(bad)")
        // `field=` reads the field from no column: a list's own Rating is its owner's stars.
        try box.write("mine.csv", "title,year,rating\nMine,2003,2\n")
        let none = try box.moviecat("import", "mine.csv", "--map", "rating=")
        #expect(none.status == 0 && none.errorLines.contains("mine.csv: ignored columns: rating"), "\(none)")
        #expect(try box.rows("SELECT title, rating FROM movies WHERE title = 'Mine'") == [["Mine", sqlNull]])
    }

    @Test("--where names a column as fields are named: any case, _ as a space", arguments: ["csv", "jsonl"])
    func whereFolded(_ format: String) throws {
        let box = try Sandbox()
        let text = format == "csv" ? "Series_Title,Released_Year,Content_Type\nHeat,1995,Movie\nLost,2004,TV Show\n"
            : #"{"Series_Title": "Heat", "Released_Year": 1995, "Content_Type": "Movie"}"# + "\n" + #"{"Series_Title": "Lost", "Released_Year": 2004, "Content_Type": "TV Show"}"# + "\n"
        let file = try box.write("list.\(format)", text)
        let run = try box.moviecat("import", file, "--where", "content type=Movie")
        #expect(run.status == 0 && run.reports == [ReportLine(file: file, read: 2, inserted: 1, filtered: 1)], "\(run)")
        #expect(try box.rows("SELECT title, year FROM movies") == [["Heat", "1995"]])
    }

    @Test("--map and --where read the column named exactly as given, though one differing in case comes first", arguments: ["csv", "tsv"])
    func exactColumnNames(_ format: String) throws {
        let box = try Sandbox()
        let sep = format == "csv" ? "," : "\t"
        let file = try box.write("dup.\(format)", ["title,year,kind,YEAR,Kind", "A,2000,tv,1999,movie", "B,2001,movie,1998,tv", ""]
            .map { $0.replacingOccurrences(of: ",", with: sep) }.joined(separator: "\n"))
        let run = try box.moviecat("import", file, "--map", "year=YEAR", "--where", "Kind=movie")
        #expect(run.status == 0, "\(run)")
        #expect(try box.rows("SELECT title, year FROM movies") == [["A", "1999"]])
        #expect(run.errorLines.contains("\(file): ignored columns: year (column 2; column 4 is read), kind"), "\(run)")
    }
}

import Foundation
import Testing
import TestSupport

/// `filter` output: the five formats, paging and sorting, `--count`, `--explain`, empty results.
@Suite struct OutputFormatTests {
    static let header = ["id", "title", "year", "genres", "rating", "votes", "duration_minutes", "certification", "imdb_id"]
    /// The seed's titles in the default order (title ignoring case, then year).
    static let titles = [
        "2001: A Space Odyssey", "50 Shades of Grey", "A Man Called Ahok", "Aquaman", "Batman v Superman",
        "Bohemian Rhapsody", "Forrest Gump", "La La Land", "Seven Samurai", "Taken", "The Godfather",
        "The Godfather Part II", "The Wolf of Wall Street",
    ]

    /// The JSON objects of a `--format json` run.
    static func jsonArray(_ run: Run) throws -> [[String: Any]] {
        let value = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(value as? [[String: Any]], "not an array of objects: \(run.stdout)")
    }

    /// The titles of a `--format csv` run (titles here hold no commas).
    static func csvTitles(_ run: Run) -> [String] {
        ((try? CSV.rows(run.stdout)) ?? []).map { $0["title"] ?? "?" }
    }

    @Test("csv has the header row and one line per movie")
    func csv() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "csv")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.first == Self.header.joined(separator: ","))
        #expect(run.lines.count == 14)
        #expect(Self.csvTitles(run) == Self.titles)
        #expect(run.lines.contains { $0.hasSuffix(",Aquaman,2018,action,4.0,,180,,") },
                "\(run.stdout)")
        #expect(!run.stderr.contains("error"), "\(run)")
    }

    @Test("tsv has the header row with tabs")
    func tsv() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "tsv", "--genre", "action")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.first == Self.header.joined(separator: "\t"))
        let rows = run.lines.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.map { $0.count } == [9, 9, 9])
        #expect(rows.map { $0[1] } == ["Aquaman", "Batman v Superman", "Seven Samurai"])
        #expect(rows.map { $0[3] } == ["action", "action", "action"])
    }

    @Test("json is an array of objects with the documented keys and genres as codes")
    func json() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "json")
        #expect(run.status == 0, "\(run)")
        let objects = try Self.jsonArray(run)
        #expect(objects.count == 13)
        for object in objects { #expect(Set(object.keys) == Set(Self.header), "\(object)") }
        #expect(objects.compactMap { $0["title"] as? String } == Self.titles)
        let aquaman = try #require(objects.first { $0["title"] as? String == "Aquaman" })
        #expect(aquaman["genres"] as? [String] == ["action"])
        #expect(aquaman["year"] as? Int == 2018)
        #expect(aquaman["rating"] as? Double == 4)
        #expect(aquaman["duration_minutes"] as? Int == 180)
        #expect(aquaman["certification"] is NSNull)
        let ids = try box.sql("SELECT id FROM movies WHERE title = 'Aquaman'")
        #expect(ids == ["\(aquaman["id"] as? Int ?? -1)"])
    }

    @Test("jsonl has one JSON object per line")
    func jsonl() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "jsonl")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasSuffix("\n"))
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 13)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object.map { Set($0.keys) } == Set(Self.header), "\(line)")
            #expect(object?["genres"] is [String], "\(line)")
        }
    }

    @Test("genres whose codes begin with a mark are listed apart, not joined to the code before them")
    func genresBeginningWithMarks() throws {
        let box = try Sandbox()
        // U+093F (a vowel sign, a spacing mark) makes a slug of its own; `|` and it form one character.
        let added = try box.moviecat("add", "--title", "Vowel Test", "--genre", "drama", "--genre", "\u{93F}x")
        #expect(added.status == 0, "\(added)")
        let run = try box.moviecat("filter", "--format", "json")
        let genres = try Self.jsonArray(run).first?["genres"] as? [String]
        #expect(genres?.count == 2 && genres?.contains("drama") == true, "\(run.stdout)")
    }

    @Test("table has a header row and its count goes to stderr")
    func table() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "table")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.first?.hasPrefix("ID  Title") == true, "\(run)")
        for column in ["Year", "Genres", "Rating", "Duration", "Certification"] {
            #expect(run.lines.first?.contains(column) == true, "\(column) missing: \(run)")
        }
        #expect(run.lines.count == 14)
        #expect(run.errorLines == ["13 movies"], "\(run)")
        #expect(!run.stdout.contains("13 movies"))
        #expect(try box.moviecat("filter").stdout == run.stdout, "table is the default format")
    }

    @Test("table prints durations like 2h 10m")
    func tableDurations() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("one.csv", "title,year,genres,rating,duration,certification\nLong One,2001,Drama,7.5,130,pg-13\n")
        #expect(try box.moviecat("import", "one.csv").status == 0)
        let run = try box.moviecat("filter", "--title", "long one")
        let row = try #require(run.lines.last)
        #expect(row.contains("2h 10m") && row.contains("PG-13") && row.contains("7.5"), "\(run)")
        #expect(try box.moviecat("filter", "--title", "Aquaman").lines.last?.contains("3h") == true)
    }

    @Test("a csv title with a comma and quotes is quoted as RFC 4180")
    func csvQuoting() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("odd.csv", """
            title,year,genres,rating,duration,certification
            "Say ""Hi"", World",2000,Drama|Comedy,7.5,130,pg-13

            """)
        let imported = try box.moviecat("import", "odd.csv")
        #expect(imported.status == 0, "\(imported)")
        #expect(try box.sql("SELECT title, certification FROM movies WHERE year = 2000") == ["Say \"Hi\", World|PG-13"])
        let run = try box.moviecat("filter", "--format", "csv", "--year", "2000")
        let id = try #require(try box.sql("SELECT id FROM movies WHERE year = 2000").first)
        #expect(run.lines == [Self.header.joined(separator: ","),
                              "\(id),\"Say \"\"Hi\"\", World\",2000,comedy|drama,7.5,,130,PG-13,"], "\(run)")
        let json = try Self.jsonArray(try box.moviecat("filter", "--format", "json", "--year", "2000"))
        #expect(json.first?["title"] as? String == "Say \"Hi\", World")
        #expect(json.first?["genres"] as? [String] == ["comedy", "drama"])
    }

    @Test("--sort rating --desc --limit 3")
    func sortDescLimit() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--format", "csv", "--sort", "rating", "--desc", "--limit", "3")
        #expect(run.status == 0, "\(run)")
        #expect(Self.csvTitles(run) == ["2001: A Space Odyssey", "A Man Called Ahok", "Bohemian Rhapsody"])
        let lowest = try box.moviecat("filter", "--format", "csv", "--sort", "rating", "--limit", "2")
        #expect(Self.csvTitles(lowest) == ["50 Shades of Grey", "Batman v Superman"])
        let years = try box.moviecat("filter", "--format", "csv", "--sort", "year", "--limit", "2")
        #expect(Self.csvTitles(years) == ["Seven Samurai", "2001: A Space Odyssey"])
    }

    @Test("--offset skips movies, with and without --limit")
    func offset() throws {
        let box = try Sandbox()
        try box.seed()
        let page = try box.moviecat("filter", "--format", "csv", "--limit", "2", "--offset", "1")
        #expect(Self.csvTitles(page) == Array(Self.titles[1...2]), "\(page)")
        let tail = try box.moviecat("filter", "--format", "csv", "--offset", "11")
        #expect(Self.csvTitles(tail) == Array(Self.titles[11...]), "\(tail)")
        let past = try box.moviecat("filter", "--format", "csv", "--offset", "50")
        #expect(past.status == 0 && past.lines == [Self.header.joined(separator: ",")], "\(past)")
    }

    @Test("--count prints just the number")
    func count() throws {
        let box = try Sandbox()
        try box.seed()
        let all = try box.moviecat("filter", "--count")
        #expect(all.status == 0 && all.stdout == "13\n", "\(all)")
        let action = try box.moviecat("filter", "--genre", "action", "--count")
        #expect(action.stdout == "3\n", "\(action)")
        let none = try box.moviecat("filter", "--genre", "western", "--count")
        #expect(none.status == 0 && none.stdout == "0\n", "\(none)")
    }

    @Test("--explain prints SQL with ? placeholders, the bound values and the query plan")
    func explain() throws {
        let box = try Sandbox()
        try box.seed()
        let evil = "x' OR 1=1 --"
        let run = try box.moviecat("filter", "--title", evil, "--year", "1994", "--explain")
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let sqlStart = try #require(lines.firstIndex { $0.hasPrefix("SQL") }, "\(run)")
        let plan = try #require(lines.firstIndex { $0.contains("QUERY PLAN") }, "\(run)")
        let bindings = lines.firstIndex { $0.uppercased().hasPrefix("BINDINGS") || $0.uppercased().hasPrefix("VALUES") }
            ?? plan
        let sqlText = lines[sqlStart..<bindings].joined(separator: "\n")
        #expect(sqlText.contains("SELECT") && sqlText.contains("?"), "\(run)")
        #expect(!sqlText.contains("OR 1=1"), "user text spliced into SQL: \(sqlText)")
        #expect(!sqlText.contains("1994"), "user value spliced into SQL: \(sqlText)")
        let values = lines[bindings..<plan].joined(separator: "\n")
        // The title may be bound in lower case (a phrase for the title index).
        #expect(values.lowercased().contains("or 1=1") && values.contains("1994"), "bound values missing: \(run)")
        #expect(plan + 1 < lines.count, "empty query plan: \(run)")
        #expect(!run.stdout.contains("Aquaman"), "explain prints no movies")
    }

    struct EmptyCase: Sendable, CustomStringConvertible {
        let format: String
        let stdout: String?
        var description: String { "empty result as \(format)" }
    }

    // A page (--limit, --offset) is listed by another statement than the whole set; the table
    // then asks which columns the page has values for: an empty page exited 70 once.
    @Test("an empty result exits 0", arguments: [
        EmptyCase(format: "csv", stdout: "id,title,year,genres,rating,votes,duration_minutes,certification,imdb_id\n"),
        EmptyCase(format: "tsv", stdout: "id\ttitle\tyear\tgenres\trating\tvotes\tduration_minutes\tcertification\timdb_id\n"),
        EmptyCase(format: "json", stdout: nil),
        EmptyCase(format: "jsonl", stdout: ""),
        EmptyCase(format: "table", stdout: ""),
    ], [["--genre", "western"], ["--genre", "western", "--limit", "5"], ["--limit", "0"], ["--offset", "13"],
        ["--sort", "rating", "--offset", "20", "--limit", "3"]])
    func emptyResult(_ c: EmptyCase, selection: [String]) throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat(["filter"] + selection + ["--format", c.format])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stderr.contains("error"), "\(run)")
        if let expected = c.stdout { #expect(run.stdout == expected, "\(run)") }
        if c.format == "json" { #expect(try Self.jsonArray(run).isEmpty) }
        if c.format == "table" { #expect(run.errorLines == ["0 movies"], "\(run)") }
    }
}

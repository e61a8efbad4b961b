import Foundation
import Testing

/// What a sqlite3 user adds to the catalog's tables, honoured or named: their triggers see every
/// row an import writes, their constraints refuse writes with exit 65, a column they renamed
/// stops moviecat with exit 73, never an "internal error".
@Suite struct SQLiteUserTests {
    @Test("a user's triggers on movies and movie_genres (the names as they typed them) see every imported row, a large import too, and a RAISE aborts it whole")
    func userTriggers() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("""
            CREATE TABLE audit (what TEXT);
            CREATE TRIGGER audit_movies AFTER INSERT ON Movies BEGIN INSERT INTO audit VALUES ('movie ' || NEW.title); END;
            CREATE TRIGGER audit_links AFTER INSERT ON MOVIE_GENRES BEGIN INSERT INTO audit VALUES ('link'); END;

            """)
        // 3,000 rows into 13 movies: a bulk load, were it not for the triggers.
        try box.write("big.csv", ResourceLimitTests.bigCSV(rows: 3_000))
        let run = try box.moviecat("import", "big.csv")
        #expect(run.status == 0 && run.reports == [ReportLine(file: "big.csv", read: 3_000, inserted: 3_000)], "\(run)")
        #expect(try box.sql("SELECT count(*) FROM audit WHERE what LIKE 'movie %'") == ["3000"])
        #expect(try box.sql("SELECT count(*) FROM audit WHERE what = 'link'") == ["6000"])
        try box.sqlite3("CREATE TRIGGER banned BEFORE INSERT ON movies WHEN NEW.title = 'Banned 42' BEGIN SELECT RAISE(ABORT, 'Banned 42 is banned'); END;\n")
        let before = try box.dump()
        try box.write("banned.csv", "title\n" + (0..<3_000).map { "Banned \($0)\n" }.joined())
        let banned = try box.moviecat("import", "banned.csv")
        #expect(banned.status == 65 && banned.errorLines.last == "moviecat: error: banned.csv:44: the catalog refused the row: Banned 42 is banned (a constraint or trigger added to the catalog's tables, not moviecat's); nothing was imported", "\(banned)")
        #expect(try box.dump() == before)
    }

    @Test("a user's unique index, RAISE or reference to movies refuses a write with exit 65 naming it, not exit 70", arguments: [
        ("CREATE UNIQUE INDEX one_title ON movies (title);", ["add", "--title", "Taken", "--year", "2012"], "UNIQUE constraint failed: movies.title"),
        ("CREATE TRIGGER no_adds BEFORE INSERT ON movies BEGIN SELECT RAISE(ABORT, 'closed for adds'); END;", ["add", "--title", "New"], "closed for adds"),
        ("PRAGMA foreign_keys = ON; CREATE TABLE loans (movie INTEGER REFERENCES movies(id)); INSERT INTO loans VALUES (1);", ["remove", "1"], "FOREIGN KEY constraint failed"),
    ])
    func userConstraints(_ setup: String, _ arguments: [String], _ message: String) throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3(setup + "\n")
        let before = try box.dump()
        let run = try box.moviecat(arguments)
        #expect(run.status == 65 && run.errorLines.count == 1, "\(run)")
        #expect(run.errorLines.last == "moviecat: error: \(box.db): the catalog refused the change: \(message) (a constraint or trigger added to the catalog's tables, not moviecat's); nothing was changed", "\(run)")
        #expect(try box.dump() == before)
    }

    @Test("a column of movies renamed by hand stops filter and add with exit 73 naming it")
    func renamedColumn() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("ALTER TABLE movies RENAME COLUMN rating TO score;\n")
        for arguments in [["filter"], ["add", "--title", "New"]] {
            let run = try box.moviecat(arguments)
            #expect(run.status == 73 && run.errorLines.last?.hasPrefix("moviecat: error: \(box.db): the catalog's tables are not as moviecat makes them (") == true, "\(run)")
            #expect(run.errorLines.last?.hasSuffix("): a column renamed or dropped by hand?") == true, "\(run)")
        }
    }

    @Test("a catalog a sqlite3 user set to a rollback journal, read by another process meanwhile, is read at once, not after the busy timeout")
    func rollbackJournalWithReader() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try ResourceLimitTests.shell("""
            sqlite3 catalog.sqlite 'PRAGMA journal_mode=DELETE;' > /dev/null
            python3 -c '
            import sqlite3, time, pathlib, os
            con = sqlite3.connect("catalog.sqlite", isolation_level=None)
            con.execute("BEGIN"); con.execute("SELECT count(*) FROM movies").fetchone()
            pathlib.Path("reader.tmp").write_text(str(os.getpid())); os.rename("reader.tmp", "reading"); time.sleep(60)' > /dev/null 2>&1 &
            while [ ! -e reading ]; do sleep 0.05; done
            moviecat --db catalog.sqlite filter --count; status=$?
            kill -9 "$(cat reading)"; exit $status
            """, in: box)
        #expect(run.status == 0 && run.stdout == "13\n", "\(run)")
        // The next command, alone with the file, puts it back in WAL.
        #expect(try box.moviecat("filter", "--count").stdout == "13\n")
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"])
    }

    @Test("a certification stored empty, padded, decomposed or with a comma is listed by facets as no value, since no token can select it; a composed one keeps its own count",
          arguments: [[], ["genre:drama"], ["with 70 more genres"]])
    func unselectableCertification(_ given: [String]) throws {
        let box = try Sandbox()
        try box.seed()
        // Past 62 genres the facet rows hold no bit for each, and SQL over the plain tables counts.
        let manyGenres = given == ["with 70 more genres"]
        let set = manyGenres ? [] : given
        if manyGenres {
            try box.sqlite3((1...70).map { "INSERT INTO genres (code, name) VALUES ('extra-\($0)', 'Extra \($0)');" }.joined(separator: "\n") + "\n")
            #expect(try box.moviecat("edit", "9", "--add-genre", "extra-70").status == 0)
        }
        try box.sqlite3("UPDATE movies SET certification = '' WHERE id <= 3; UPDATE movies SET certification = 'PG' WHERE id IN (4, 8);\n"
                        + "UPDATE movies SET certification = 'PG ' WHERE id = 5; UPDATE movies SET certification = ' R' WHERE id = 6;\n"
                        + "UPDATE movies SET certification = 'E' || char(769) WHERE id = 7; UPDATE movies SET certification = 'R,X' WHERE id = 9;\n"
                        + "UPDATE movies SET certification = char(201) WHERE id IN (10, 11); UPDATE movies SET certification = 'E' || char(769) WHERE id = 12;\n")
        let run = try box.moviecat(["facets", "--format", "json"] + set)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: [[String: Any]]], "\(run)")
        let values = (listed["certification"] ?? []).compactMap { $0["value"] as? String }
        let bytes = values.map { Array($0.utf8) }
        #expect(run.status == 0 && values.allSatisfy { $0 == $0.trimmingCharacters(in: .whitespaces) && !$0.isEmpty && !$0.contains(",") }, "\(run)")
        #expect(!bytes.contains(Array("E\u{301}".utf8)), "\(run)")
        if set.isEmpty {
            #expect(values.contains("PG") && bytes.contains(Array("\u{C9}".utf8)), "\(run)")
        }
        // Each value listed selects what it counts.
        for entry in listed["certification"] ?? [] {
            let value = try #require(entry["value"] as? String), count = try #require(entry["count"] as? Int)
            #expect(try box.moviecat(["filter", "--count", "certification:\(value)"] + set).stdout == "\(count)\n", "\(value)")
        }
    }

    @Test("genres a sqlite3 user named as other genres' codes take nothing over: filter, add, edit and import find the code's genre")
    func genreNamedAsCode() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("INSERT INTO genres (code, name) VALUES ('drame', 'Drama'), ('policier', 'Crime');\n")
        #expect(try box.moviecat("add", "--title", "A", "--genre", "drama,Crime").status == 0)
        #expect(try box.moviecat("edit", "1", "--add-genre", "Crime").status == 0)
        try box.write("g.csv", "title,genres\nE,Drama|crime\n")
        #expect(try box.moviecat("import", "g.csv").status == 0)
        let linked = "SELECT group_concat(g.code, ',') FROM (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE mg.movie_id = (SELECT id FROM movies WHERE title = ?) ORDER BY g.code) g"
        for title in ["A", "E"] { #expect(try box.sql(linked.replacingOccurrences(of: "?", with: "'\(title)'")) == ["crime,drama"], "\(title)") }
        #expect(try box.sql("SELECT count(*) FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id WHERE g.code IN ('drame', 'policier')") == ["0"])
        #expect(try box.moviecat("filter", "--genre", "drama", "--count").stdout == "10\n")
    }
}

import Foundation
import Testing
import TestSupport

/// The derived tables (movie_facets, movie_titles, movie_title_exceptions) after a sqlite3 user's
/// writes that their triggers cannot follow: REPLACE, hand edits, drops. moviecat puts them right
/// when it opens the catalog, and its answers are those of SQL over movies.
@Suite struct DerivedRepairTests {
    /// Rows where movie_facets differs from movies and movie_genres, counted by the sqlite3 shell.
    static let facetMismatches = """
        WITH derived AS (
            SELECT m.id,
                   ifnull((SELECT sum(1 << (genre_id - 1)) FROM movie_genres WHERE movie_id = m.id AND genre_id BETWEEN 1 AND 62), 0)
                     | (EXISTS (SELECT 1 FROM movie_genres WHERE movie_id = m.id AND genre_id NOT BETWEEN 1 AND 62) << 62) AS genres,
                   m.rating, m.duration_minutes AS minutes, m.year, m.certification, m.votes
              FROM movies m),
             stored AS (SELECT id, genres, rating, minutes, year, certification, votes FROM movie_facets)
        SELECT (SELECT count(*) FROM (SELECT * FROM stored EXCEPT SELECT * FROM derived))
             + (SELECT count(*) FROM (SELECT * FROM derived EXCEPT SELECT * FROM stored));
        """

    /// The rowids movie_titles gives for a trigram: with the stale entries put right, those of the
    /// movies whose titles have it.
    static func indexed(_ box: Sandbox, _ trigram: String) throws -> [String] {
        try box.sql("SELECT rowid FROM movie_titles WHERE movie_titles MATCH '\"\(trigram)\"' ORDER BY rowid")
    }

    /// Checks, after one moviecat command, that its counts and title search were those of SQL and
    /// that the derived tables are exact again.
    static func expectAnswersOfSQL(_ box: Sandbox, trigrams: [String] = ["aqu", "man"], _ note: String) throws {
        let count = try box.moviecat("filter", "--count"), movies = try box.sql("SELECT count(*) FROM movies")[0]
        #expect(count.status == 0 && count.stdout == movies + "\n", "\(note): \(count)")
        #expect(try box.sql(facetMismatches) == ["0"], "\(note): movie_facets")
        #expect(try box.sql("SELECT count(*) FROM movie_stale") == ["0"], "\(note): the log")
        let rating = try box.moviecat("filter", "--rating", "4..", "--count"), rated = try box.sql("SELECT count(*) FROM movies WHERE rating >= 4")[0]
        #expect(rating.stdout == rated + "\n", "\(note): \(rating)")
        for trigram in trigrams {
            #expect(try indexed(box, trigram) == box.sql("SELECT id FROM movies WHERE title LIKE '%\(trigram)%' ORDER BY id"),
                    "\(note): movie_titles for '\(trigram)'")
            let found = try box.moviecat("filter", "--title", trigram, "--format", "csv")
            #expect(try CSV.rows(found.stdout).count == Int(box.sql("SELECT count(*) FROM movies WHERE title LIKE '%\(trigram)%'")[0]),
                    "\(note): \(found)")
        }
    }

    @Test("a sqlite3 user's REPLACE that takes a stored movie's place leaves no facet row or title behind", arguments: [
        // The natural key: movie 2 (Aquaman, 2018) goes, its facet row used to stay (14 counted).
        "INSERT OR REPLACE INTO movies (id, title, year, rating) VALUES (500, 'Aquaman', 2018, 9.5);",
        "UPDATE OR REPLACE movies SET title = 'Aquaman', year = 2018 WHERE title = 'Taken';",
        // The IMDb id.
        "UPDATE movies SET imdb_id = 'tt0000002' WHERE id = 2; INSERT OR REPLACE INTO movies (title, year, imdb_id) VALUES ('Aqua', 2001, 'tt0000002');",
        // The id itself: a new title in movie 2's place shares 'aqu' with the old one, which must stay indexed.
        "INSERT OR REPLACE INTO movies (id, title, year, rating) VALUES (2, 'Aquamarine', 2006, 5.5);",
        "UPDATE OR REPLACE movies SET id = 2, title = 'Aqua Teen' WHERE id = 7;",
        // Several at once, through the shell's foreign keys (off: the links stayed behind).
        "INSERT OR REPLACE INTO movies (id, title, year) SELECT id + 100, title, year FROM movies WHERE rating >= 4;",
    ])
    func replace(_ statement: String) throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3(statement + "\n")
        try Self.expectAnswersOfSQL(box, statement)
    }

    @Test("a movie a sqlite3 REPLACE deleted (foreign keys off) leaves no genre links for the next movie given its id", arguments: [
        "INSERT OR REPLACE INTO movies (title, year, rating) VALUES ('2001: A Space Odyssey', 1968, 9.0);",
        "UPDATE movies SET imdb_id = 'tt0000013' WHERE id = 13; INSERT OR REPLACE INTO movies (title, imdb_id) VALUES ('Odyssey', 'tt0000013');",
    ])
    func replacedLinks(_ statement: String) throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3(statement + "\n")
        #expect(try box.moviecat("remove", "14").status == 0)
        let add = try box.moviecat("add", "--title", "Brand New Movie", "--year", "2020")
        #expect(add.stdout == "13\n", "\(add)")
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 13") == ["0"])
        #expect(try box.sql("PRAGMA foreign_key_check").isEmpty)
        #expect(try box.moviecat("filter", "--genre", "drama", "--count").stdout == "7\n")
    }

    @Test("rows a REPLACE logs are put right whichever moviecat command opens the catalog next", arguments: [
        ["facets"], ["presets"], ["add", "--title", "Heat", "--year", "1995"], ["remove", "5"], ["info"],
    ])
    func anyCommandRepairs(_ arguments: [String]) throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("INSERT OR REPLACE INTO movies (id, title, year, rating) VALUES (500, 'Aquaman', 2018, 9.5);\n")
        let run = try box.moviecat(arguments)
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movie_stale") == ["0"])
        #expect(try box.sql(Self.facetMismatches) == ["0"])
    }

    @Test("a facet or exception row deleted or renumbered by hand is recomputed", arguments: [
        "DELETE FROM movie_facets;",
        "DELETE FROM movie_facets WHERE id = 5;",
        "UPDATE movie_facets SET id = 99 WHERE id = 5;",
        "DELETE FROM movie_title_exceptions;",
        "UPDATE movie_title_exceptions SET id = 999;",
    ])
    func handEdits(_ statement: String) throws {
        let box = try Sandbox()
        try box.seed()
        // A KELVIN SIGN, which lower-cases to k: only movie_title_exceptions sends it past LIKE.
        try box.sqlite3("INSERT INTO movies (title, year, rating) VALUES ('The ' || char(8490) || 'ing', 1999, 7);\n")
        try box.sqlite3(statement + "\n")
        let king = try box.moviecat("filter", "--title", "king", "--count")
        #expect(king.status == 0 && king.stdout == "1\n", "\(king)")
        try Self.expectAnswersOfSQL(box, statement)
        #expect(try box.sql("SELECT id FROM movie_title_exceptions") == box.sql("SELECT id FROM movies WHERE instr(title, char(8490))"))
    }

    @Test("movie_titles emptied by hand ('delete-all') is rebuilt: a title search through it finds its titles again")
    func titleIndexEmptied() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("""
            WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO movies (title, year) SELECT 'Film ' || i, 1900 + i % 100 FROM n;
            """)
        let plan = try box.moviecat("filter", "--title", "aquaman", "--count", "--explain")
        try #require(plan.stdout.contains("start from the title index"), "the title index drives this search: \(plan)")
        try box.sqlite3("INSERT INTO movie_titles (movie_titles) VALUES ('delete-all');\n")
        let run = try box.moviecat("filter", "--title", "aquaman", "--count")
        #expect(run.status == 0 && run.stdout == "1\n", "\(run)")
        #expect(try Self.indexed(box, "aqu") == ["2"])
    }

    @Test("rows the log meets but a write keeps (UPSERT, INSERT OR IGNORE), then retitled or deleted: no title is taken out twice", arguments: [
        // seed.sql again (INSERT OR IGNORE logs all 13), then a delete takes their titles out.
        "SEED DELETE FROM movies WHERE id > 1;",
        """
        INSERT INTO movies (id, title) SELECT id, title || ' (1)' FROM movies WHERE true ON CONFLICT (id) DO UPDATE SET title = excluded.title;
        INSERT INTO movies (id, title) SELECT id, title || ' (2)' FROM movies WHERE true ON CONFLICT (id) DO UPDATE SET title = excluded.title;
        """,
        """
        INSERT INTO movies (id, title) VALUES (1, 'Title 1') ON CONFLICT (id) DO UPDATE SET title = excluded.title;
        INSERT INTO movies (id, title) VALUES (1, 'Title 2') ON CONFLICT (id) DO UPDATE SET title = excluded.title;
        INSERT INTO movies (id, title) VALUES (1, 'Title 3') ON CONFLICT (id) DO UPDATE SET title = excluded.title;
        """,
        // An explicit id of -1 (the id a BEFORE trigger shows for one SQLite is yet to choose).
        """
        UPDATE movies SET id = -1 WHERE title = 'Taken'; UPDATE movie_genres SET movie_id = -1 WHERE movie_id = 12;
        INSERT OR REPLACE INTO movies (id, title, year) VALUES (-1, 'Zzyzx Road', 2006);
        """,
        // A unique index of the user's own, whose REPLACE the log's triggers do not probe.
        "CREATE UNIQUE INDEX by_title ON movies (title); INSERT OR REPLACE INTO movies (title, year) VALUES ('Taken', 2009);",
    ])
    func keptRowsLogged(_ statement: String) throws {
        let box = try Sandbox()
        try box.seed()
        let seed = try String(contentsOf: packageRoot.appendingPathComponent("seed.sql"), encoding: .utf8)
        try box.sqlite3(statement.replacing("SEED ", with: seed + "\n") + "\n")
        try Self.expectAnswersOfSQL(box, trigrams: ["aqu", "man", "tak", "itl"], statement)
        // FTS5's totals are right: deleting every movie (each 'delete' lowers them) is no corrupt index.
        let removed = try box.sqlite3("DELETE FROM movies;\nINSERT INTO movie_titles (movie_titles) VALUES ('integrity-check');\n")
        #expect(removed.status == 0 && removed.stderr.isEmpty, "\(removed)")
        #expect(try box.moviecat("filter", "--count").stdout == "0\n")
    }

    @Test("a movie deleted by sqlite3 with foreign keys off takes its genre links: the next movie given its id has none (version 14)")
    func deletedMovieTakesItsLinks() throws {
        let box = try Sandbox()
        try box.seed()
        // The shell's default: foreign keys off, so no cascade.
        try box.sqlite3("PRAGMA foreign_keys = OFF; DELETE FROM movies WHERE id = 13;")
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 13") == ["0"])
        let added = try box.moviecat("add", "--title", "Brand New")
        #expect(added.status == 0 && added.errorLines == ["added movie 13: Brand New"], "\(added)")
        #expect(try box.moviecat("filter", "--genre", "drama", "--title", "brand", "--count").stdout == "0\n")
        // Links an older version left behind above the largest id go when the catalog is upgraded.
        try box.sqlite3("""
            PRAGMA foreign_keys = OFF; DROP TRIGGER movie_genres_follow_delete; DELETE FROM movies WHERE id = 13;
            PRAGMA user_version = 13;
            """)
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 13") == ["0"], "no genres were given")
        try box.sqlite3("PRAGMA foreign_keys = OFF; DELETE FROM movies WHERE id = 12;")
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 12") == ["1"])
        let upgraded = try box.moviecat("add", "--title", "Newer")
        #expect(upgraded.status == 0 && upgraded.errorLines.last == "added movie 12: Newer", "\(upgraded)")
        #expect(try box.sql("SELECT count(*) FROM movie_genres WHERE movie_id = 12") == ["0"])
        #expect(try box.sql("PRAGMA user_version") == [latestSchemaVersion])
        try Self.expectAnswersOfSQL(box, "after the upgrade")
    }

    /// A sqlite3 user's triggers on movies, named, that act on the row a write just made, with
    /// what sqlite3 then does through them, twice: `first` before moviecat has opened the catalog
    /// since, `then` after.
    static let ownTriggers: [(name: String, trigger: String, first: String, then: String)] = [
        ("blocklist",
         "CREATE TRIGGER blocklist AFTER INSERT ON movies WHEN NEW.title LIKE 'Blocked%' BEGIN DELETE FROM movies WHERE id = NEW.id; END;",
         "DELETE FROM movies WHERE id = 5; INSERT INTO movies (id, title, year, rating) VALUES (5, 'Blocked Aquaman', 2001, 9.5);",
         "DELETE FROM movies WHERE id = 6; INSERT INTO movies (id, title, year, rating) VALUES (6, 'Blocked Manhunt', 2002, 9.5);"),
        ("shout",
         "CREATE TRIGGER shout AFTER INSERT ON movies BEGIN UPDATE movies SET title = upper(NEW.title) || ' Zqx', rating = 1.5 WHERE id = NEW.id; END;",
         "DELETE FROM movies WHERE id = 5; INSERT INTO movies (id, title, year, rating) VALUES (5, 'Quiet Aquaman', 2001, 9.5);",
         "DELETE FROM movies WHERE id = 6; INSERT INTO movies (id, title, year, rating) VALUES (6, 'Quiet Manhunt', 2002, 9.5);"),
        ("undraft",
         "CREATE TRIGGER undraft AFTER UPDATE OF title ON movies WHEN NEW.title LIKE 'Draft %' BEGIN UPDATE movies SET title = substr(NEW.title, 7) || ' Zqx', rating = 1.5 WHERE id = NEW.id; END;",
         "UPDATE movies SET title = 'Draft Aquaman' WHERE id = 5;",
         "UPDATE movies SET title = 'Draft Manhunt' WHERE id = 6;"),
        // RAISE(IGNORE) ends the triggers still to fire for the row; the table's name as typed.
        ("unrated",
         "CREATE TRIGGER unrated AFTER INSERT ON Movies BEGIN SELECT RAISE(IGNORE) WHERE NEW.rating IS NULL; END;",
         "DELETE FROM movies WHERE id = 5; INSERT INTO movies (id, title, year) VALUES (5, 'Unrated Aquaman', 2001);",
         "DELETE FROM movies WHERE id = 6; INSERT INTO movies (id, title, year) VALUES (6, 'Unrated Manhunt', 2002);"),
        // The delete made by another table's trigger: no movie table in this one's body.
        ("forward",
         "CREATE TABLE blocked (id INTEGER); CREATE TRIGGER drop_blocked AFTER INSERT ON blocked BEGIN DELETE FROM movies WHERE id = NEW.id; END; CREATE TRIGGER forward AFTER INSERT ON movies WHEN NEW.title LIKE 'Blocked%' BEGIN INSERT INTO blocked VALUES (NEW.id); END;",
         "DELETE FROM movies WHERE id = 5; INSERT INTO movies (id, title, year, rating) VALUES (5, 'Blocked Aquaman', 2001, 9.5);",
         "DELETE FROM movies WHERE id = 6; INSERT INTO movies (id, title, year, rating) VALUES (6, 'Blocked Manhunt', 2002, 9.5);"),
    ]

    /// The notice of a rebuild for the user's trigger `name`.
    static func rebuildNotice(_ name: String) -> String {
        "moviecat: rebuilding the derived tables: the catalog's own trigger '\(name)' fires before moviecat's (a large catalog takes a while)"
    }

    @Test("a trigger of the user's that fires before moviecat's on a new or retitled movie: rebuilt at the next open, and moviecat's fire first from then on",
          arguments: ownTriggers.indices)
    func ownTriggerFiringFirst(_ index: Int) throws {
        let own = Self.ownTriggers[index], box = try Sandbox()
        try box.seed()
        try box.sqlite3(own.trigger + "\n" + own.first)
        let opened = try box.moviecat("filter", "--count")
        #expect(opened.status == 0 && opened.errorLines == [Self.rebuildNotice(own.name)], "\(opened)")
        let trigrams = ["aqu", "man", "blo", "dra", "zqx", "qui", "unr"]
        try Self.expectAnswersOfSQL(box, trigrams: trigrams, "\(own.name), before moviecat opened it")
        let rowids = try box.sql("SELECT rowid FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid")
        // Now exact without moviecat: the derived tables are read by the shell alone.
        let written = try box.sqlite3(own.then)
        #expect(written.status == 0 && written.stderr.isEmpty, "\(written)")
        #expect(try box.sql(Self.facetMismatches) == ["0"], "\(own.name): movie_facets")
        for trigram in trigrams {
            #expect(try Self.indexed(box, trigram) == box.sql("SELECT id FROM movies WHERE title LIKE '%\(trigram)%' ORDER BY id"),
                    "\(own.name): movie_titles for '\(trigram)'")
        }
        try Self.expectAnswersOfSQL(box, trigrams: trigrams, "\(own.name), after")
        #expect(try box.sql("SELECT rowid FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid") == rowids, "rebuilt once")
    }

    @Test("a trigger of the user's that deletes each new movie: on an empty catalog, FTS5 counts no title below zero once moviecat's fire first; a trigger on another table rebuilds nothing")
    func ownTriggerOnEmptyCatalog() throws {
        let box = try Sandbox()
        #expect(try box.moviecat("init").status == 0)
        try box.sqlite3("CREATE TABLE log (at TEXT); CREATE TRIGGER stamp AFTER INSERT ON log BEGIN SELECT RAISE(IGNORE) WHERE NEW.at IS NULL; END;")
        let rowids = try box.sql("SELECT rowid FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid")
        let other = try box.moviecat("filter", "--count")
        #expect(other.stdout == "0\n" && other.stderr.isEmpty, "\(other)")
        #expect(try box.sql("SELECT rowid FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid") == rowids, "nothing rebuilt")
        try box.sqlite3("CREATE TRIGGER blocklist AFTER INSERT ON MOVIES BEGIN DELETE FROM movies WHERE id = NEW.id; END;")
        let opened = try box.moviecat("filter", "--count")
        #expect(opened.stdout == "0\n" && opened.errorLines == [Self.rebuildNotice("blocklist")], "\(opened)")
        let inserted = try box.sqlite3("INSERT INTO movies (title, year) VALUES ('Blocked', 2000);")
        #expect(inserted.status == 0 && inserted.stderr.isEmpty, "\(inserted)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["0"])
        try Self.expectAnswersOfSQL(box, trigrams: ["blo"], "empty")
    }

    @Test("a derived object missing and a trigger of the user's firing first: one open rebuilds for both")
    func ownTriggerAndMissingObject() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("DROP INDEX movie_facets_rating; CREATE TRIGGER blocklist AFTER INSERT ON movies WHEN NEW.title LIKE 'Blocked%' BEGIN DELETE FROM movies WHERE id = NEW.id; END;")
        let added = try box.moviecat("add", "--title", "Blocked Aquaman", "--year", "2001")
        #expect(added.status == 0 && added.errorLines.first == "moviecat: rebuilding the derived tables: movie_facets_rating is missing; the catalog's own trigger 'blocklist' fires before moviecat's (a large catalog takes a while)", "\(added)")
        #expect(try box.sql("SELECT count(*) FROM movies WHERE title LIKE 'Blocked%'") == ["0"])
        #expect(try box.sql(Self.facetMismatches) == ["0"])
        let again = try box.moviecat("filter", "--count")
        #expect(again.stdout == "13\n" && again.stderr.isEmpty, "\(again)")
        try Self.expectAnswersOfSQL(box, trigrams: ["aqu", "blo"], "after both")
    }
}

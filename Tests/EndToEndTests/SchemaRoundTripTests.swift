import Foundation
import Testing
import TestSupport

/// SPEC section 4: `filter --format F | import --format F -` reproduces the catalog, for the
/// values a sqlite3 user can store within the schema's CHECKs, not only those moviecat writes.
@Suite struct SchemaRoundTripTests {
    /// Movies inserted with the sqlite3 shell, in the order `filter` lists them (by title), so a
    /// fresh catalog gives them the same ids. Every value passes the schema's CHECKs.
    static let movies = """
        INSERT INTO movies (id, title, year, rating, votes, duration_minutes, certification, imdb_id) VALUES
          (1, '01 Max', 1870, 9.95, 9223372036854775807, 9223372036854775807, 'PG-13', 'tt9223372036854775807'),
          (2, '02 Long id', 2100, 1e-300, 0, 1000000000, 'é', 'tt00000000001'),
          (3, '03 Subnormal', NULL, 4.9406564584124654e-324, 1000000000000, 1, 'ß', 'tt' || '1234567890123456789012345678901234567890'),
          (4, '04 ' || char(27) || '[31mRed' || char(127) || char(133) || 'x', NULL, 0.30000000000000004, NULL, 9223372036854775800, 'TV-ма', 'tt0000000'),
          (5, '05 "Quoted", here; |pipe|', NULL, 9.999999999999998, NULL, NULL, NULL, 'tt00111161'),
          (6, '06 Plain', 1994, 10, 2343110, 142, 'R', 'tt0111161');
        INSERT INTO movie_genres SELECT m.id, g.id FROM movies m, genres g WHERE m.id IN (1, 6) AND g.code IN ('drama', 'war');
        """
    /// What TSV cannot carry (it has no quoting): a tab or line break inside a value.
    static let quotedOnly = """
        INSERT INTO movies (id, title, certification) VALUES (7, '07 Tab' || char(9) || 'and' || char(10) || 'line', 'A' || char(13) || char(10) || 'B');
        """

    /// Every stored column but the timestamps, byte for byte (texts as blobs, numbers as SQLite quotes them: exact).
    static let movieDump = """
        SELECT id, quote(CAST(title AS BLOB)), quote(year), quote(rating), quote(votes), quote(duration_minutes),
               quote(CAST(certification AS BLOB)), quote(imdb_id) FROM movies ORDER BY id
        """
    static let genreDump = "SELECT mg.movie_id, g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id ORDER BY 1, 2"

    /// Exports the sandbox's catalog as `format` and imports that into `copy.sqlite`.
    static func roundTrip(_ box: Sandbox, format: String, arguments: [String] = []) throws -> (exported: Run, imported: Run) {
        let exported = try box.moviecat("filter", "--format", format)
        try #require(exported.status == 0, "\(exported)")
        let imported = try runProcess(moviecatBinary, ["--db", box.path("copy.sqlite"), "import", "--format", format] + arguments + ["-"],
                                      stdin: Data(exported.stdout.utf8), directory: box.dir)
        return (exported, imported)
    }

    @Test("values the schema allows, stored with sqlite3, come back exactly through each output format",
          arguments: ["jsonl", "csv", "tsv"])
    func storedValues(_ format: String) throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.sqlite3(Self.movies + (format == "tsv" ? "" : Self.quotedOnly))
        let (exported, imported) = try Self.roundTrip(box, format: format)
        #expect(imported.status == 0, "\(exported)\n\(imported)")
        let count = format == "tsv" ? 6 : 7
        #expect(imported.report("-")?.inserted == count, "\(imported)")
        let copy = box.path("copy.sqlite")
        #expect(try box.sql(Self.movieDump, db: copy) == box.sql(Self.movieDump))
        #expect(try box.sql(Self.genreDump, db: copy) == box.sql(Self.genreDump))
        #expect(try box.sql("PRAGMA integrity_check", db: copy) == ["ok"])
    }

    /// README, "Round trip": titles are trimmed of all white space on input, as SPEC has them
    /// stored, but the schema's trim() strips spaces only. So a title of white space alone is
    /// refused, one line a row, and white space at an end comes off; invalid UTF-8 cannot be
    /// written as JSON and comes back as U+FFFD.
    @Test("the known exceptions: titles of white space alone are refused in one line each, edges trimmed")
    func exceptions() throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.sqlite3("""
            INSERT INTO movies (id, title, votes, duration_minutes, certification) VALUES
              (1, char(9), NULL, NULL, NULL), (2, char(10), NULL, NULL, NULL),
              (3, 'Edge' || char(9), 9223372036854775807, 1000000000, ' R '), (4, 'Empty certification', NULL, NULL, ''),
              (5, CAST(X'FF41' AS TEXT), NULL, NULL, NULL);
            """)
        let (_, refused) = try Self.roundTrip(box, format: "jsonl")
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.errorLines == ["-:1: title: is blank", "-:2: title: is blank",
                                       "moviecat: error: 2 invalid rows (2 problems); nothing was imported. Fix them, or import the valid rows with --skip-invalid"],
                "\(refused)")
        #expect(try box.scalar("SELECT count(*) FROM movies", db: box.path("copy.sqlite")) == "0")

        let (_, imported) = try Self.roundTrip(box, format: "jsonl", arguments: ["--skip-invalid"])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.report("-") == ReportLine(file: "-", read: 5, inserted: 3, rejected: 2), "\(imported)")
        #expect(try box.rows("SELECT hex(title), votes, duration_minutes, quote(certification) FROM movies ORDER BY title",
                             db: box.path("copy.sqlite"))
                == [["45646765", "9223372036854775807", "1000000000", "'R'"], ["456D7074792063657274696669636174696F6E", sqlNull, sqlNull, "NULL"],
                    ["EFBFBD41", sqlNull, sqlNull, "NULL"]])
    }

    @Test("filters on the largest stored values match them; one past them is a usage error")
    func filters() throws {
        let box = try Sandbox()
        try box.initEmpty()
        try box.sqlite3(Self.movies)
        func titles(_ arguments: String...) throws -> [String] {
            let run = try box.moviecat(["filter", "--format", "tsv"] + arguments)
            #expect(run.status == 0, "\(arguments): \(run)")
            return run.lines.dropFirst().map { String($0.split(separator: "\t")[1]) }
        }
        #expect(try titles("--votes", "9223372036854775807") == ["01 Max"])
        #expect(try titles("--votes", "1000000000000..") == ["01 Max", "03 Subnormal"])
        #expect(try titles("--duration", "9223372036854775807m") == ["01 Max"])
        #expect(try titles("--duration", "153722867280912930h") == ["01 Max", "04 \u{1B}[31mRed\u{7F}\u{85}x"])
        #expect(try titles("--duration", "1000000000..9223372036854775800") == ["02 Long id", "04 \u{1B}[31mRed\u{7F}\u{85}x"])
        #expect(try titles("--imdb", "TT00000000001") == ["02 Long id"])
        #expect(try titles("--imdb", "tt00111161,tt0111161") == ["05 \"Quoted\", here; |pipe|", "06 Plain"])
        #expect(try titles("--certification", "é") == ["02 Long id"])
        #expect(try titles("--rating", "0.30000000000000004") == ["04 \u{1B}[31mRed\u{7F}\u{85}x"])
        let facets = try box.moviecat("facets", "duration:153722867280912930h", "--format", "json")
        #expect(facets.status == 0 && facets.stdout.contains("{\"value\":\"153722867280912930h\",\"count\":2}"), "\(facets)")
        for (flag, value) in [("--votes", "9223372036854775808"), ("--duration", "9223372036854775808"),
                              ("--duration", "153722867280912931h")] {
            let run = try box.moviecat("filter", flag, value)
            #expect(run.status == 64, "\(run)")
            #expect(run.errorLines.last?.hasPrefix("moviecat: error: invalid value '\(value)' for '\(flag)': expected ") == true, "\(run)")
        }
    }
}

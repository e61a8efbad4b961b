import Foundation
import Testing

// Helpers for the import suites (ImportCorpusTests, ImportBehaviourTests, ImportRoundTripTests,
// ImportAtomicityTests). They read catalogs with the sqlite3 shell only, never with MovieCatalog.

/// `Tests/Fixtures`.
let fixturesDirectory = packageRoot.appendingPathComponent("Tests/Fixtures")

/// What sqlite3 prints for NULL in `Sandbox.rows` (a text value never equals it in these tests).
let sqlNull = "<NULL>"

extension Sandbox {
    /// The rows of a query as the sqlite3 shell prints them, split on ASCII unit and record
    /// separators so titles with tabs, commas and newlines come through whole; NULL is `sqlNull`.
    func rows(_ query: String, db path: String? = nil) throws -> [[String]] {
        let run = try runProcess(sqlite3Binary, ["-batch", "-list", "-separator", "\u{1F}", "-newline", "\u{1E}",
                                                 "-nullvalue", sqlNull, path ?? db, query])
        guard run.status == 0, run.stderr.isEmpty else { throw SQLiteShellError(message: run.stderr) }
        return run.stdout.split(separator: "\u{1E}", omittingEmptySubsequences: false).dropLast()
            .map { $0.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
    }

    /// One value from a one-row, one-column query.
    func scalar(_ query: String, db path: String? = nil) throws -> String {
        let rows = try rows(query, db: path)
        try #require(rows.count == 1 && rows[0].count == 1, "\(query) gave \(rows)")
        return rows[0][0]
    }

    /// Every movie as title, year, rating, duration, certification and its genre codes ('|'-joined,
    /// sorted), ordered by title and year: what two catalogs must agree on after equivalent imports.
    func movieRows(db path: String? = nil) throws -> [[String]] {
        try rows("""
            SELECT m.title, m.year, m.rating, m.duration_minutes, m.certification,
                   (SELECT ifnull(group_concat(code, '|'), '') FROM
                       (SELECT g.code FROM movie_genres mg JOIN genres g ON g.id = mg.genre_id
                         WHERE mg.movie_id = m.id ORDER BY g.code))
              FROM movies m ORDER BY m.title, m.year
            """, db: path)
    }

    /// `movie_list` without ids, ordered by title and year (genres as their display names).
    func movieList(db path: String? = nil) throws -> [[String]] {
        try rows("SELECT title, year, genres, rating, duration_minutes, certification FROM movie_list ORDER BY title, year",
                 db: path)
    }

    /// Copies a file of `Tests/Fixtures` into the sandbox under its own name (or `name`); returns that name.
    @discardableResult
    func copyFixture(_ relative: String, as name: String? = nil) throws -> String {
        let source = fixturesDirectory.appendingPathComponent(relative)
        let target = name ?? source.lastPathComponent
        try Data(contentsOf: source).write(to: dir.appendingPathComponent(target))
        return target
    }

    /// A fresh catalog with `init` only (no movies).
    func initEmpty() throws {
        let run = try moviecat("init")
        try #require(run.status == 0, "\(run)")
    }
}

/// One report line of `import`: `file: N rows read, N inserted, N updated, N skipped, N rejected
/// [, N repeated in the input (last one kept)] in X s (N rows/s)`.
struct ReportLine: Equatable, CustomStringConvertible {
    var file: String
    var read = 0, inserted = 0, updated = 0, skipped = 0, rejected = 0, repeated = 0, filtered = 0, notInCatalog = 0

    var description: String {
        "\(file): \(read) read, \(inserted) inserted, \(updated) updated, \(skipped) skipped, \(rejected) rejected, "
            + "\(filtered) filtered, \(notInCatalog) not in catalog, \(repeated) repeated"
    }

    nonisolated(unsafe) static let pattern = #/^(.+): ([\d,]+) rows? read, ([\d,]+) inserted, ([\d,]+) updated, ([\d,]+) skipped, ([\d,]+) rejected(?:, ([\d,]+) filtered)?(?:, ([\d,]+) not in catalog)?(?:, ([\d,]+) repeated in the input \(last one kept\))? in (\d+\.\d) s \(([\d,]+) rows/s\)$/#

    /// Parses a report line; nil when the line is not one.
    init?(_ line: String) {
        guard let match = line.wholeMatch(of: ReportLine.pattern) else { return nil }
        func number(_ text: Substring?) -> Int { Int((text ?? "0").replacing(",", with: "")) ?? -1 }
        file = String(match.1)
        read = number(match.2)
        inserted = number(match.3)
        updated = number(match.4)
        skipped = number(match.5)
        rejected = number(match.6)
        filtered = number(match.7)
        notInCatalog = number(match.8)
        repeated = number(match.9)
    }

    init(file: String, read: Int, inserted: Int = 0, updated: Int = 0, skipped: Int = 0, rejected: Int = 0, repeated: Int = 0,
         filtered: Int = 0, notInCatalog: Int = 0) {
        self.file = file
        (self.read, self.inserted, self.updated, self.skipped, self.rejected, self.repeated) =
            (read, inserted, updated, skipped, rejected, repeated)
        (self.filtered, self.notInCatalog) = (filtered, notInCatalog)
    }
}

extension Run {
    /// The report lines on stderr, parsed.
    var reports: [ReportLine] { errorLines.compactMap(ReportLine.init) }

    /// The one report line for `file`, if any.
    func report(_ file: String) -> ReportLine? { reports.first { $0.file == file } }
}

// MARK: - Writing inputs

/// RFC 4180 field: quoted when it holds a quote, comma, CR or LF, or when `always`.
func csvField(_ text: String, always: Bool = false) -> String {
    let needs = always || text.contains(where: { $0 == "\"" || $0 == "," || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    return needs ? "\"" + text.replacing("\"", with: "\"\"") + "\"" : text
}


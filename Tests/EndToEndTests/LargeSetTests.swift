import Foundation
import Testing
import TestSupport

/// Sets no person types but a script does: a thousand elements of one facet, and title texts
/// longer than SQLite's longest LIKE pattern. Each once exited 70 with SQLite's own message
/// ("Expression tree is too large", "LIKE or GLOB pattern too complex").
@Suite struct LargeSetTests {
    /// Every odd year from 1001 to 2999: 1,000 elements of one facet.
    static let oddYears = stride(from: 1001, through: 2999, by: 2).map { "year:\($0)" }

    @Test("a thousand elements of one facet: filter, a page of it and facets", arguments: [
        ["--count"], ["--sort", "rating", "--desc", "--limit", "5", "--format", "csv"], ["--format", "csv"],
    ])
    func thousandElements(_ shape: [String]) throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat(["filter"] + Self.oddYears + shape)
        #expect(run.status == 0, "\(run)")
        let expected = try box.sql("SELECT title FROM movies WHERE year % 2 = 1 ORDER BY rating DESC, title")
        if shape == ["--count"] {
            #expect(run.stdout == "\(expected.count)\n", "\(run)")
        } else {
            #expect(Set(try CSV.rows(run.stdout).map { $0["title"] ?? "?" }) == Set(expected), "\(run)")
        }
        let facets = try box.moviecat(["facets", "--format", "json"] + Self.oddYears)
        #expect(facets.status == 0, "\(facets)")
    }

    // Past 32 exact values a facet's values go into one IN list, beside its ranges.
    @Test("many exact years with a decade and a range: the same movies as plain SQL")
    func exactValuesAndRanges() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat(["filter", "--format", "csv", "year:1950s", "year:2015..2016"] + Self.oddYears)
        #expect(run.status == 0, "\(run)")
        let expected = try box.sql("SELECT title FROM movies WHERE year % 2 = 1 OR year BETWEEN 1950 AND 1959 OR year BETWEEN 2015 AND 2016")
        #expect(Set(try CSV.rows(run.stdout).map { $0["title"] ?? "?" }) == Set(expected), "\(run)")
        #expect(expected.count > 2)
        let explain = try box.moviecat(["filter", "--explain", "year:1950s"] + Self.oddYears)
        #expect(explain.stdout.contains("year IN (?, ?, ?"), "\(explain.stdout.prefix(600))")
    }

    /// A script's list of titles: 2,000 that match nothing, a few that do, in an ASCII and a
    /// Unicode spelling of a title with exceptions (the Kelvin sign `K` folds to `k`).
    @Test("two thousand titles: counts, pages by title and by rating, and facets as plain SQL, the titles found through the title index", arguments: [
        ["--count"], ["--format", "csv"], ["--sort", "rating", "--desc", "--limit", "3", "--format", "csv"],
    ])
    func thousandsOfTitles(_ shape: [String]) throws {
        let box = try Sandbox()
        try box.seed()
        _ = try box.sql("INSERT INTO movies (title, year, rating, added_at, updated_at) VALUES ('\u{212A}ing of Things', 2000, 6, 0, 0)")
        let titles = (0..<2000).map { "title:zq\($0)x" } + ["title:godfather", "title:aqua", "title:king of"]
        let run = try box.moviecat(["filter"] + titles + shape)
        #expect(run.status == 0, "\(run)")
        let expected = try box.sql("SELECT title FROM movies WHERE title LIKE '%godfather%' OR title LIKE '%aqua%' OR title = '\u{212A}ing of Things' ORDER BY rating DESC, title")
        if shape == ["--count"] {
            #expect(run.stdout == "\(expected.count)\n", "\(run)")
        } else {
            let listed = try CSV.rows(run.stdout).map { $0["title"] ?? "?" }
            #expect(shape.contains("--limit") ? listed == Array(expected.prefix(3)) : Set(listed) == Set(expected), "\(run)")
        }
        #expect(expected.count == 4)
        let explain = try box.moviecat(["filter", "--explain"] + titles + shape.filter { $0 != "--count" })
        #expect(explain.stdout.contains("start from the title index"), "\(explain.stdout.prefix(400))")
        let facets = try box.moviecat(["facets", "--format", "json"] + titles)
        #expect(facets.status == 0 && facets.stdout.contains("\"1970s\""), "\(facets)")
    }

    @Test("hundreds of titles beyond ASCII (each title lower-cased once for a hundred of them): the movies of plain per-title tests")
    func titlesBeyondASCII() throws {
        let box = try Sandbox()
        try box.seed()
        _ = try box.sql("INSERT INTO movies (title, year, added_at, updated_at) VALUES ('ÉCOLE Été', 2000, 0, 0), ('ΣΊΣΥΦΟΣ', 2001, 0, 0)")
        let titles = (0..<450).map { "title:zé\($0)x" } + ["title:école", "title:σίσυφος", "title:godfather"]
        let run = try box.moviecat(["filter", "--format", "csv"] + titles)
        #expect(run.status == 0, "\(run)")
        #expect(Set(try CSV.rows(run.stdout).map { $0["title"] ?? "?" }) == ["ÉCOLE Été", "ΣΊΣΥΦΟΣ", "The Godfather", "The Godfather Part II"], "\(run)")
        let count = try box.moviecat(["filter", "--count", "--genre", "drama"] + titles)
        #expect(count.stdout == "2\n", "\(count)")
    }

    @Test("a preset of 1,200 elements is saved and used")
    func bigPreset() throws {
        let box = try Sandbox()
        try box.seed()
        _ = try box.sql("UPDATE movies SET votes = id * 1000")
        let votes = (1...1200).map { "votes:\($0 * 500)" }
        #expect(try box.moviecat(["save-preset", "big"] + votes).status == 0)
        let run = try box.moviecat("filter", "--preset", "big", "--count")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "13\n", "\(run)")
        #expect(try box.moviecat("filter", "--preset", "big", "--rating", "5", "--count").stdout
                == "\(try box.scalar("SELECT count(*) FROM movies WHERE rating >= 5 AND rating < 6"))\n")
    }

    @Test("a title text past LIKE's longest pattern is still a case-insensitive substring test")
    func longTitleText() throws {
        let box = try Sandbox()
        try box.seed()
        let long = "Ab" + String(repeating: "ab", count: 26_000) + " End"
        // A KELVIN SIGN, whose lower case is ASCII k: the title test reads it so.
        let kelvin = "Zz" + String(repeating: "ab", count: 10_500) + "\u{212A}" + String(repeating: "ab", count: 10) + " Kel"
        let path = try box.write("long.csv", "title,year\n\(long),2001\nShort,2002\n\(kelvin),2003\n")
        #expect(try box.moviecat("import", path).status == 0)
        let search = String(repeating: "AB", count: 25_001)   // 50,002 bytes
        // A second title of two letters cannot be looked up in the title index: every title is
        // tested, by moviecat_contains_any for the long text (alone, the index's phrase query answers it).
        for shape in [[], ["--title", "zq"]] {
            let found = try box.moviecat(["filter", "--title", search, "--format", "csv"] + shape)
            #expect(found.status == 0, "\(found)")
            #expect(try CSV.rows(found.stdout).map { $0["year"] ?? "?" } == ["2001"], "\(found)")
            let count = try box.moviecat(["filter", "--count", "--title", search + " end"] + shape)
            #expect(count.status == 0 && count.stdout == "1\n", "\(count)")
            let k = try box.moviecat(["filter", "--count", "--title", String(repeating: "ab", count: 10_500) + "K" + "abab"] + shape)
            #expect(k.status == 0 && k.stdout == "1\n", "\(k)")
        }
        let scan = try box.moviecat("filter", "--title", search, "--title", "zq", "--explain")
        #expect(scan.stdout.contains("moviecat_contains_any(m.title, ?)"), "\(scan.stdout.prefix(2000))")
        let none = try box.moviecat("filter", "--count", "--title", String(repeating: "a", count: 49_999))
        #expect(none.status == 0 && none.stdout == "0\n", "\(none)")
        // Messages quote such a title cut (the whole of it twice once made a 100 KB line).
        let again = try box.moviecat("import", "--on-duplicate", "fail", path)
        #expect(again.status == 65, "\(again.stderr.prefix(500))")
        #expect(again.stderr.utf8.count < 400 && again.stderr.contains("(52006 characters)"), "\(again.stderr.prefix(500))")
    }
}

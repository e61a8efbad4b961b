import Foundation
import Testing
import TestSupport

/// `facets`: the app's filter list with disjunctive counts (SPEC section 4, issue 4 item 1).
@Suite struct FacetsTests {
    static let facetKeys = ["genre", "rating", "duration", "year", "certification"]

    /// `facets --format json` as facet -> value -> count, checking the JSON shape on the way.
    static func jsonCounts(_ run: Run) throws -> [String: [String: Int]] {
        let parsed = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let object = try #require(parsed as? [String: Any], "\(run)")
        #expect(Set(object.keys) == Set(facetKeys), "\(run)")
        var result: [String: [String: Int]] = [:]
        for (key, list) in object {
            let items = try #require(list as? [[String: Any]], "\(key) is not an array of objects: \(run)")
            var values: [String: Int] = [:]
            for item in items {
                #expect(Set(item.keys) == ["value", "count"], "\(item)")
                let value = try #require(item["value"] as? String, "\(item)")
                let count = try #require((item["count"] as? NSNumber)?.intValue, "\(item)")
                #expect(values[value] == nil, "\(key) lists \(value) twice")
                values[value] = count
            }
            result[key] = values
        }
        return result
    }

    /// One value line of the table: section, `[x]` mark, label, count.
    struct TableLine: Equatable { let section: String; let selected: Bool; let label: String; let count: Int }

    static func tableLines(_ text: String) -> (sections: [String], lines: [TableLine]) {
        var sections: [String] = [], lines: [TableLine] = []
        for line in text.split(separator: "\n").map(String.init) {
            if !line.hasPrefix(" ") { sections.append(line); continue }
            guard let match = line.wholeMatch(of: /\ \ \[([ x])\] (.*\S)\s+(\d+)/) else { continue }
            lines.append(TableLine(section: sections.last ?? "", selected: match.1 == "x",
                                   label: String(match.2), count: Int(match.3)!))
        }
        return (sections, lines)
    }

    // MARK: - The demo catalog

    static let fullSeedCounts: [String: [String: Int]] = [
        "genre": ["drama": 8, "action": 3, "comedy": 2],
        "rating": ["1": 1, "2": 2, "3": 1, "4": 1, "5": 8],
        "duration": ["1h": 3, "2h": 5, "3h": 5],
        "year": ["1950s": 1, "1960s": 1, "1970s": 2, "1990s": 1, "2000s": 1, "2010s": 7],
        "certification": [:],
    ]

    struct SeedCase: Sendable, CustomStringConvertible {
        let arguments: [String]
        let expected: [String: [String: Int]]
        var description: String { arguments.isEmpty ? "(empty set)" : arguments.joined(separator: " ") }
    }

    /// Expected numbers worked out by hand from SPEC section 6's table.
    static let seedCases: [SeedCase] = [
        SeedCase(arguments: [], expected: fullSeedCounts),
        // Genre counts apply rating 5 only; rating counts apply drama only; the rest apply both.
        SeedCase(arguments: ["--genre", "drama", "--rating", "5"], expected: [
            "genre": ["drama": 6, "comedy": 2], "rating": ["1": 1, "2": 1, "5": 6],
            "duration": ["2h": 2, "3h": 4], "year": ["1960s": 1, "1970s": 2, "2010s": 3], "certification": [:]]),
        // exclude-genre is a facet of its own: it still applies to the genre counts.
        SeedCase(arguments: ["--exclude-genre", "drama"], expected: [
            "genre": ["action": 3, "comedy": 2], "rating": ["2": 1, "3": 1, "4": 1, "5": 2],
            "duration": ["1h": 2, "2h": 2, "3h": 1], "year": ["1950s": 1, "1990s": 1, "2010s": 3], "certification": [:]]),
        // A selected value whose count is 0 is still listed; other zero counts are left out.
        SeedCase(arguments: ["--genre", "drama", "--exclude-genre", "drama"], expected: [
            "genre": ["drama": 0, "action": 3, "comedy": 2], "rating": [:], "duration": [:], "year": [:],
            "certification": [:]]),
        SeedCase(arguments: ["--genre", "drama", "--year", "1990s"], expected: [
            "genre": ["comedy": 1, "drama": 0], "rating": [:], "duration": [:],
            "year": ["1960s": 1, "1970s": 2, "1990s": 0, "2000s": 1, "2010s": 4], "certification": [:]]),
        SeedCase(arguments: ["genre:comedy", "year:1990s"], expected: [
            "genre": ["comedy": 1], "rating": ["5": 1], "duration": ["2h": 1],
            "year": ["1990s": 1, "2010s": 1], "certification": [:]]),
        // Elements of the same facet are OR-ed and do not narrow their own facet's counts.
        SeedCase(arguments: ["--rating", "1", "--rating", "2"], expected: [
            "genre": ["drama": 2, "action": 1], "rating": fullSeedCounts["rating"]!,
            "duration": ["1h": 1, "2h": 2], "year": ["2000s": 1, "2010s": 2], "certification": [:]]),
        // A selected range is listed under its own token with what it matches.
        SeedCase(arguments: ["--duration", "..90m"], expected: [
            "genre": ["action": 1, "comedy": 1, "drama": 1], "rating": ["2": 1, "3": 1, "5": 1],
            "duration": ["1h": 3, "2h": 5, "3h": 5, "..90m": 3],
            "year": ["1950s": 1, "2000s": 1, "2010s": 1], "certification": [:]]),
    ]

    @Test("facets --format json on the demo catalog", arguments: seedCases)
    func seedCounts(_ c: SeedCase) throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat(["facets", "--format", "json"] + c.arguments)
        #expect(run.status == 0, "\(run)")
        let counts = try Self.jsonCounts(run)
        #expect(counts == c.expected, "\(run)")
    }

    @Test("the table has the app's sections in order, with counts")
    func tableSections() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("facets")
        #expect(run.status == 0, "\(run)")
        let (sections, lines) = Self.tableLines(run.stdout)
        #expect(sections == ["Genre", "Rating", "Duration", "Year", "Certification"], "\(run)")
        #expect(lines.allSatisfy { !$0.selected }, "\(run)")
        let titles = ["genre": "Genre", "rating": "Rating", "duration": "Duration", "year": "Year"]
        for (facet, values) in Self.fullSeedCounts where facet != "certification" {
            for (value, count) in values {
                #expect(lines.contains(TableLine(section: titles[facet]!, selected: false, label: value, count: count)),
                        "\(facet) \(value) \(count) missing:\n\(run.stdout)")
            }
        }
        #expect(lines.count == Self.fullSeedCounts.values.map(\.count).reduce(0, +), "\(run)")
    }

    @Test("selected values are marked [x] in the table, others [ ]")
    func tableMarks() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("facets", "--genre", "drama", "--rating", "5", "--year", "1990s")
        #expect(run.status == 0, "\(run)")
        let (_, lines) = Self.tableLines(run.stdout)
        let marked = lines.filter(\.selected).map { "\($0.section):\($0.label):\($0.count)" }
        // drama with rating 5 in the 1990s: none, yet each selected value is listed (with 0).
        #expect(marked.sorted() == ["Genre:drama:0", "Rating:5:0", "Year:1990s:0"], "\(run)")
        #expect(lines.contains(TableLine(section: "Genre", selected: false, label: "comedy", count: 1)), "\(run)")
    }

    @Test("tokens: rating bucket, 0h under an hour, decade, upper-case certification; movies without a value count nowhere")
    func tokens() throws {
        let box = try Sandbox()
        try box.seed()
        let added = try box.moviecat("add", "--title", "Short Film", "--year", "1999", "--genre", "drama",
                                     "--rating", "10", "--duration", "45", "--certification", "pg-13")
        try #require(added.status == 0, "\(added)")
        try #require(try box.moviecat("add", "--title", "Unknown Quantity").status == 0)
        let run = try box.moviecat("facets", "--format", "json")
        let counts = try Self.jsonCounts(run)
        #expect(counts["duration"] == ["0h": 1, "1h": 3, "2h": 5, "3h": 5], "\(run)")
        #expect(counts["rating"]?["10"] == 1, "\(run)")
        #expect(counts["year"]?["1990s"] == 2, "\(run)")
        #expect(counts["certification"] == ["PG-13": 1], "\(run)")
        #expect(counts["genre"]?["drama"] == 9, "\(run)")
        // The movie with no values is counted under none of them.
        for facet in ["rating", "duration", "year"] {
            #expect(counts[facet]?.values.reduce(0, +) == 14, "\(facet): \(run)")
        }
        // Every token is a filter value that selects what it counted.
        for (facet, value, count) in [("duration", "0h", 1), ("rating", "10", 1), ("year", "1990s", 2),
                                      ("certification", "PG-13", 1), ("duration", "2h", 5)] {
            let filtered = try box.moviecat("filter", "--count", "\(facet):\(value)")
            #expect(filtered.status == 0 && filtered.stdout == "\(count)\n", "\(facet):\(value) \(filtered)")
        }
        let table = try box.moviecat("facets")
        #expect(Self.tableLines(table.stdout).lines.contains(
            TableLine(section: "Certification", selected: false, label: "PG-13", count: 1)), "\(table)")
    }

    @Test("a rating far outside 0..10, stored by someone who bypassed the CHECKs, is bucketed as SQL's CAST does, not a crash")
    func outOfRangeRating() throws {
        let box = try Sandbox()
        try box.seed()
        try box.sqlite3("""
            PRAGMA ignore_check_constraints = ON;
            INSERT INTO movies (title, rating, added_at, updated_at) VALUES ('Huge', 1e300, 0, 0), ('Tiny', -1e300, 0, 0);
            """)
        let run = try box.moviecat("facets", "--format", "json")
        #expect(run.status == 0, "\(run)")
        let counts = try Self.jsonCounts(run)
        #expect(counts["rating"]?["9223372036854775807"] == 1 && counts["rating"]?["-9223372036854775808"] == 1, "\(run)")
    }

    // MARK: - Random catalogs against the definition

    @Test("random catalog: every count equals filter --count with that value and the rest of the set")
    func randomCatalog() throws {
        var rng = SeededRandom(seed: 0x5EED_FACE)
        let catalog = RandomCatalog(count: 150, using: &rng)
        let box = try Sandbox()
        let imported = try box.moviecat("import", box.write("random.csv", catalog.csv))
        try #require(imported.status == 0, "\(imported)")
        var sets: [[RandomCatalog.Element]] = [[]]
        while sets.count < 15 { sets.append(catalog.randomSet(using: &rng)) }
        var checked = 0, nonEmptySets = 0
        for set in sets {
            let tokens = set.map(\.token)
            let run = try box.moviecat(["facets", "--format", "json"] + tokens)
            try #require(run.status == 0, "\(tokens): \(run)")
            let counts = try Self.jsonCounts(run)
            // Brute force in the test, over the movies it generated.
            #expect(counts == catalog.expectedFacets(set), "set \(tokens)")
            // The definition, through the binary: the value added to the set minus its own facet.
            for (facet, values) in counts {
                let rest = set.filter { $0.facet != facet }.map(\.token)
                for (value, count) in values {
                    let check = try box.moviecat(["filter", "--count"] + rest + ["\(facet):\(value)"])
                    #expect(check.stdout == "\(count)\n", "set \(tokens), \(facet):\(value) facets says \(count): \(check)")
                    checked += 1
                }
            }
            if counts.values.contains(where: { $0.values.contains { $0 > 0 } }) { nonEmptySets += 1 }
        }
        // The random sets really exercised something.
        #expect(checked > 200 && nonEmptySets >= 10, "\(checked) values checked, \(nonEmptySets) sets with counts")
    }

    // MARK: - The stored counts with nothing selected (movie_facet_totals)

    /// The counts with nothing selected as SQL over the SPEC tables gives them, read by sqlite3.
    static func sqlCounts(_ box: Sandbox) throws -> [String: [String: Int]] {
        func grouped(_ query: String) throws -> [String: Int] {
            Dictionary(uniqueKeysWithValues: try box.sql(query).map { line in
                let parts = line.split(separator: "|", omittingEmptySubsequences: false)
                return (String(parts[0]), Int(parts[1])!)
            })
        }
        return [
            "genre": try grouped("SELECT g.code, count(*) FROM movies m JOIN movie_genres mg ON mg.movie_id = m.id JOIN genres g ON g.id = mg.genre_id GROUP BY g.code"),
            "rating": try grouped("SELECT CAST(rating AS INTEGER), count(*) FROM movies WHERE rating IS NOT NULL GROUP BY 1"),
            "duration": try grouped("SELECT (duration_minutes / 60) || 'h', count(*) FROM movies WHERE duration_minutes IS NOT NULL GROUP BY 1"),
            "year": try grouped("SELECT (year / 10 * 10) || 's', count(*) FROM movies WHERE year IS NOT NULL GROUP BY 1"),
            "certification": try grouped("SELECT certification, count(*) FROM movies WHERE certification IS NOT NULL GROUP BY 1"),
        ]
    }

    @Test("with nothing selected the counts come from movie_facet_totals, which a sqlite3 user's edits leave out of date in no count")
    func storedTotals() throws {
        let box = try Sandbox()
        try box.seed()
        // The demo movies' ids are all in block 0, counted when they were written.
        #expect(try box.sql("SELECT block, counts IS NOT NULL FROM movie_facet_totals") == ["0|1"])
        var run = try box.moviecat("facets", "--format", "json")
        #expect(try Self.jsonCounts(run) == Self.fullSeedCounts, "\(run)")
        // A sqlite3 user's edits: block 0 loses its stored counts (a trigger), block 1 has none.
        _ = try box.sql("""
            UPDATE movies SET rating = 1.5, certification = 'R' WHERE id = 1;
            INSERT INTO movies (id, title, year, rating, duration_minutes) VALUES (5000, 'Far Away', 1931, 9.5, 200);
            INSERT INTO movie_genres (movie_id, genre_id) SELECT 5000, id FROM genres WHERE code = 'war'
            """)
        #expect(try box.sql("SELECT block FROM movie_facet_totals") == [])
        run = try box.moviecat("facets", "--format", "json")
        #expect(run.status == 0, "\(run)")
        #expect(try Self.jsonCounts(run) == Self.sqlCounts(box), "\(run)")
        #expect(try Self.jsonCounts(run)["rating"]?["9"] == 1, "\(run)")
        // moviecat's next write stores both blocks again; the counts stay those of the rows.
        run = try box.moviecat("add", "--title", "Near", "--year", "2001", "--rating", "4", "--genre", "drama")
        try #require(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT block, counts IS NOT NULL FROM movie_facet_totals ORDER BY block") == ["0|1", "1|1"])
        run = try box.moviecat("facets", "--format", "json")
        #expect(try Self.jsonCounts(run) == Self.sqlCounts(box), "\(run)")
        // Counts written past the triggers are what the list shows: the stored blocks are read.
        _ = try box.sql("UPDATE movie_facet_totals SET counts = (SELECT counts FROM movie_facet_totals WHERE block = 1) WHERE block = 0")
        run = try box.moviecat("facets", "--format", "json")
        // (block 1 holds Far Away, war, and Near, drama: now counted twice each)
        #expect(try Self.jsonCounts(run)["genre"] == ["war": 2, "drama": 2], "\(run)")
    }
}

import Foundation
import Testing

/// `filter --explain` and `presets show NAME --sql`: SQL with `?`, bound values in order, query plan.
@Suite struct ExplainTests {
    struct Explained {
        let sql: String
        let bindings: [String]
        let plan: [String]
    }

    /// Splits the output into its sections (moviecat's plan, SQL, bindings, SQLite's plan); bindings
    /// are listed as `?N = literal`, N counting from 1.
    static func parse(_ run: Run) throws -> Explained {
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let chosenAt = try #require(lines.firstIndex(of: "PLAN:"), "no PLAN: section\n\(run)")
        let sqlAt = try #require(lines.firstIndex(of: "SQL:"), "no SQL: section\n\(run)")
        let bindingsAt = try #require(lines.firstIndex(of: "BINDINGS:"), "no BINDINGS: section\n\(run)")
        let planAt = try #require(lines.firstIndex(of: "QUERY PLAN:"), "no QUERY PLAN: section\n\(run)")
        try #require(chosenAt == 0 && chosenAt < sqlAt && sqlAt < bindingsAt && bindingsAt < planAt, "sections out of order\n\(run)")
        // The chosen driver, the cost of each one considered, and whether a count is split.
        let costs = lines[2...].prefix { $0 != "SQL:" }
        let notes = ["  on a large catalog", "  counted in moviecat", "  counted from", "  (blocks without", "  the page ends among", "  a deep page:",
                     "  the walk gives up", "  the cheapest plan's walk"]
        #expect(lines[1].hasPrefix("  ") && costs.filter { line in !notes.contains { line.hasPrefix($0) } }.allSatisfy { $0.hasPrefix("  cost of ") }, "\(run)")
        let sql = lines[(sqlAt + 1)..<bindingsAt].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        var bindings: [String] = []
        for line in lines[(bindingsAt + 1)..<planAt] where line.trimmingCharacters(in: .whitespaces) != "(none)" {
            let match = try #require(line.wholeMatch(of: /\s+\?(\d+) = (.*)/), "bad binding line '\(line)'\n\(run)")
            #expect(Int(match.1) == bindings.count + 1, "bindings out of order\n\(run)")
            bindings.append(String(match.2))
        }
        let plan = lines[(planAt + 1)...].filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return Explained(sql: sql, bindings: bindings, plan: plan)
    }

    /// The `?` placeholders of a statement, outside quoted literals and identifiers.
    static func placeholderCount(_ sql: String) -> Int { substitute(sql, []).count }

    /// The statement with each `?` replaced, in order, by the printed literal; also returns how many it met.
    static func substitute(_ sql: String, _ values: [String]) -> (text: String, count: Int) {
        var out = "", quote: Character? = nil, used = 0
        for c in sql {
            if let q = quote {
                if c == q { quote = nil }
                out.append(c)
            } else if c == "'" || c == "\"" {
                quote = c
                out.append(c)
            } else if c == "?" {
                out += used < values.count ? values[used] : "?"
                used += 1
            } else {
                out.append(c)
            }
        }
        return (out, used)
    }

    /// A printed literal as the value it binds: quotes removed and undoubled.
    static func value(_ literal: String) -> String {
        guard literal.count >= 2, literal.hasPrefix("'"), literal.hasSuffix("'") else { return literal }
        return String(literal.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
    }

    /// Whether a printed literal binds `expected` (numbers compared as numbers: 5 and 5.0 agree).
    static func binds(_ literal: String, _ expected: String) -> Bool {
        let v = value(literal)
        if let a = Double(v), let b = Double(expected) { return a == b }
        return v == expected
    }

    /// The checks every explained statement must pass.
    static func checkShape(_ e: Explained, hostile: [String] = [], _ run: Run) {
        #expect(placeholderCount(e.sql) == e.bindings.count, "placeholders vs bindings\n\(run)")
        #expect(!e.plan.isEmpty && e.plan.contains { $0.contains("SEARCH") || $0.contains("SCAN") }, "\(run)")
        for text in hostile {
            #expect(!e.sql.contains(text), "'\(text)' was spliced into the SQL\n\(run)")
            // Bound as typed, or in lower case (a title's phrase for the title index).
            #expect(e.bindings.contains { value($0).lowercased().contains(text.lowercased()) }, "'\(text)' missing from the bindings\n\(run)")
        }
    }

    /// The demo catalog plus movies with certifications and in-between ratings, so ranges matter.
    static func catalog() throws -> Sandbox {
        let box = try Sandbox()
        try box.seed()
        for movie in [["--title", "Heat", "--year", "1995", "--genre", "crime,drama", "--rating", "8.3",
                       "--duration", "2h50m", "--certification", "R"],
                      ["--title", "100% Sure_Thing", "--year", "1999", "--genre", "comedy", "--rating", "6.5",
                       "--duration", "95", "--certification", "PG-13"],
                      ["--title", "Toy Story", "--year", "1995", "--genre", "animation,comedy", "--rating", "8.3",
                       "--duration", "81", "--certification", "G"]] {
            let run = try box.moviecat(["add"] + movie)
            try #require(run.status == 0, "\(run)")
        }
        return box
    }

    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        /// Values that must be among the bindings, in this order.
        var bindings: [String] = []
        /// User text that must appear only in the bindings.
        var hostile: [String] = []
        var description: String { arguments.isEmpty ? "(empty set)" : arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: []),
        // Genres bind as their bits in movie_facets.genres: bit (id - 1); drama is genre 8.
        Case(arguments: ["--genre", "drama"], bindings: ["128"]),
        Case(arguments: ["--rating", "6..8.5"], bindings: ["6", "8.5"]),
        Case(arguments: ["--duration", "90m..2h30m", "--year", "1990s"], bindings: ["90", "150", "1990", "1999"]),
        Case(arguments: ["--genre", "action,comedy", "--exclude-genre", "animation", "--rating", "7.5..",
                         "--certification", "pg-13", "--year", "1990..1999"],
             bindings: ["17", "4", "7.5", "PG-13"]),  // action (1) | comedy (5), animation (3)
        Case(arguments: ["--title", "x' OR 1=1 --"], hostile: ["OR 1=1"]),
        Case(arguments: ["--title", "'; DROP TABLE movies; --", "--genre", "drama"], hostile: ["DROP TABLE"]),
        Case(arguments: ["--title", "100%_"], hostile: ["100"]),
        Case(arguments: ["genre:drama", "rating:5", "duration:3h", "--sort", "rating", "--desc", "--limit", "3"],
             bindings: ["128", "5"]),
    ]

    @Test("filter --explain prints SQL with ?, the bindings in order and the plan", arguments: cases)
    func explain(_ c: Case) throws {
        let box = try Self.catalog()
        let before = try box.dump()
        let run = try box.moviecat(["filter", "--explain"] + c.arguments)
        #expect(run.status == 0, "\(run)")
        let e = try Self.parse(run)
        Self.checkShape(e, hostile: c.hostile, run)
        // The expected literals appear in this order among the bindings.
        var rest = e.bindings[...]
        for literal in c.bindings {
            let at = rest.firstIndex { Self.binds($0, literal) }
            #expect(at != nil, "\(literal) not bound (in order)\n\(run)")
            if let at { rest = rest[(at + 1)...] }
        }
        // The bindings put back in place, in order, select exactly what filter prints.
        let listed = try box.moviecat(["filter", "--format", "csv"] + c.arguments)
        let expectedIDs = listed.lines.dropFirst().map { String($0.prefix { $0 != "," }) }
        let rows = try box.sql(Self.substitute(e.sql, e.bindings).text)
        #expect(rows.map { String($0.prefix { $0 != "|" }) } == expectedIDs, "\(e.sql)\n\(e.bindings)")
        #expect(try box.dump() == before, "explaining changed the catalog")
    }

    @Test("--explain of a page reaching past Int64 shows its estimates clamped (a walk's cost beyond Int used to trap)",
          arguments: [["--sort", "rating", "--limit", "9223372036854775807", "--offset", "1"],
                      ["--sort", "year", "--limit", "5", "--offset", "9223372036854775807"]])
    func explainHugePage(_ page: [String]) throws {
        let box = try Self.catalog()
        let run = try box.moviecat(["filter", "--explain"] + page)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(run.stdout.hasPrefix("PLAN:\n") && run.stdout.contains("rows\n"), "\(run)")
    }

    @Test("filter --explain --count explains the count query")
    func explainCount() throws {
        let box = try Self.catalog()
        let args = ["--genre", "drama", "--rating", "5", "--title", "god' --"]
        let run = try box.moviecat(["filter", "--explain", "--count"] + args)
        #expect(run.status == 0, "\(run)")
        let e = try Self.parse(run)
        Self.checkShape(e, hostile: ["god"], run)
        #expect(e.sql.localizedCaseInsensitiveContains("count("), "\(run)")
        let counted = try box.moviecat(["filter", "--count"] + args)
        #expect(try box.sql(Self.substitute(e.sql, e.bindings).text) == [counted.stdout.trimmingCharacters(in: .newlines)])

        // A scan of movie_facets is counted in parts on a large catalog, and says so; a listing is not.
        try box.sqlite3("UPDATE movies SET votes = 100")   // votes 1.. then matches every movie: a scan
        let scan = try box.moviecat("filter", "--explain", "--count", "--genre", "drama", "--votes", "1..")
        #expect(scan.stdout.contains("  on a large catalog: counted in parts by f.id range, one per core\n"), "\(scan)")
        _ = try Self.parse(scan)
        // Without votes, title or IMDb ids, the scan reads the stored packed facet rows instead.
        let packed = try box.moviecat("filter", "--explain", "--count", "--genre", "drama")
        #expect(packed.stdout.contains("  counted in moviecat from the packed facet rows of movie_facet_totals"), "\(packed)")
        #expect(!packed.stdout.contains("in parts by"), "\(packed)")
        _ = try Self.parse(packed)
        // Nothing selected: the count is the blocks' row counts.
        let all = try box.moviecat("filter", "--explain", "--count")
        #expect(all.stdout.contains("  counted from the row count at the head of each block's packed facet rows in movie_facet_totals\n"), "\(all)")
        #expect(!all.stdout.contains("in parts by") && !all.stdout.contains("in moviecat from"), "\(all)")
        _ = try Self.parse(all)
        #expect(try box.moviecat("filter", "--count").stdout == "\(try box.sql("SELECT count(*) FROM movies")[0])\n")
        // A title scan reads movies by id, and is counted in parts too.
        let titled = try box.moviecat("filter", "--explain", "--count", "--genre", "drama", "--title", "go")
        #expect(titled.stdout.contains("  on a large catalog: counted in parts by m.id range, one per core\n"), "\(titled)")
        #expect(titled.stdout.contains("SCAN m\n"), "\(titled)")
        _ = try Self.parse(titled)
        let listing = try box.moviecat("filter", "--explain", "--genre", "drama")
        #expect(!listing.stdout.contains("in parts"), "\(listing)")
    }

    @Test("a page ending among very many movies of one year says it walks them in title order, and lists the plain query's movies")
    func largeTie() throws {
        let box = try Sandbox()
        // 3,000 movies, 2,000 of them from 2030: the newest first page ends inside that year.
        var csv = "title,year,rating\n"
        for i in 1...3_000 { csv += "Film \(i),\(i % 3 == 0 ? 1950 + i % 70 : 2030),\(Double(i % 100) / 10)\n" }
        let file = try box.write("ties.csv", csv)
        #expect(try box.moviecat("import", file, "--quiet").status == 0)
        let run = try box.moviecat("filter", "--sort", "year", "--desc", "--limit", "50", "--offset", "5", "--explain")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("  the page ends among the many movies with year 2030: those walked in title order\n"), "\(run)")
        let explained = try Self.parse(run)
        #expect(explained.plan.contains { $0.contains("SCAN m USING INDEX movies_natural_key") }, "\(run)")
        let listed = try box.moviecat("filter", "--sort", "year", "--desc", "--limit", "50", "--offset", "5", "--format", "csv")
        let ids = listed.stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) }
        let plain = try box.sql("SELECT id FROM movies ORDER BY year DESC, title COLLATE NOCASE, ifnull(year, 0), ifnull(imdb_id, ''), id LIMIT 50 OFFSET 5")
        #expect(ids == plain)
        // A first page of few ties says nothing of the kind.
        let oldest = try box.moviecat("filter", "--sort", "year", "--limit", "10", "--explain")
        #expect(oldest.status == 0 && !oldest.stdout.contains("the page ends among"), "\(oldest)")
    }

    @Test("a deep page by rating says how many matches it skipped by counting each rating, and lists the plain query's movies")
    func deepPageSkip() throws {
        let box = try Sandbox()
        // 60,000 movies, 600 of each rating 0.0 to 9.9: past 50,000 rows a page is deep.
        var csv = "title,year,rating\n"
        for i in 0..<60_000 { csv += "Film \(i),\(1950 + i % 70),\(Double(i % 100) / 10)\n" }
        let file = try box.write("deep.csv", csv)
        #expect(try box.moviecat("import", file, "--quiet").status == 0)
        let run = try box.moviecat("filter", "--sort", "rating", "--offset", "55000", "--limit", "5", "--explain")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("  a deep page: the matches of each rating value counted first; the 54,600 before rating 9.1 skipped, those from there to the page's end numbered\n"), "\(run)")
        _ = try Self.parse(run)
        for (sort, order) in [("rating", "rating"), ("year", "year DESC")] {
            var arguments = ["filter", "--sort", sort, "--offset", "55000", "--limit", "5", "--format", "csv"]
            if order.hasSuffix("DESC") { arguments.append("--desc") }
            let listed = try box.moviecat(arguments)
            let ids = listed.stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "," }) }
            let plain = try box.sql("SELECT id FROM movies ORDER BY \(order), title COLLATE NOCASE, ifnull(year, 0), ifnull(imdb_id, ''), id LIMIT 5 OFFSET 55000")
            #expect(ids == plain && ids.count == 5, "\(sort)")
        }
    }

    @Test("a page the sample misjudges: the walk says when it gives up and for which plan, and the page is the plain query's, as a table too")
    func walkGivesUp() throws {
        let box = try Sandbox()
        // 50,000 movies: dramas rated 9 and more, comedies less but for two last in title order
        // and by year.
        var csv = "title,year,rating,genres\n"
        for i in 0..<50_000 {
            let drama = i % 2 == 0
            csv += "Film \(i),\(1950 + i % 70),\(drama ? 9 + Double(i % 10) / 10 : Double(i % 89) / 10),\(drama ? "drama" : "comedy")\n"
        }
        csv += "Zz 1,2099,9.9,comedy\nZz 2,2100,9.5,comedy\n"
        let file = try box.write("walk.csv", csv)
        #expect(try box.moviecat("import", file, "--quiet").status == 0)
        // In title order: a walk for the first movie, given up for the next plan.
        let run = try box.moviecat("filter", "genre:comedy", "rating:9..", "--sort", "title", "--limit", "1", "--explain")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasPrefix("PLAN:\n  walk the title order"), "\(run)")
        #expect(run.stdout.contains(/\n  the walk gives up if its page is not ready after [0-9,]+ SQLite steps, a page read counting 32 \(the next plan costs [0-9,]+ rows\); then: \w/), "\(run)")
        _ = try Self.parse(run)
        // By year: the look for a large tie at the page's end runs out of the walk's steps while
        // the plan is made; the next plan is the plan.
        let year = try box.moviecat("filter", "genre:comedy", "rating:9..", "--sort", "year", "--limit", "1", "--explain")
        #expect(year.status == 0 && !year.stdout.hasPrefix("PLAN:\n  walk"), "\(year)")
        #expect(year.stdout.contains(/\n  the cheapest plan's walk in sort order found no page's end within its [0-9,]+ SQLite steps \(a page read counts 32\) while planning: this plan instead\n/), "\(year)")
        _ = try Self.parse(year)
        let listed = try box.moviecat("filter", "genre:comedy", "rating:9..", "--sort", "year", "--limit", "3", "--format", "csv")
        #expect(listed.lines.dropFirst().map { String($0.prefix { $0 != "," }) } == (try box.sql("SELECT id FROM movies WHERE title LIKE 'Zz %' ORDER BY year")))
        let table = try box.moviecat("filter", "genre:comedy", "rating:9..", "--sort", "year", "--limit", "3")
        #expect(table.status == 0 && table.lines.count == 3 && table.lines[1].contains("Zz 1") && table.lines[2].contains("Zz 2"), "\(table)")
    }

    @Test("presets show NAME --sql explains the saved set")
    func presetSQL() throws {
        let box = try Self.catalog()
        let saved = try box.moviecat("save-preset", "Sneaky", "--genre", "comedy,drama", "--rating", "5..",
                                     "--title", "a' OR 'a'='a")
        try #require(saved.status == 0, "\(saved)")
        let run = try box.moviecat("presets", "show", "sneaky", "--sql")
        #expect(run.status == 0, "\(run)")
        let e = try Self.parse(run)
        Self.checkShape(e, hostile: ["OR 'a'='a"], run)
        for expected in ["144", "5"] {  // comedy (5) | drama (8) as bits
            #expect(e.bindings.contains { Self.binds($0, expected) }, "\(expected) not bound\n\(run)")
        }
        let listed = try box.moviecat("filter", "--preset", "Sneaky", "--format", "csv")
        let rows = try box.sql(Self.substitute(e.sql, e.bindings).text)
        #expect(rows.map { String($0.prefix { $0 != "|" }) } == listed.lines.dropFirst().map { String($0.prefix { $0 != "," }) })

        let missing = try box.moviecat("presets", "show", "nothing-here", "--sql")
        #expect(missing.status == 1 && missing.stdout.isEmpty, "\(missing)")
        #expect(missing.stderr.contains("moviecat: error:") && missing.stderr.contains("nothing-here"), "\(missing)")
    }

    @Test("hostile values leave the catalog as it was and match literally")
    func hostileValuesAreData() throws {
        let box = try Self.catalog()
        let before = try box.dump()
        for (title, count) in [("'; DROP TABLE movies; --", 0), ("x' OR 1=1 --", 0), ("\" OR \"\"=\"", 0),
                               ("%", 1), ("_", 1), ("%%", 0)] {
            let run = try box.moviecat("filter", "--count", "--title", title)
            #expect(run.status == 0 && run.stdout == "\(count)\n", "\(title): \(run)")
        }
        // % and _ are literal: only the title that contains them matches.
        let literal = try box.moviecat("filter", "--format", "csv", "--title", "0% sure_")
        #expect(literal.lines.count == 2 && literal.stdout.contains("100% Sure_Thing"), "\(literal)")
        #expect(try box.dump() == before)
    }
}

import Foundation
import Testing
import TestSupport

/// Issue 3, tests: the same movies written as CSV, TSV, JSON and JSON Lines import to identical
/// catalogs; `filter --format jsonl | import --format jsonl -` reproduces a catalog; an IMDb-style
/// `title.basics.tsv` imports correctly.
@Suite struct ImportRoundTripTests {
    /// One generated movie, with the text forms its values are written in.
    struct Movie {
        var title: String
        var year: Int?
        /// Tenths: 75 is 7.5.
        var rating: Int?
        var minutes: Int?
        /// How the duration is written in text formats (`95`, `2h`, `1h 35m`, `1:35:00`).
        var durationText: String?
        var certification: String?
        var genres: [String]
    }

    static let hostile = ["Plain", "\"Quoted\"", "comma, here", "semi;colon", "pipe|bar", "Amélie", "Ñandú", "東京物語",
                          "Привет", "עברית", "🎬", "👩‍👩‍👧", "e\u{301}", "back\\slash", "\\N inside", "'single'", "null",
                          "true", "{\"json\": 1}", "[1]", "1994", "<b>html</b>", "%_like", "zero\u{200B}width", "~/x"]
    /// Only where no TSV is written: TSV has no quoting.
    static let unquotable = ["tab\there", "new\nline", "crlf\r\nend", "\"\nquote then line"]
    static let prefixes = ["", "", "", "=", "-", "+", "@", " ", "  \""]
    static let certifications = ["G", "PG", "pg-13", "R", "NC-17", "tv-ma", "Unrated"]
    /// Genre names as written, with the code each must end up as.
    static let genreCodes = ["Drama": "drama", "drama": "drama", "Comedy": "comedy", "Sci-Fi": "sci-fi", "SCI-FI": "sci-fi",
                             "Film Noir": "film-noir", "film-noir": "film-noir", "Action": "action", "Neo Noir": "neo-noir",
                             "K-Drama": "k-drama", "thriller": "thriller"]

    static func generate(round: Int, count: Int = 40) -> [Movie] {
        var random = SeededRandom(seed: 0x5EED_0000 + UInt64(round))
        let pieces = hostile + (round % 2 == 0 ? [] : unquotable)
        var seen = Set<String>()
        var movies: [Movie] = []
        while movies.count < count {
            var title = prefixes.randomElement(using: &random)!
            for i in 0..<Int.random(in: 1...4, using: &random) {
                title += (i == 0 ? "" : " ") + pieces.randomElement(using: &random)!
            }
            let key = title.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            var movie = Movie(title: title, genres: [])
            if Int.random(in: 0..<10, using: &random) < 7 { movie.year = Int.random(in: 1870...2100, using: &random) }
            if Int.random(in: 0..<10, using: &random) < 7 { movie.rating = Int.random(in: 0...100, using: &random) }
            if Int.random(in: 0..<10, using: &random) < 7 {
                let minutes = Int.random(in: 1...400, using: &random)
                movie.minutes = minutes
                let (h, m) = (minutes / 60, minutes % 60)
                switch Int.random(in: 0..<4, using: &random) {
                case 1 where m == 0: movie.durationText = "\(h)h"
                case 2 where h > 0: movie.durationText = "\(h)h \(m)m"
                case 3: movie.durationText = "\(h):" + (m < 10 ? "0" : "") + "\(m):00"
                default: movie.durationText = "\(minutes)"
                }
            }
            if Bool.random(using: &random) { movie.certification = certifications.randomElement(using: &random)! }
            movie.genres = (0..<Int.random(in: 0...3, using: &random)).map { _ in genreCodes.keys.sorted().randomElement(using: &random)! }
            movies.append(movie)
        }
        return movies
    }

    static func ratingText(_ tenths: Int) -> String { "\(tenths / 10).\(tenths % 10)" }

    /// Rows as `Sandbox.movieRows` gives them, with titles as hex (byte-exact), sorted by bytes.
    static func expectedRows(_ movies: [Movie]) -> [[String]] {
        movies.map { m in
            // Stored composed (NFC): `e` and U+0301 as `é`.
            [hex(m.title.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping), m.year.map(String.init) ?? sqlNull,
             m.rating.map(ratingText) ?? sqlNull, m.minutes.map(String.init) ?? sqlNull,
             m.certification?.uppercased() ?? sqlNull, Set(m.genres.map { genreCodes[$0]! }).sorted().joined(separator: "|")]
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func hex(_ text: String) -> String { text.utf8.map { String(format: "%02X", $0) }.joined() }

    /// A catalog's movies with hex titles, sorted the same way as `expectedRows`.
    static func actualRows(_ box: Sandbox, db: String) throws -> [[String]] {
        try box.movieRows(db: db).map { [hex($0[0])] + $0.dropFirst() }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    // MARK: Writers

    static let columns = ["title", "year", "genres", "rating", "duration", "certification"]

    static func cells(_ m: Movie) -> [String: String?] {
        ["title": m.title, "year": m.year.map(String.init), "genres": m.genres.isEmpty ? nil : m.genres.joined(separator: "|"),
         "rating": m.rating.map(ratingText), "duration": m.durationText, "certification": m.certification]
    }

    static func delimited(_ movies: [Movie], tsv: Bool, random: inout SeededRandom) -> String {
        let order = columns.shuffled(using: &random)
        let separator = tsv ? "\t" : ","
        var out = (tsv ? "" : "\u{FEFF}") + order.joined(separator: separator) + "\n"
        for m in movies {
            let row = cells(m)
            out += order.map { column -> String in
                let value = row[column]!
                if tsv { return value.map { column == "genres" ? $0.replacing("|", with: ",") : $0 } ?? (Bool.random(using: &random) ? "\\N" : "") }
                return csvField(value ?? "", always: Bool.random(using: &random))
            }.joined(separator: separator) + (Bool.random(using: &random) ? "\r\n" : "\n")
        }
        return out
    }

    static func jsonObject(_ m: Movie, random: inout SeededRandom) -> String {
        var members: [String] = []
        let ascii = Bool.random(using: &random)
        for column in columns.shuffled(using: &random) {
            let value: String?
            switch column {
            case "title": value = jsonString(m.title, asciiOnly: ascii)
            case "year": value = m.year.map(String.init)
            case "rating": value = m.rating.map(ratingText)
            case "duration": value = m.durationText.map { Int($0) != nil ? $0 : jsonString($0) }
            case "certification": value = m.certification.map { jsonString($0) }
            default:
                if m.genres.isEmpty { value = Bool.random(using: &random) ? "[]" : nil }
                else if Bool.random(using: &random) { value = jsonString(m.genres.joined(separator: ";")) }
                else { value = "[" + m.genres.map { jsonString($0, asciiOnly: ascii) }.joined(separator: ", ") + "]" }
            }
            if let value { members.append(jsonString(column) + ": " + value) }
            else if Bool.random(using: &random) { members.append(jsonString(column) + ": null") }
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    // MARK: Tests

    @Test("random hostile movie lists import to identical catalogs from every format", arguments: 0..<10)
    func property(_ round: Int) throws {
        let movies = Self.generate(round: round)
        var random = SeededRandom(seed: 0xF0F0 + UInt64(round))
        let box = try Sandbox()
        var files = [
            "movies.csv": Self.delimited(movies, tsv: false, random: &random),
            "movies.json": "[\n" + movies.map { Self.jsonObject($0, random: &random) }.joined(separator: ",\n") + "\n]\n",
            "movies.jsonl": movies.map { Self.jsonObject($0, random: &random) + "\n" }.joined(),
        ]
        let tsvSafe = !movies.contains { $0.title.unicodeScalars.contains { $0 == "\t" || $0 == "\n" || $0 == "\r" } }
        #expect(tsvSafe == (round % 2 == 0), "TSV is written in the even rounds")
        if tsvSafe { files["movies.tsv"] = Self.delimited(movies, tsv: true, random: &random) }
        let expected = Self.expectedRows(movies)
        var genreTables: [[[String]]] = []
        for (name, text) in files.sorted(by: { $0.key < $1.key }) {
            try box.write(name, text)
            let db = box.path(name + ".sqlite")
            let run = try runProcess(moviecatBinary, ["--db", db, "import", name], directory: box.dir)
            #expect(run.status == 0, "\(name): \(run)")
            #expect(run.reports == [ReportLine(file: name, read: movies.count, inserted: movies.count)], "\(name): \(run)")
            #expect(try Self.actualRows(box, db: db) == expected, "\(name) imported differently")
            #expect(try box.sql("PRAGMA integrity_check", db: db) == ["ok"])
            // A bulk load runs without foreign-key checks: its links must be right by construction.
            #expect(try box.sql("PRAGMA foreign_key_check", db: db).isEmpty)
            genreTables.append(try box.rows("SELECT code, name FROM genres ORDER BY code", db: db))
        }
        #expect(Set(genreTables).count == 1, "every format added the same genres, named alike")
    }

    /// Pipes `filter --format jsonl` of the sandbox's catalog into `import --format jsonl -` of a new one.
    static func roundTrip(_ box: Sandbox) throws -> String {
        let exported = try box.moviecat("filter", "--format", "jsonl")
        try #require(exported.status == 0, "\(exported)")
        let copy = box.path("copy.sqlite")
        let run = try runProcess(moviecatBinary, ["--db", copy, "import", "--format", "jsonl", "-"],
                                 stdin: Data(exported.stdout.utf8), directory: box.dir)
        #expect(run.status == 0, "\(run)")
        #expect(run.report("-")?.inserted == exported.lines.count, "\(run)")
        return copy
    }

    @Test("filter --format jsonl piped into import --format jsonl - reproduces the catalog", arguments: [1, 2])
    func jsonlRoundTrip(_ round: Int) throws {
        let box = try Sandbox()
        try box.seed()
        // Hostile titles on top of the demo movies, with standard genres only.
        var movies = Self.generate(round: round)
        for i in movies.indices { movies[i].genres = movies[i].genres.filter { ["Drama", "Comedy", "Sci-Fi", "Action"].contains($0) } }
        var random = SeededRandom(seed: UInt64(round))
        try box.write("more.jsonl", movies.map { Self.jsonObject($0, random: &random) + "\n" }.joined())
        #expect(try box.moviecat("import", "more.jsonl").status == 0)
        let copy = try Self.roundTrip(box)
        #expect(try box.movieList(db: copy) == box.movieList())
        #expect(try Self.actualRows(box, db: copy) == Self.actualRows(box, db: box.db))
        #expect(try box.scalar("SELECT count(*) FROM movies", db: copy) == String(13 + movies.count))
        #expect(try box.rows("SELECT code, name FROM genres ORDER BY code", db: copy) == box.rows("SELECT code, name FROM genres ORDER BY code"))
    }

    @Test("a catalog's own CSV and TSV import back whole: yearless titles like a sheet's summary rows are movies there",
          arguments: ["csv", "tsv"])
    func delimitedRoundTrip(_ format: String) throws {
        let box = try Sandbox()
        try box.initEmpty()
        for arguments in [["--title", "Total", "--rating", "7.1"], ["--title", "Note: Fear"], ["--title", "Count: 2", "--duration", "90"],
                          ["--title", "Heat", "--year", "1995"]] {
            #expect(try box.moviecat(["add"] + arguments).status == 0)
        }
        let exported = try box.moviecat("filter", "--format", format)
        try #require(exported.status == 0, "\(exported)")
        let copy = box.path("copy.sqlite")
        let run = try runProcess(moviecatBinary, ["--db", copy, "import", "--format", format, "-"],
                                 stdin: Data(exported.stdout.utf8), directory: box.dir)
        #expect(run.status == 0 && run.reports == [ReportLine(file: "-", read: 4, inserted: 4)], "\(run)")
        #expect(try Self.actualRows(box, db: copy) == Self.actualRows(box, db: box.db))
        // The same rows under another header are a sheet's: its summary rows are left out.
        let sheet = exported.stdout.replacingOccurrences(of: "duration_minutes", with: "minutes")
        let other = try runProcess(moviecatBinary, ["--db", box.path("sheet.sqlite"), "import", "--format", format, "-"],
                                   stdin: Data(sheet.utf8), directory: box.dir)
        #expect(other.status == 0 && other.report("-")?.inserted == 1, "\(other)")
    }

    /// JSON rows carry genre codes (SPEC section 4), so a genre the target catalog does not know
    /// arrives as its code and is named by it; the movies and their genre codes survive exactly.
    @Test("the round trip keeps a genre the catalog added, by its code")
    func jsonlRoundTripNewGenre() throws {
        let box = try Sandbox()
        try box.seed()
        try box.write("noir.csv", "title,year,genres\nSunset Blvd.,1950,Film Noir|Drama\n")
        #expect(try box.moviecat("import", "noir.csv").status == 0)
        let copy = try Self.roundTrip(box)
        #expect(try Self.actualRows(box, db: copy) == Self.actualRows(box, db: box.db), "genre codes survive")
        #expect(try box.rows("SELECT code, name FROM genres WHERE code = 'film-noir'") == [["film-noir", "Film Noir"]])
        #expect(try box.rows("SELECT code, name FROM genres WHERE code = 'film-noir'", db: copy) == [["film-noir", "film-noir"]])
    }

    @Test("IMDb's title.basics into the demo catalog: its movies get their ids and keep what the file lacks")
    func imdbBasicsIntoDemo() throws {
        let box = try Sandbox()
        try box.seed()
        try box.copyFixture("layouts/title.basics.tsv")
        let run = try box.moviecat("import", "title.basics.tsv")
        #expect(run.status == 0, "\(run)")
        // 17 movies kept, three of them demo movies (Seven Samurai, 2001, The Godfather), found by title and year.
        #expect(run.reports == [ReportLine(file: "title.basics.tsv", read: 25, inserted: 14, updated: 3, filtered: 8)], "\(run)")
        #expect(try box.scalar("SELECT count(*) FROM movies") == "27")
        let rows = try box.movieRows()
        func row(_ title: String) -> [String]? { rows.first { $0[0] == title } }
        #expect(row("Seven Samurai") == ["Seven Samurai", "1954", "3.0", "207", sqlNull, "action|drama"],
                "an update keeps the rating, which the file lacks")
        #expect(try box.rows("SELECT imdb_id FROM movies WHERE title IN ('Seven Samurai', 'The Godfather', '2001: A Space Odyssey') ORDER BY id")
                == [["tt0047478"], ["tt0068646"], ["tt0062622"]])
        #expect(row("The Godfather Part II") == ["The Godfather Part II", "1974", "5.0", "120", sqlNull, "drama"], "demo movies the file lacks stay")
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
    }
}

import Foundation
import Testing

/// The table people read: columns, formatting, the count on stderr, width-aware titles, wide characters.
@Suite struct TableOutputTests {
    static let headers = ["ID", "Title", "Year", "Genres", "Rating", "Duration", "Certification"]
    /// 200 characters, no spaces at either end.
    static let longTitle = String(String(repeating: "Endless Title ", count: 15).prefix(199)) + "!"
    static let wideTitles = ["七人の侍", "🎬🍿 Movie Night", "기생충", "Café ☕ Society", "東京物語 Tokyo", "Ame\u{301}lie",
                             "दिलवाले दुल्हनिया", "3 इडियट्स", "स्त्री"]

    /// Terminal columns of text, worked out here code point by code point, as wcwidth does (not
    /// by grapheme clusters, as moviecat walks text): East Asian wide characters and emoji 2,
    /// marks, format characters and controls 0 (a spacing mark, a Devanagari vowel sign, 1).
    static func displayWidth(_ text: some StringProtocol) -> Int {
        let wide: [ClosedRange<UInt32>] = [0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
                                           0x4E00...0x9FFF, 0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
                                           0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD]
        return text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control: return total
            default: break
            }
            if scalar.properties.isEmojiPresentation || wide.contains(where: { $0.contains(scalar.value) }) { return total + 2 }
            return total + 1
        }
    }

    /// Cells of a line: columns are separated by two or more spaces (cells themselves use single spaces).
    static func cells(_ line: String) -> [String] {
        line.split(separator: /\ {2,}/).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The demo catalog plus the long and the wide titles, imported from CSV.
    static func catalog() throws -> Sandbox {
        let box = try Sandbox()
        try box.seed()
        var csv = "title,year,genres,rating,duration\n\"\(longTitle)\",2000,drama,6.5,100\n"
        // One short genre each, so the fixed columns leave the title room even in 60 columns.
        for (i, title) in wideTitles.enumerated() { csv += "\"\(title)\",\(1950 + i),comedy,7.\(i),\(90 + i)\n" }
        let run = try box.moviecat("import", box.write("titles.csv", csv))
        try #require(run.status == 0, "\(run)")
        return box
    }

    /// Runs moviecat under a pseudo-terminal (util-linux `script`); stdout and stderr both land in the output.
    static func inTerminal(_ box: Sandbox, _ shellCommand: String) throws -> [String] {
        let command = shellCommand.replacingOccurrences(of: "MOVIECAT", with: "'\(moviecatBinary.path)' --db '\(box.db)'")
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/script"), ["-q", "-c", command, "/dev/null"])
        try #require(run.status == 0, "\(command): \(run)")
        return run.stdout.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
    }

    /// Checks that each movie row's Year starts at the header's Year column, measured in display columns.
    static func checkYearColumn(_ lines: [String], years: [String: String], _ context: String) throws {
        let header = try #require(lines.first { $0.hasPrefix("ID") }, "\(context)")
        let column = displayWidth(header[..<header.range(of: "Year")!.lowerBound])
        var checked = 0
        for line in lines {
            guard cells(line).count > 2, let id = line.split(separator: " ").first.map(String.init),
                  let year = years[id] else { continue }
            let found = line.ranges(of: " \(year)").first { $0.upperBound == line.endIndex || line[$0.upperBound] == " " }
            let range = try #require(found, "no year in '\(line)'")
            #expect(displayWidth(line[..<range.lowerBound]) + 1 == column, "Year misaligned in '\(line)'\n\(context)")
            checked += 1
        }
        #expect(checked == years.count, "rows found: \(checked) of \(years.count)\n\(context)")
    }

    static func years(_ box: Sandbox) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try box.sql("SELECT id, year FROM movies").map { row in
            let parts = row.split(separator: "|").map(String.init)
            return (parts[0], parts[1])
        })
    }

    @Test("the demo catalog as a table: columns, one-decimal ratings, hour durations, count on stderr")
    func seedTable() throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter")
        #expect(run.status == 0, "\(run)")
        #expect(Self.cells(run.lines[0]) == Self.headers, "\(run)")
        #expect(run.lines.count == 14, "\(run)")
        #expect(run.stderr == "13 movies\n", "\(run)")
        #expect(!run.stdout.contains("movies"), "the count belongs on stderr: \(run)")
        let gumpID = try #require(try box.sql("SELECT id FROM movies WHERE title = 'Forrest Gump'").first)
        let gump = try #require(run.lines.first { $0.contains("Forrest Gump") })
        #expect(Self.cells(gump) == [gumpID, "Forrest Gump", "1994", "Comedy", "5.0", "2h"], "\(gump)")
        for line in run.lines.dropFirst() {
            let cells = Self.cells(line)
            #expect(cells.count == 6 && cells[4].wholeMatch(of: /\d+\.\d/) != nil, "rating cell in '\(line)'")
        }
    }

    @Test("durations like 2h 10m, ratings with one decimal, genre names joined with comma and space")
    func formatting() throws {
        let box = try Sandbox()
        for movie in [["--title", "Heat", "--year", "1995", "--genre", "crime,drama,thriller", "--rating", "8.3",
                       "--duration", "2h50m", "--certification", "r"],
                      ["--title", "Short One", "--year", "2001", "--genre", "sci-fi", "--rating", "7", "--duration", "45"],
                      ["--title", "Exactly Two", "--year", "2002", "--rating", "10", "--duration", "130"]] {
            let run = try box.moviecat(["add"] + movie)
            try #require(run.status == 0, "\(run)")
        }
        let run = try box.moviecat("filter", "--sort", "year")
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("3 movies"), "\(run)")
        let rows = run.lines.dropFirst().map(Self.cells).map { Array($0.dropFirst()) }
        #expect(rows == [["Heat", "1995", "Crime, Drama, Thriller", "8.3", "2h 50m", "R"],
                         ["Short One", "2001", "Sci-Fi", "7.0", "45m"],
                         ["Exactly Two", "2002", "10.0", "2h 10m"]], "\(run)")
        let one = try box.moviecat("filter", "--title", "heat")
        #expect(one.stderr.contains("1 movie"), "\(one)")
    }

    @Test("a rating with more than one decimal shows them all: 7.99 is not 8.0, which --rating 8 would not find")
    func ratingDecimals() throws {
        let box = try Sandbox()
        try box.write("r.csv", "title,rating\nNearly,7.99\nHalf,7.25\nPlain,7.5\n")
        #expect(try box.moviecat("import", "r.csv").status == 0)
        let run = try box.moviecat("filter", "--sort", "rating")
        let ratings = run.lines.dropFirst().map(Self.cells).map { $0.last ?? "" }
        #expect(ratings == ["7.25", "7.5", "7.99"], "\(run)")
    }

    @Test("piped, past the first 1,000 rows that set the widths, a longer title is cut with … and every line stays aligned")
    func pipeAfterWindow() throws {
        let box = try Sandbox()
        try box.initEmpty()
        let rows = (0..<1_001).map { "Film \(String(format: "%04d", $0)),2000" } + ["Zz A Much Longer Title Than Any Before It,2001"]
        try box.write("many.csv", "title,year\n" + rows.joined(separator: "\n") + "\n")
        #expect(try box.moviecat("import", "many.csv").status == 0)
        let run = try box.moviecat("filter")
        let lines = run.lines
        #expect(lines.count == 1_003, "\(run.stderr)")
        let yearColumn = lines[0].range(of: "Year")!.lowerBound.utf16Offset(in: lines[0])
        #expect(lines.allSatisfy { $0.count > yearColumn }, "every line reaches the Year column")
        #expect(lines.last == "1002  Zz A Muc…  2001", "\(lines.suffix(2))")
        #expect(lines.dropFirst().allSatisfy { line in line.dropFirst(yearColumn).prefix(4).allSatisfy(\.isNumber) }, "every year at its column")
    }

    @Test("when stdout is not a terminal, long titles are never cut within the first 1,000 rows, even with COLUMNS set")
    func pipeNeverCuts() throws {
        #expect(Self.longTitle.count == 200)
        let box = try Self.catalog()
        let run = try box.moviecat(["filter"], environment: ["COLUMNS": "60"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains(Self.longTitle), "\(run)")
        #expect(!run.stdout.contains("…"), "\(run)")
        for title in Self.wideTitles { #expect(run.stdout.contains(title), "\(title) missing") }
        #expect(run.stderr.contains("\(14 + Self.wideTitles.count) movies"), "\(run)")
    }

    struct TerminalCase: Sendable, CustomStringConvertible {
        let command: String, width: Int
        var description: String { command }
    }

    @Test("in a terminal, titles are cut with … to fit the width", arguments: [
        TerminalCase(command: "COLUMNS=60 MOVIECAT filter", width: 60),
        TerminalCase(command: "COLUMNS=120 MOVIECAT filter", width: 120),
        TerminalCase(command: "stty cols 72; unset COLUMNS; MOVIECAT filter", width: 72),
    ])
    func terminalCuts(_ c: TerminalCase) throws {
        let box = try Self.catalog()
        let lines = try Self.inTerminal(box, c.command)
        let text = lines.joined(separator: "\n")
        #expect(lines.contains("\(14 + Self.wideTitles.count) movies"), "\(text)")
        for line in lines { #expect(Self.displayWidth(line) <= c.width, "wider than \(c.width): '\(line)'") }
        let longID = try #require(try box.sql("SELECT id FROM movies WHERE length(title) = 200").first)
        let longRow = try #require(lines.first { $0.hasPrefix(longID + " ") || $0.hasPrefix(" " + longID + " ") }, "\(text)")
        let title = Self.cells(longRow)[1]
        #expect(title.hasSuffix("…") && Self.longTitle.hasPrefix(String(title.dropLast())), "'\(longRow)'")
        #expect(!text.contains(Self.longTitle), "\(text)")
        if c.width >= 120 { #expect(text.contains("The Godfather Part II") && text.contains("七人の侍"), "\(text)") }
        try Self.checkYearColumn(lines, years: try Self.years(box), "\(text)")
    }

    @Test("facets in a terminal: a value too long for it is cut with …, and no line is wider", arguments: [40, 80])
    func facetsFit(_ width: Int) throws {
        let box = try Self.catalog()
        let long = "Extremely Long Genre Name That Goes On And On And On And On Forever"
        #expect(try box.moviecat("add", "--title", "Genre test", "--genre", long).status == 0)
        let lines = try Self.inTerminal(box, "COLUMNS=\(width) MOVIECAT facets")
        for line in lines { #expect(Self.displayWidth(line) <= width, "wider than \(width): '\(line)'") }
        let cut = try #require(lines.first { $0.contains("extremely-long") }, "\(lines)")
        #expect(cut.contains("…") && !cut.contains("Forever"), "'\(cut)'")
        // The counts stay in one column.
        let ends = Set(lines.filter { $0.hasPrefix("  [") }.map(Self.displayWidth))
        #expect(ends.count == 1, "\(lines)")
        // Not a terminal: nothing is cut.
        #expect(try box.moviecat("facets").stdout.contains("(\(long))"))
    }

    @Test("CJK, emoji and combining titles align: every Year starts at the same display column")
    func wideCharactersAlign() throws {
        let box = try Self.catalog()
        let run = try box.moviecat("filter")
        #expect(run.status == 0, "\(run)")
        try Self.checkYearColumn(run.lines, years: try Self.years(box), run.stdout)
        // The other columns line up too: Rating ends at the same column in every row.
        let header = run.lines[0]
        let ratingEnd = Self.displayWidth(header[..<header.range(of: "Rating")!.upperBound])
        for line in run.lines.dropFirst() {
            guard let match = line.firstMatch(of: /\d+\.\d(?=  )/) else { Issue.record("no rating in '\(line)'"); continue }
            #expect(Self.displayWidth(line[..<match.range.upperBound]) == ratingEnd, "Rating misaligned: '\(line)'")
        }
    }

    struct NarrowCase: Sendable, CustomStringConvertible {
        let width: Int, header: String
        var description: String { "\(width) columns" }
    }

    @Test("a narrow terminal keeps titles readable: Certification's header shortened, then IMDb, Votes and Certification left out; lines always fit", arguments: [
        NarrowCase(width: 140, header: "ID  Title                    Year  Genres                          Rating      Votes  Duration  Certification  IMDb"),
        NarrowCase(width: 100, header: "ID  Title                    Year  Genres              Rating      Votes  Duration  Cert   IMDb"),
        NarrowCase(width: 80, header: "ID  Title                    Year  Genres                Rating  Duration  Cert"),
        NarrowCase(width: 60, header: "ID  Title                 Year  Genres      Rating  Duration"),
        NarrowCase(width: 40, header: "ID  Title           Year  Genres  Rating"),
        NarrowCase(width: 30, header: "ID  Title         Year  Rating"),
        NarrowCase(width: 20, header: "ID  Title       Year"),
    ])
    func narrowTerminal(_ c: NarrowCase) throws {
        let box = try Sandbox()
        try box.write("list.csv", "title,year,genres,rating,votes,duration,certification,imdb_id\n"
                      + "A Christmas Story Live!,2017,\"Comedy, Family, Musical\",5.9,1200,\"2h 10m\",TV-PG,tt6113158\n"
                      + "Heat,1995,\"Action, Crime, Drama, Thriller\",8.3,1000000,170,R,tt0113277\n")
        #expect(try box.moviecat("import", "list.csv").status == 0)
        let lines = try Self.inTerminal(box, "COLUMNS=\(c.width) MOVIECAT filter")
        #expect(lines.first == c.header, "\(lines.joined(separator: "\n"))")
        for line in lines { #expect(Self.displayWidth(line) <= c.width, "wider than \(c.width): '\(line)'") }
        #expect(lines.contains { $0.contains(c.width >= 80 ? "A Christmas Story Live!" : c.width >= 30 ? "A Christmas" : "A Christm…") }, "\(lines)")
    }
}

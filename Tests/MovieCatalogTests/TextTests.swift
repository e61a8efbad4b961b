import Foundation
import Synchronization
import Testing
import TestSupport
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// Text as moviecat writes it: display width, escaping, decimals, suggestions.
@Suite struct TextTests {
    @Test("nearest suggestion", arguments: [("dramma", "drama"), ("--gnre", "--genre"), ("scifi", "sci-fi"), ("zzzzzz", nil),
                                                 ("darma", "drama"), ("--yaer", "--year"), ("anime", nil), ("a", nil), ("drams", "drama"), ("scifu", "sci-fi")])
    func nearest(_ word: String, _ expected: String?) {
        #expect(Suggestion.nearest(to: word, in: ["drama", "--genre", "sci-fi", "--year"]) == expected)
    }

    @Test("display width counts wide characters twice and marks not at all", arguments: [
        ("abc", 3), ("日本語", 6), ("🎬", 2), ("é", 1), ("e\u{301}", 1), ("👩‍👩‍👧", 2), ("❤️", 2),
    ])
    func width(_ text: String, _ columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test("text is composed (NFC) as stored: scalar for scalar", arguments: [
        ("Ame\u{301}lie", "Am\u{E9}lie"), ("Am\u{E9}lie", "Am\u{E9}lie"), ("\u{212B}ngstr\u{F6}m", "\u{C5}ngstr\u{F6}m"),
        ("\u{1100}\u{1161}\u{11A8}", "\u{AC01}"), ("e\u{302}\u{323}", "\u{1EC7}"), ("e\u{323}\u{302}", "\u{1EC7}"),
        ("\u{301}alone", "\u{301}alone"), ("plain ASCII", "plain ASCII"), ("\u{FB01}", "\u{FB01}"),
        ("\u{3A9}\u{2126}", "\u{3A9}\u{3A9}"), ("\u{F900}", "\u{8C48}"), ("", ""),
    ])
    func precomposed(_ text: String, _ expected: String) {
        #expect(Array(text.precomposed.unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test("composing keeps the text canonically equal, is idempotent, and agrees with Foundation's")
    func precomposedProperties() {
        var rng = SeededRandom(seed: 17)
        let pool: [Unicode.Scalar] = ["a", "e", "A", " ", "\u{E9}", "\u{C5}", "\u{2FF}", "\u{300}", "\u{301}", "\u{323}",
                                      "\u{302}", "\u{338}", "\u{3A3}", "\u{3C2}", "\u{1100}", "\u{1161}", "\u{11A8}",
                                      "\u{212B}", "\u{2126}", "\u{F900}", "\u{1F3AC}", "\u{5D0}", "\u{5B8}",
                                      // CJK ideographs and kana, told composed from their bytes, and the voicing marks that are not.
                                      "\u{65E5}", "\u{4E00}", "\u{9FFF}", "\u{304B}", "\u{3041}", "\u{3096}", "\u{30A1}", "\u{30FA}",
                                      "\u{3099}", "\u{309A}", "\u{30FB}", "\u{3097}", "\u{FA00}"]
        for _ in 0..<2_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &rng) { scalars.append(pool[Int.random(in: 0..<pool.count, using: &rng)]) }
            let text = String(scalars)
            let composed = text.precomposed
            #expect(composed == text)   // String's == is canonical equivalence
            // Against Foundation's normaliser (CoreFoundation's tables, not the standard library's).
            #expect(Array(composed.unicodeScalars) == Array(text.precomposedStringWithCanonicalMapping.unicodeScalars),
                    "\(text.unicodeScalars.map(\.value))")
            #expect(Array(composed.precomposed.unicodeScalars) == Array(composed.unicodeScalars))
        }
    }

    @Test("text told composed from its bytes: below U+0300, CJK ideographs, kana without voicing marks", arguments: [
        ("plain", true), ("Am\u{E9}lie", true), ("日本語のタイトル", true), ("\u{304B}\u{3099}", false), ("e\u{301}", false),
        ("\u{F900}", false), ("\u{AC00}", false), ("\u{30FB}", false), ("\u{3097}", false), ("\u{1F3AC}", false), ("", true),
    ])
    func plainlyComposed(_ text: String, _ expected: Bool) {
        #expect(text.isPlainlyComposed == expected)
    }

    @Test("truncation fits the width and ends in an ellipsis")
    func truncate() {
        #expect(DisplayWidth.truncate("The Godfather Part II", to: 10) == "The Godfa…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("日本語のタイトル", to: 7)) <= 7)
        #expect(DisplayWidth.truncate("short", to: 10) == "short")
    }

    @Test("CSV and JSON escaping")
    func escaping() {
        #expect(TextEscaping.csv("a,b") == "\"a,b\"")
        #expect(TextEscaping.csv("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(TextEscaping.csv("plain") == "plain")
        #expect(TextEscaping.json("a\"b\\c\n\u{1}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }

    /// CSV's escaping as first written, character by character (JSON's is TestSupport's
    /// `jsonString`): the byte-level writers must agree with both.
    enum Reference {
        static func csv(_ text: String) -> String {
            guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) || text.first == " " || text.last == " " else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }

    @Test("JSON, CSV and TSV fields written byte by byte are the character-by-character escapings, on random text", arguments: [1, 2, 3] as [UInt64])
    func escapingAgrees(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        // Pieces that escape, that end a line in JavaScript, that join a space into one character
        // (a combining mark after it, a prepended mark before it), and plain text of 1 to 4 bytes.
        let pieces = ["\"", "\\", "\n", "\r", "\r\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{2027}", "\u{202A}",
                      " ", " \u{301}", "\u{600} ", ",", "a", "é", "東", "🎬", "\u{E2}", "|"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            #expect(TextEscaping.json(text) == jsonString(text, lineSeparators: true), "\(Array(text.unicodeScalars))")
            #expect(TextEscaping.csv(text) == Reference.csv(text), "\(Array(text.unicodeScalars))")
            var tsv: [UInt8] = []
            TextEscaping.appendTSV(text, to: &tsv)
            #expect(String(decoding: tsv, as: UTF8.self) == TextEscaping.tsv(text), "\(Array(text.unicodeScalars))")
        }
    }

    @Test("ASCII text's width is its printable bytes, as its characters count it, controls and DEL none")
    func asciiWidth() {
        var rng = SeededRandom(seed: 4)
        for _ in 0..<2_000 {
            let text = String(decoding: (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 0...0x7F, using: &rng) }, as: UTF8.self)
            #expect(DisplayWidth.of(text) == text.reduce(0) { $0 + DisplayWidth.of($1) }, "\(Array(text.utf8))")
        }
        #expect(DisplayWidth.of("a\u{1}b\u{7F}\r\n") == 2)
    }

    @Test("a table's lines end at their last character that is not a space, padding and a cell's own spaces alike, and keep their columns")
    func tableLines() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("table-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let out = try TextOutput(creatingFile: path)
        let writer = MovieWriter(format: .table, to: out, genres: GenreCatalogue([Genre(id: 1, code: "drama", name: "Drama")]), width: nil)
        for (id, title, certification) in [(1, "Heat  ", "R  "), (22, "Amélie", nil), (333, "東京物語", "PG")] as [(Int64, String, String?)] {
            writer.write(Movie(id: id, title: title, year: 1995, genres: ["drama"], rating: 8.3, durationMinutes: 170, certification: certification))
        }
        try writer.finish()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") }, "\(lines)")
        // The year starts at one display column on every line: titles padded by their width.
        let yearColumns = lines.dropFirst().map { line in DisplayWidth.of(String(line[..<line.range(of: "1995")!.lowerBound])) }
        #expect(Set(yearColumns).count == 1, "\(lines)")
        #expect(lines[1].hasSuffix("R"), "\(lines)")
    }

    @Test("shell words: plain tokens as they are, others single-quoted", arguments: [
        ("genre:sci-fi", "genre:sci-fi"), ("rating:7.5..", "rating:7.5.."), ("title:amélie", "title:amélie"),
        ("title:an ", "'title:an '"), ("title:it's", "'title:it'\\''s'"), ("title:a*b", "'title:a*b'"),
        ("title:$HOME", "'title:$HOME'"), ("", "''"), ("title:x\ty", "'title:x\ty'"),
    ])
    func shellWords(_ text: String, _ word: String) {
        #expect(TextEscaping.shellWord(text) == word)
    }

    @Test("decimals print without exponents and read back exactly", arguments: [
        (0.00001, "0.00001"), (7.5, "7.5"), (5.0, "5.0"), (1.5e-7, "0.00000015"), (1e16, "10000000000000000.0"),
        (-2.5e-5, "-0.000025"), (0.1, "0.1"), (9.99, "9.99"),
    ])
    func decimals(_ value: Double, _ text: String) {
        #expect(NumberText.decimal(value) == text)
        #expect(Double(NumberText.decimal(value)) == value)
    }

    @Test("control characters print as visible pictures in the table")
    func terminalSafe() {
        #expect(TextEscaping.terminalSafe("a\nb\u{1B}[2Jc\t") == "a␊b␛[2Jc␉")
        #expect(TextEscaping.terminalSafe("Amélie 👩‍👩‍👧") == "Amélie 👩‍👩‍👧")
    }

    @Test("messages escape controls, C1 controls and bidirectional overrides, and keep the rest", arguments: [
        ("plain é 日本", "plain é 日本"), ("a\u{1B}]0;t\u{7}b", "a\\x1B]0;t\\x07b"), ("tab\there", "tab\\x09here"),
        ("del\u{7F}", "del\\x7F"), ("c1\u{85}", "c1\\u{0085}"), ("rtl\u{202E}x", "rtl\\u{202E}x"), ("a\nb", "a\\x0Ab"),
    ])
    func visible(_ text: String, _ shown: String) {
        #expect(TextEscaping.visible(text) == shown)
    }

    @Test("bytes that are not UTF-8 are shown as \\xFF, valid text is kept", arguments: [
        ([0x61, 0xFF, 0x62] as [UInt8], "a\\xFFb"), ([0xC3, 0xA9], "é"), ([0xE2, 0x82], "\\xE2\\x82"),
        ([0xF0, 0x9F, 0x8E, 0xAC, 0x80], "🎬\\x80"), ([0xC0, 0x80], "\\xC0\\x80"),
    ])
    func visibleBytes(_ bytes: [UInt8], _ shown: String) {
        #expect(bytes.withUnsafeBufferPointer { TextEscaping.visible(bytes: $0) } == shown)
    }
}

/// The import's progress line: one line narrower than the terminal, whatever the file's name
/// (a wrapped line left a stale copy on every redraw).
@Suite struct ProgressLineTests {
    @Test("each drawn line fits the terminal, the file's name cut first", arguments: [40, 80, 12])
    func fits(_ columns: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)").path
        defer { unlink(path) }
        let out = try TextOutput(creatingFile: path)
        let progress = Progress(out: out, columns: { columns })
        let name = "/a/rather/long/folder/name/for/a/list/of/movies/exported-from-somewhere.csv"
        progress.update(file: name, rows: 123_456, bytes: 50, totalBytes: 100, started: monotonicSeconds() - 1)
        progress.finish()
        try out.flush()
        let drawn = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
        #expect(drawn.count == 1, "\(drawn)")
        for line in drawn {
            #expect(DisplayWidth.of(line) < columns, "\(line)")
            #expect(!line.contains("\n"))
        }
        if columns == 80 { #expect(drawn.first?.contains("…") == true && drawn.first?.contains("rows/s)") == true, "\(drawn)") }
    }

    /// What `body` draws on a progress line of `columns` whose clock reads `now`, line by line.
    private func lines(columns: Int = 80, _ body: (MovieCatalog.Progress, _ setClock: (Double) -> Void) -> Void) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)").path
        defer { unlink(path) }
        let out = try TextOutput(creatingFile: path)
        nonisolated(unsafe) var now = 100.0
        let progress = MovieCatalog.Progress(out: out, columns: { columns }, clock: { now })
        body(progress) { now = $0 }
        try out.flush()
        return try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\u{1B}[K")
    }

    @Test("once the rows are read, the line names each step with the rows read, then its seconds")
    func steps() throws {
        let drawn = try lines { progress, setClock in
            progress.update(file: "movies.csv", rows: 900, bytes: 90, totalBytes: 100, started: 99)
            setClock(100.05)
            progress.update(file: "movies.csv", rows: 1_000, bytes: 100, totalBytes: 100, started: 99)  // not drawn: too soon
            progress.step("building indexes (1 of 5)")
            setClock(100.9)
            progress.tick()   // not redrawn: under a second
            setClock(102.3)
            progress.tick()
            progress.step("committing")
            progress.finish()
        }
        #expect(drawn == ["", "movies.csv: 90% 900 rows (900 rows/s)",
                          "movies.csv: 1,000 rows read; building indexes (1 of 5)…",
                          "movies.csv: 1,000 rows read; building indexes (1 of 5)… 2 s",
                          "movies.csv: 1,000 rows read; committing…", ""], "\(drawn)")
    }

    @Test("while `ticking` runs, its thread redraws a step's seconds though the caller is busy in one long call")
    func ticks() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)").path
        defer { unlink(path) }
        let out = try TextOutput(creatingFile: path)
        let now = Mutex(100.0)
        let progress = MovieCatalog.Progress(out: out, columns: { 80 }, clock: { now.withLock { $0 } })
        progress.update(file: "movies.csv", rows: 7, bytes: 1, totalBytes: 1, started: 99)
        progress.ticking(every: 0.002) {
            progress.step("committing")
            now.withLock { $0 = 102.5 }
            usleep(300_000)   // a commit's checkpoint: no call back into the line
        }
        now.withLock { $0 = 110 }
        usleep(20_000)
        progress.tick()   // by the caller, after: still drawn (the ticker is gone, the step is not)
        progress.finish()
        try out.flush()
        let drawn = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\r\u{1B}[K")
        #expect(drawn.filter { $0 == "movies.csv: 7 rows read; committing… 2 s" }.count == 1, "\(drawn)")
        #expect(drawn.suffix(2) == ["movies.csv: 7 rows read; committing… 10 s", ""], "\(drawn)")
    }

    @Test("a step's line fits the terminal, the file's name cut first", arguments: [30, 60])
    func stepFits(_ columns: Int) throws {
        let drawn = try lines(columns: columns) { progress, _ in
            progress.update(file: "/a/long/folder/name/movies-exported-from-somewhere.csv", rows: 12_345_678, bytes: 1, totalBytes: 2, started: 99)
            progress.step("building indexes (4 of 5)")
        }
        let line = drawn.last ?? ""
        #expect(DisplayWidth.of(line) < columns, "\(line)")
        #expect(line.hasSuffix("rows read; building indexes (4 of 5)…") == (columns == 60), "\(line)")
    }

    @Test("PhaseTimings tells its listener each step begun")
    func announced() {
        let timings = PhaseTimings()
        nonisolated(unsafe) var heard: [String] = []
        timings.begin("unheard")
        timings.announce = { heard.append($0) }
        timings.begin("counting facets")
        timings.mark("facet totals")
        timings.begin("committing")
        #expect(heard == ["counting facets", "committing"])
        #expect(timings.phases.map(\.name) == ["facet totals"])
    }
}

@Suite struct WrapTests {
    @Test("wrap breaks at spaces within the width, cuts a word wider than a line, and keeps every word in order", arguments: [
        ("genre:drama rating:5.. year:1990..2010", 16, ["genre:drama", "rating:5..", "year:1990..2010"]),
        ("genre:drama rating:5..", 40, ["genre:drama rating:5.."]),
        ("a b c d", 3, ["a b", "c d"]),
        ("title:averyveryverylongword x", 8, ["title:a…", "x"]),
        ("東京物語 東京物語", 9, ["東京物語", "東京物語"]),
        ("", 10, [""]),
    ])
    func wraps(_ text: String, _ width: Int, _ expected: [String]) {
        let lines = DisplayWidth.wrap(text, to: width)
        #expect(lines == expected)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= width })
    }
}

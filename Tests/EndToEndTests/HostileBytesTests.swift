import Foundation
import Testing

/// Issue 9, item 4: what moviecat prints never holds bytes that drive a terminal, whatever the
/// input, file name, argument or stored value holds: controls, C1 controls and bidirectional
/// overrides are escaped (`\x1B`) or shown as pictures (␛).
@Suite struct HostileBytesTests {
    /// The first terminal-driving byte sequence in some output, if any (newlines are fine).
    static func hostile(_ text: String) -> String? {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: continue
            case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                return String(format: "U+%04X", scalar.value)
            default: continue
            }
        }
        return nil
    }

    static func expectSafe(_ run: Run, _ label: String) {
        #expect(hostile(run.stdout) == nil, "\(label): stdout holds \(hostile(run.stdout) ?? ""): \(run)")
        #expect(hostile(run.stderr) == nil, "\(label): stderr holds \(hostile(run.stderr) ?? ""): \(run)")
    }

    @Test("importing hostile files prints only safe text", arguments: [
        "osc-header.csv", "ansi-values.csv", "bad-bytes.csv", "bad-header.csv", "escape-keys.jsonl", "bidi.csv", "junk.bin",
    ])
    func files(_ name: String) throws {
        let box = try Sandbox()
        try box.seed()
        try box.copyFixture("hostile/" + name)
        for extra in [[], ["--skip-invalid"], ["--format", "csv"], ["--where", "\u{1B}[31m=x"], ["--map", "title=\u{1B}]0;t\u{7}"]] {
            let run = try box.moviecat(["import", name] + extra)
            Self.expectSafe(run, "\(name) \(extra)")
        }
        let piped = try runProcess(moviecatBinary, ["--db", box.db, "import", "--format", "csv", "-"],
                                   stdin: try Data(contentsOf: fixturesDirectory.appendingPathComponent("hostile/" + name)))
        Self.expectSafe(piped, "\(name) on stdin")
    }

    @Test("escapes name what was there")
    func escapesShown() throws {
        let box = try Sandbox()
        try box.copyFixture("hostile/bad-header.csv")
        try box.copyFixture("hostile/osc-header.csv")
        let bad = try box.moviecat("import", "bad-header.csv")
        #expect(bad.errorLines.last == "moviecat: error: bad-header.csv:1: no title column (title, primaryTitle, film or movie, or use --map title=COLUMN); the columns are 'title\\xED\\xA0\\x80', 'year'", "\(bad)")
        let osc = try box.moviecat("import", "osc-header.csv")
        #expect(osc.errorLines.contains("osc-header.csv: ignored columns: \\x1B]0;pwned\\x07, \\x1B[31mred\\x1B[0m"), "\(osc)")
    }

    @Test("hostile file names, arguments and stored values are shown safely")
    func namesAndValues() throws {
        let box = try Sandbox()
        try box.seed()
        let hostile = "x\u{1B}]0;pwned\u{7}\u{202E}y"
        let runs = [
            try box.moviecat("import", hostile + ".csv"),
            try box.moviecat("filter", "--genre", hostile),
            try box.moviecat("filter", "title:" + hostile, "--explain"),
            try box.moviecat("filter", "--" + hostile),
            try box.moviecat(hostile),
            try box.moviecat("presets", "show", hostile),
            try box.moviecat("add", "--title", hostile, "--genre", hostile + "genre"),
            try box.moviecat("add", "--title", hostile),
        ]
        for (index, run) in runs.enumerated() { Self.expectSafe(run, "run \(index)") }
        // Values stored by a sqlite3 user, bypassing moviecat's checks.
        try box.sqlite3("""
            INSERT INTO presets (id, name) VALUES (9, 'p' || char(27) || '[31m');
            INSERT INTO preset_filters VALUES (9, 'title', 'a' || char(7));
            UPDATE movies SET certification = 'R' || char(27) || '[5M' WHERE id = 1;
            """)
        for arguments in [["filter"], ["presets"], ["facets"], ["presets", "show", "p\u{1B}[31m"], ["filter", "--preset", "p\u{1B}[31m"]] {
            Self.expectSafe(try box.moviecat(arguments), arguments.joined(separator: " "))
        }
    }

    @Test("an argument or catalog variable that is not UTF-8 exits 64 naming its bytes, and makes no other file")
    func argumentsNotUTF8() throws {
        let box = try Sandbox()
        let file = try ResourceLimitTests.shell("printf 'title\\nX\\n' > $'l\\xe9.csv'; moviecat --db catalog.sqlite import $'l\\xe9.csv'", in: box)
        #expect(file.status == 64 && file.errorLines == ["moviecat: error: argument 4, 'l\\xE9.csv', is not UTF-8: moviecat reads names and values as UTF-8 (rename the file, e.g. with convmv)"], "\(file)")
        let db = try ResourceLimitTests.shell("MOVIECAT_DB=$'\\xff.sqlite' moviecat info", in: box)
        #expect(db.status == 64 && db.errorLines == ["moviecat: error: $MOVIECAT_DB, '\\xFF.sqlite', is not UTF-8: moviecat reads paths as UTF-8"], "\(db)")
        // A HOME that is not UTF-8 stops only what needs it.
        #expect(try ResourceLimitTests.shell("HOME=$'/tmp/\\xff' moviecat --version", in: box).status == 0)
        let made = try FileManager.default.contentsOfDirectory(atPath: box.dir.path).filter { $0.hasSuffix(".sqlite") }
        #expect(made.isEmpty, "\(made)")
    }
}

import Foundation
import Testing
import TestSupport

/// Saved filter sets: `save-preset`, `presets list|show|rename|delete`, `filter --preset`.
@Suite struct PresetTests {
    /// A preset's elements as sqlite3 sees them: `facet|value`, sorted.
    static func rows(_ box: Sandbox, _ name: String) throws -> [String] {
        try box.sql("""
            SELECT f.facet || '|' || f.value FROM preset_filters f JOIN presets p ON p.id = f.preset_id
             WHERE p.name = '\(name.replacingOccurrences(of: "'", with: "''"))' ORDER BY 1
            """)
    }

    /// `presets list --format json`, parsed.
    static func listJSON(_ box: Sandbox) throws -> [[String: Any]] {
        let run = try box.moviecat("presets", "list", "--format", "json")
        #expect(run.status == 0, "\(run)")
        let value = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(value as? [[String: Any]], "\(run)")
    }

    /// Saves a preset and requires success.
    static func save(_ box: Sandbox, _ arguments: String...) throws { try save(box, arguments) }

    static func save(_ box: Sandbox, _ arguments: [String]) throws {
        let run = try box.moviecat(["save-preset"] + arguments)
        try #require(run.status == 0, "\(run)")
        #expect(run.stdout.isEmpty, "save-preset prints nothing on stdout: \(run)")
    }

    @Test("save-preset stores one preset_filters row per element, from tokens and flags")
    func storedRows() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "great dramas", "genre:drama", "--rating", "5", "--duration", "3h", "--genre", "Drama")
        #expect(try box.sql("SELECT name FROM presets") == ["great dramas"])
        #expect(try Self.rows(box, "great dramas") == ["duration|3h", "genre|drama", "rating|5"])
        try Self.save(box, "mixed", "--genre", "action,comedy", "year:1990s", "--exclude-genre", "drama",
                      "--title", "the", "--certification", "pg-13")
        #expect(try Self.rows(box, "mixed") == ["certification|PG-13", "exclude-genre|drama", "genre|action",
                                                "genre|comedy", "title|the", "year|1990s"])
    }

    @Test("presets list as a table and as JSON")
    func list() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "short comedies", "genre:comedy", "duration:1h")
        try Self.save(box, "action", "--genre", "action")
        let table = try box.moviecat("presets")
        #expect(table.status == 0, "\(table)")
        #expect(table.lines.count == 3, "\(table)")
        #expect(table.lines.first?.contains("NAME") == true, "\(table)")
        #expect(table.lines[1].hasPrefix("action") && table.lines[1].contains("genre:action"), "\(table)")
        #expect(table.lines[2].hasPrefix("short comedies") && table.lines[2].contains("genre:comedy")
                && table.lines[2].contains("duration:1h"), "\(table)")
        #expect(try box.moviecat("presets", "list").stdout == table.stdout)
        let json = try Self.listJSON(box)
        #expect(json.compactMap { $0["name"] as? String } == ["action", "short comedies"])
        #expect(json.map { Set($0.keys) } == [["name", "filters"], ["name", "filters"]])
        #expect((json.last?["filters"] as? [String]).map(Set.init) == ["genre:comedy", "duration:1h"], "\(json)")
        // The empty set reads as `save-preset` said it.
        let all = try box.moviecat("save-preset", "all")
        #expect(all.errorLines.contains("saved preset 'all': (every movie)"), "\(all)")
        #expect(try box.moviecat("presets").lines.contains { $0.hasPrefix("all") && $0.hasSuffix("  (every movie)") })
    }

    // A title's spaces count (`an ` is not `an`): the table quotes such tokens as a shell would.
    @Test("presets list and save-preset show a token with spaces quoted, as shell words")
    func quotedTokens() throws {
        let box = try Sandbox()
        try box.seed()
        let saved = try box.moviecat("save-preset", "spaced", "--title", "an ", "--title", "love story", "genre:drama", "--title", "it's")
        #expect(saved.status == 0 && saved.errorLines == ["saved preset 'spaced': genre:drama 'title:an ' 'title:it'\\''s' 'title:love story'"], "\(saved)")
        let table = try box.moviecat("presets")
        #expect(table.lines.last == "spaced  genre:drama 'title:an ' 'title:it'\\''s' 'title:love story'", "\(table)")
        // Pasted into a shell, the words are the set again.
        let echo = try runProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '%s|' " + (table.lines.last ?? "").dropFirst(8)])
        #expect(echo.stdout == "genre:drama|title:an |title:it's|title:love story|", "\(echo)")
    }

    @Test("a preset whose genre was deleted since is listed with the reason, the others as they are; using it fails")
    func unusablePreset() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "fun", "--genre", "western", "--rating", "4..")
        try Self.save(box, "action", "--genre", "action")
        _ = try box.sql("DELETE FROM genres WHERE code = 'western'")
        let table = try box.moviecat("presets")
        #expect(table.status == 0 && table.lines.count == 3, "\(table)")
        #expect(table.lines[1].hasPrefix("action") && !table.lines[1].contains("unusable"), "\(table)")
        #expect(table.lines[2].hasPrefix("fun") && table.lines[2].contains("rating:4..")
                && table.lines[2].contains("(unusable: unknown genre 'western'"), "\(table)")
        let json = try Self.listJSON(box)
        #expect(json.map { Set($0.keys) } == [["name", "filters"], ["name", "filters", "problem"]], "\(json)")
        #expect((json.last?["problem"] as? String)?.hasPrefix("unknown genre 'western' for 'preset fun'") == true, "\(json)")
        let used = try box.moviecat("filter", "--preset", "fun")
        #expect(used.status == 64 && used.stderr.contains("unknown genre 'western'"), "\(used)")
        // show prints what still reads, then what does not, without the command's usage lines.
        let shown = try box.moviecat("presets", "show", "fun")
        #expect(shown.status == 64 && shown.stdout == "rating:4..\n", "\(shown)")
        #expect(shown.errorLines == ["moviecat: error: preset 'fun' is unusable: unknown genre 'western' for 'preset fun'"], "\(shown)")
        #expect(try box.moviecat("presets", "delete", "fun").status == 0)
    }

    @Test("presets show prints the tokens one per line")
    func show() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "p", "--rating", "4..", "genre:drama")
        let run = try box.moviecat("presets", "show", "P")
        #expect(run.status == 0, "\(run)")
        #expect(run.lines.sorted() == ["genre:drama", "rating:4.."], "\(run)")
    }

    @Test("filter --preset gives the same movies as the filter typed out")
    func presetEqualsDirect() throws {
        let box = try Sandbox()
        try box.seed()
        let elements = ["--genre", "drama", "--rating", "5", "--duration", "3h"]
        try Self.save(box, ["great"] + elements)
        let direct = try box.moviecat(["filter", "--format", "csv"] + elements)
        let viaPreset = try box.moviecat("filter", "--format", "csv", "--preset", "great")
        #expect(viaPreset.status == 0, "\(viaPreset)")
        #expect(viaPreset.stdout == direct.stdout)
        #expect(viaPreset.lines.count == 5)
    }

    @Test("two --preset give the union of their sets")
    func union() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "action", "genre:action")
        try Self.save(box, "comedy", "genre:comedy")
        try Self.save(box, "top", "rating:5")
        let sameFacet = try box.moviecat("filter", "--format", "csv", "--preset", "action", "--preset", "comedy")
        #expect(sameFacet.stdout == (try box.moviecat("filter", "--format", "csv", "--genre", "action,comedy")).stdout)
        #expect(sameFacet.lines.count == 6, "\(sameFacet)")
        let otherFacet = try box.moviecat("filter", "--format", "csv", "--preset", "comedy", "--preset", "top")
        #expect(otherFacet.stdout == (try box.moviecat("filter", "--format", "csv", "genre:comedy", "rating:5")).stdout)
        #expect(otherFacet.lines.count == 3, "\(otherFacet)")
        try Self.save(box, "both", "--preset", "action", "--preset", "top", "year:2018")
        #expect(try Self.rows(box, "both") == ["genre|action", "rating|5", "year|2018"])
    }

    @Test("--replace overwrites; a duplicate name in any case exits 1 and changes nothing")
    func replaceAndDuplicate() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "Mine", "genre:drama")
        let before = try box.dump()
        let duplicate = try box.moviecat("save-preset", "mINE", "genre:action")
        #expect(duplicate.status == 1, "\(duplicate)")
        #expect(duplicate.errorLines.count == 1 && duplicate.errorLines[0].hasPrefix("moviecat: error:"), "\(duplicate)")
        #expect(duplicate.stderr.contains("already exists"), "\(duplicate)")
        #expect(try box.dump() == before)
        let replaced = try box.moviecat("save-preset", "mine", "genre:action", "rating:4", "--replace")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try box.sql("SELECT count(*) FROM presets") == ["1"])
        #expect(try box.sql("SELECT count(*) FROM preset_filters") == ["2"])
        #expect(try box.moviecat("presets", "show", "mine").lines.sorted() == ["genre:action", "rating:4"])
        let fresh = try box.moviecat("save-preset", "new one", "genre:war", "--replace")
        #expect(fresh.status == 0, "--replace on a new name simply saves: \(fresh)")
    }

    @Test("rename keeps the elements; clashes and missing names exit 1")
    func rename() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "old", "genre:drama", "rating:5")
        try Self.save(box, "taken", "genre:action")
        let run = try box.moviecat("presets", "rename", "old", "new")
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT name FROM presets ORDER BY name") == ["new", "taken"])
        #expect(try Self.rows(box, "new") == ["genre|drama", "rating|5"])
        #expect(try box.moviecat("presets", "show", "old").status == 1)
        let before = try box.dump()
        let clash = try box.moviecat("presets", "rename", "new", "TAKEN")
        #expect(clash.status == 1 && clash.errorLines == ["moviecat: error: preset 'TAKEN' already exists (as 'taken'; names ignore case)"], "\(clash)")
        let missing = try box.moviecat("presets", "rename", "nosuch", "other")
        #expect(missing.status == 1 && missing.errorLines == ["moviecat: error: no preset named 'nosuch'"], "\(missing)")
        #expect(try box.dump() == before)
        #expect(try box.moviecat("presets", "rename", "new", "NEW").status == 0, "a change of case alone is allowed")
        #expect(try box.sql("SELECT name FROM presets ORDER BY name") == ["NEW", "taken"])
    }

    @Test("delete removes the preset and its rows; a missing one exits 1")
    func delete() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "gone", "genre:drama", "rating:5")
        try Self.save(box, "kept", "genre:action")
        let run = try box.moviecat("presets", "delete", "GONE")
        #expect(run.status == 0, "\(run)")
        #expect(try box.sql("SELECT name FROM presets") == ["kept"])
        #expect(try box.sql("SELECT count(*) FROM preset_filters") == ["1"])
        let again = try box.moviecat("presets", "delete", "gone")
        #expect(again.status == 1, "\(again)")
        #expect(again.errorLines == ["moviecat: error: no preset named 'gone'"], "\(again)")
    }

    struct NameCase: Sendable, CustomStringConvertible {
        let name: String
        var description: String { "preset named \(name)" }
    }

    @Test("names with quotes, accents and emoji round-trip", arguments: [
        NameCase(name: "it's \"great\""), NameCase(name: "Drámas 🎬"), NameCase(name: "日本の映画"),
        NameCase(name: String(repeating: "x", count: 64)), NameCase(name: String(repeating: "🎬", count: 64)),
        NameCase(name: "'; DROP TABLE presets; --"),
    ])
    func unusualNames(_ c: NameCase) throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, c.name, "genre:drama", "rating:5")
        #expect(try box.sql("SELECT count(*) FROM presets") == ["1"])
        #expect(try Self.rows(box, c.name) == ["genre|drama", "rating|5"])
        #expect(try Self.listJSON(box).first?["name"] as? String == c.name)
        let table = try box.moviecat("presets")
        #expect(table.lines.dropFirst().first?.hasPrefix(c.name) == true, "\(table)")
        #expect(try box.moviecat("presets", "show", c.name).lines.sorted() == ["genre:drama", "rating:5"])
        let filtered = try box.moviecat("filter", "--preset", c.name, "--count")
        #expect(filtered.status == 0 && filtered.stdout == "6\n", "\(filtered)")
        #expect(try box.moviecat("presets", "delete", c.name).status == 0)
        #expect(try box.sql("SELECT count(*) FROM presets") == ["0"])
    }

    @Test("names are unique ignoring case beyond ASCII too")
    func nonASCIICase() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "Drámas 🎬", "genre:drama")
        let before = try box.dump()
        let duplicate = try box.moviecat("save-preset", "DRÁMAS 🎬", "genre:action")
        #expect(duplicate.status == 1, "\(duplicate)")
        #expect(try box.dump() == before)
        let shown = try box.moviecat("presets", "show", "drÁmas 🎬")
        #expect(shown.status == 0 && shown.lines == ["genre:drama"], "\(shown)")
        #expect(try box.moviecat("filter", "--preset", "DRÁMAS 🎬", "--count").stdout == "8\n")
        // Greek: upper case has one sigma, lower case a final one (`ς`); the same name either way.
        try Self.save(box, "ΣΊΣΥΦΟΣ", "genre:comedy")
        #expect(try box.moviecat("save-preset", "σίσυφος", "genre:action").status == 1)
        #expect(try box.moviecat("presets", "show", "σίσυφος").lines == ["genre:comedy"])
    }

    @Test("names a sqlite3 user stored alike but for non-ASCII case: the exact name picks one, a name matching both is refused")
    func exactNameWins() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "Ünï", "genre:comedy")
        // NOCASE folds ASCII only, so the schema takes both.
        try box.sqlite3("INSERT INTO presets (id, name) VALUES (50, 'ünï'); INSERT INTO preset_filters VALUES (50, 'genre', 'drama');\n")
        #expect(try box.moviecat("presets", "show", "ünï").lines == ["genre:drama"])
        #expect(try box.moviecat("presets", "show", "Ünï").lines == ["genre:comedy"])
        // Typed with separate accents, it is still the exact name.
        #expect(try box.moviecat("presets", "show", "U\u{308}ni\u{308}").lines == ["genre:comedy"])
        let before = try box.dump()
        let ambiguous = try box.moviecat("presets", "delete", "ÜNÏ")
        #expect(ambiguous.status == 1, "\(ambiguous)")
        #expect(ambiguous.errorLines == ["moviecat: error: no preset is named exactly 'ÜNÏ', and several are ignoring case ('Ünï', 'ünï'); give one exactly"], "\(ambiguous)")
        #expect(try box.dump() == before)
        // The messages name the preset as stored.
        let renamed = try box.moviecat("presets", "rename", "ünï", "Other")
        #expect(renamed.status == 0 && renamed.errorLines == ["renamed preset 'ünï' to 'Other'"], "\(renamed)")
        #expect(try box.rows("SELECT p.name, f.value FROM presets p JOIN preset_filters f ON f.preset_id = p.id ORDER BY p.name") == [["Other", "drama"], ["Ünï", "comedy"]])
        let deleted = try box.moviecat("presets", "delete", "OTHER")
        #expect(deleted.status == 0 && deleted.errorLines == ["deleted preset 'Other'"], "\(deleted)")
    }

    @Test("an empty --preset is a bad value (64), not a missing preset", arguments: ["", "  "])
    func emptyPresetName(_ name: String) throws {
        let box = try Sandbox()
        try box.seed()
        let run = try box.moviecat("filter", "--preset", name)
        #expect(run.status == 64, "\(run)")
        #expect(run.errorLines.last == "moviecat: error: the value '\(name)' is invalid for '--preset <name>': expected a preset name", "\(run)")
    }

    @Test("names are trimmed")
    func trimmed() throws {
        let box = try Sandbox()
        try box.seed()
        try Self.save(box, "  padded  ", "genre:drama")
        #expect(try box.sql("SELECT '[' || name || ']' FROM presets") == ["[padded]"])
        #expect(try box.moviecat("filter", "--preset", "padded", "--count").stdout == "8\n")
    }

    struct BadName: Sendable, CustomStringConvertible {
        let label: String
        let name: String
        var description: String { label }
    }

    @Test("bad names are usage errors and save nothing", arguments: [
        BadName(label: "65 characters", name: String(repeating: "x", count: 65)),
        BadName(label: "65 emoji", name: String(repeating: "🎬", count: 65)),
        BadName(label: "blank", name: "   "),
        BadName(label: "empty", name: ""),
        BadName(label: "control character", name: "tab\there"),
        BadName(label: "newline", name: "two\nlines"),
    ])
    func badNames(_ c: BadName) throws {
        let box = try Sandbox()
        try box.seed()
        let before = try box.dump()
        let run = try box.moviecat("save-preset", c.name, "genre:drama")
        #expect(run.status == 64, "\(run)")
        #expect(run.errorLines.last?.hasPrefix("moviecat: error:") == true, "\(run)")
        #expect(run.errorLines.filter { $0.hasPrefix("moviecat: error:") }.count == 1, "\(run)")
        #expect(try box.dump() == before)
    }

    @Test("a 64-character name of decomposed accents is not an internal error")
    func decomposedAccents() throws {
        let box = try Sandbox()
        try box.seed()
        // 64 user-perceived characters, 128 Unicode scalars.
        let name = String(repeating: "e\u{301}", count: 64)
        let run = try box.moviecat("save-preset", name, "genre:drama")
        #expect(run.status == 0 || run.status == 64, "\(run)")
        #expect(run.errorLines.allSatisfy { !$0.contains("internal error") }, "\(run)")
    }

    @Test("presets in a terminal: a long name is cut and the filters wrap under their column, no line wider; in a pipe lines stay whole")
    func listFitsTerminal() throws {
        let box = try Sandbox()
        try box.seed()
        let name = "a very long preset name that is about sixty characters long!!"
        #expect(try box.moviecat("save-preset", name, "genre:drama", "genre:comedy", "rating:5..", "year:1990..2010", "title:the long  title search").status == 0)
        let lines = try TableOutputTests.inTerminal(box, "COLUMNS=60 MOVIECAT presets")
        let listed = lines.filter { !$0.hasSuffix("preset") }
        for line in listed { #expect(TableOutputTests.displayWidth(line) <= 60, "wider than 60: '\(line)'") }
        // The name takes a third of the width (20 columns), cut; the filters start two after it.
        #expect(listed.count > 2 && listed[1].hasPrefix("a very long preset") && listed[1].contains("…  genre:"), "\(lines)")
        // Each token whole on its line (a title's two spaces kept), so they paste as they were saved.
        let filters = listed.dropFirst().map { String($0.dropFirst(22)) }
        #expect(filters.contains("'title:the long  title search'"), "\(lines)")
        #expect(filters.joined(separator: " ") == (try box.moviecat("presets").lines.last.map { String($0.dropFirst(name.count + 2)) }), "\(lines)")
    }
}

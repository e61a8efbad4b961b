import Foundation
import Testing

/// Issue 3, tests: a corpus of malformed inputs under `Tests/Fixtures/import-corpus/`, each with its
/// expected exit code and message in `expected.tsv` (the single list of cases). Each file goes into
/// a fresh catalog, which must come out of the failed (or empty) import unchanged.
@Suite struct ImportCorpusTests {
    static let folder = fixturesDirectory.appendingPathComponent("import-corpus")
    static let manifest = folder.appendingPathComponent("expected.tsv")

    /// One manifest row.
    struct Case: Sendable, CustomStringConvertible {
        let file: String
        let status: Int32
        /// Texts stderr must contain.
        let fragments: [String]
        /// Arguments for `import` before the file.
        let arguments: [String]
        var description: String { "\(file) → \(status)" }
    }

    /// The manifest's rows; a malformed row becomes a case that cannot pass (status -1), so it is not lost.
    static let cases: [Case] = {
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }.map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 3 || columns.count == 4, let status = Int32(columns[1]) else {
                return Case(file: "malformed manifest row: \(line)", status: -1, fragments: [], arguments: [])
            }
            return Case(file: columns[0], status: status,
                        fragments: columns[2].components(separatedBy: " && ").filter { !$0.isEmpty },
                        arguments: columns.count == 4 ? columns[3].split(separator: " ").map(String.init) : [])
        }
    }()

    /// What the catalog holds before the import.
    enum Catalog: String, Sendable, CaseIterable { case seeded, empty }

    @Test("malformed input leaves the catalog unchanged, with the expected exit code and message",
          arguments: cases, Catalog.allCases)
    func corpusFile(_ c: Case, catalog: Catalog) throws {
        try #require(c.status >= 0, "fix expected.tsv: \(c.file)")
        let box = try Sandbox()
        if catalog == .seeded { try box.seed() } else { try box.initEmpty() }
        try box.copyFixture("import-corpus/" + c.file)
        let before = try box.dump()

        let run = try box.moviecat(["import"] + c.arguments + [c.file])

        #expect(run.status == c.status, "\(run)")
        for fragment in c.fragments {
            #expect(run.stderr.contains(fragment), "'\(fragment)' not on stderr: \(run)")
        }
        #expect(run.stdout.isEmpty, "import prints nothing on stdout: \(run)")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("internal error"), "\(run)")
        let errorLines = run.errorLines.filter { $0.hasPrefix("moviecat: error: ") }
        if c.status == 0 {
            #expect(errorLines.isEmpty, "\(run)")
        } else {
            #expect(run.errorLines.last?.hasPrefix("moviecat: error: ") == true, "the error line comes last: \(run)")
            #expect(errorLines.count == 1, "exactly one error line: \(run)")
        }
        if c.status == 0 {
            // A bulk load into an empty catalog drops and rebuilds the indexes, which moves them in `.dump`.
            #expect(try box.dump().split(separator: "\n").sorted() == before.split(separator: "\n").sorted(),
                    "the catalog changed: \(run)")
        } else {
            #expect(try box.dump() == before, "the catalog changed: \(run)")
        }
        let movies = try box.scalar("SELECT count(*) FROM movies")
        #expect(movies == (catalog == .seeded ? "13" : "0"))
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
        #expect(try box.sql("PRAGMA journal_mode") == ["wal"], "the catalog is left in WAL mode")
    }

    @Test("the manifest lists every corpus file once, and every file it lists exists")
    func manifestMatchesFolder() throws {
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)).subtracting(["expected.tsv"])
        let listed = Self.cases.map(\.file)
        #expect(listed.count == Set(listed).count, "a file is listed twice")
        #expect(Set(listed) == files, "not listed: \(files.subtracting(listed).sorted()); missing: \(Set(listed).subtracting(files).sorted())")
        #expect(Self.cases.allSatisfy { $0.status >= 0 && !$0.fragments.isEmpty }, "every row has an exit code and a fragment")
    }

    @Test("the corpus covers what issue 3 asks for")
    func coverage() {
        let required = ["unterminated-quote.csv", "wrong-field-count.csv", "invalid-utf8.csv", "nul-byte.csv",
                        "rating-11.csv", "negative-duration.csv", "year-99999.csv", "blank-title.csv",
                        "not-an-array.json", "rating-true.json", "genres-numbers.json", "broken-line.jsonl",
                        "empty.csv", "header-only.csv", "no-title-column.csv", "map-missing-column.csv"]
        let listed = Set(Self.cases.map(\.file))
        for file in required { #expect(listed.contains(file), "\(file) is not in expected.tsv") }
    }

    @Test("files meant to hold invalid bytes still hold them (nothing re-encoded them)",
          arguments: ["invalid-utf8.csv", "invalid-utf8.tsv", "invalid-utf8.json", "nul-byte.csv", "nul-byte.jsonl",
                      "utf32le.tsv"])
    func rawBytes(_ file: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(file)))
        if file.hasPrefix("nul-byte") {
            #expect(bytes.contains(0), "\(file) has no NUL byte")
            #expect(String(validating: bytes, as: UTF8.self) != nil, "only the NUL is odd about \(file)")
        } else if file.hasPrefix("utf32") {
            #expect(bytes.starts(with: [0xFF, 0xFE, 0, 0]), "\(file) has no UTF-32 byte order mark")
        } else {
            #expect(String(validating: bytes, as: UTF8.self) == nil, "\(file) is valid UTF-8")
            #expect(!bytes.contains(0))
        }
    }
}

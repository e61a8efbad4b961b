import Foundation
import Testing
import TestSupport

/// The import's progress line on a terminal (stderr under a pseudo-terminal): rows while they
/// are read, then each step after them (a third of a large import goes to index builds and the
/// commit, which a frozen row count would hide), cleared before the report.
@Suite struct ImportProgressTests {
    /// The text each redraw left, in order: the line's pieces between carriage returns and the
    /// clear-line sequence, without empty ones.
    static func drawn(_ box: Sandbox, _ command: String) throws -> [String] {
        try TableOutputTests.inTerminal(box, command).flatMap { $0.components(separatedBy: "\r") }
            .map { $0.replacingOccurrences(of: "\u{1B}[K", with: "") }.filter { !$0.isEmpty }
    }

    /// A list of `distinct` movies, then `repeats` rows repeating the first ones' titles and
    /// years: far enough back (20,000 rows) that the bulk load sets them aside and folds them after.
    static func list(_ box: Sandbox, distinct: Int, repeats: Int = 0) throws -> String {
        var csv = "title,year,genres,rating,duration\n"
        for i in 0..<(distinct + repeats) {
            let movie = i < distinct ? i : i - distinct
            csv += "Film \(movie),\(1950 + movie % 60),drama|comedy,\(i % 10).5,\(80 + i % 70)\n"
        }
        return try box.write("list.csv", csv)
    }

    @Test("into an empty catalog: the rows, then folding, index builds and the commit, each line within the terminal")
    func steps() throws {
        let box = try Sandbox()
        let file = try Self.list(box, distinct: 20_000, repeats: 1_000)
        let lines = try Self.drawn(box, "stty cols 60; MOVIECAT import '\(file)'")
        let steps = lines.filter { $0.contains(" read; ") }
        #expect(steps.allSatisfy { $0.contains(": 21,000 rows read; ") }, "\(lines)")
        let named = steps.map { String($0.split(separator: ";", maxSplits: 1)[1].dropFirst()) }
        let builds = named.filter { $0.hasPrefix("building indexes (") }
        #expect(builds.first?.hasPrefix("building indexes (1 of ") == true && builds.count >= 2, "\(named)")
        let order = ["folding repeats…", "building indexes (1 of", "indexing titles…", "committing…"]
        let found = order.map { word in named.firstIndex { $0.hasPrefix(word) } }
        #expect(found.allSatisfy { $0 != nil } && found.map { $0 ?? 0 } == found.map { $0 ?? 0 }.sorted(), "\(named)")
        #expect(named.last == "committing…", "\(named)")
        // Each step is named once: the line moves on and never comes back to one.
        let shown = named.map { $0.prefix { $0 != "…" && $0 != "(" } }
        let sequence = shown.enumerated().filter { $0.offset == 0 || shown[$0.offset - 1] != $0.element }.map(\.element)
        #expect(Set(sequence).count == sequence.count, "\(sequence)")
        for line in lines.dropLast() { #expect(line.count < 60, "\(line)") }
        // The report follows on a line of its own: the progress line was cleared.
        let report = try #require(lines.last)
        #expect(report.hasPrefix("\(file): 21,000 rows read, 20,000 inserted"), "\(lines)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["20000"])
    }

    @Test("an import into a stored catalog, row by row, ends with its commit too")
    func rowByRow() throws {
        let box = try Sandbox()
        try box.seed()
        let file = try box.write("one.csv", "title,year\nA Film Imported Alone,2001\n")
        let named = try Self.drawn(box, "MOVIECAT import '\(file)'").filter { $0.contains(" read; ") }
        #expect(named.last?.hasSuffix(": 1 row read; committing…") == true, "\(named)")
    }

    @Test("a dry run says it rolls back", arguments: [false, true])
    func dryRun(_ dry: Bool) throws {
        let box = try Sandbox()
        let file = try Self.list(box, distinct: 30)
        let named = try Self.drawn(box, "MOVIECAT import \(dry ? "--dry-run " : "")'\(file)'").filter { $0.contains(" read; ") }
        #expect(named.last?.hasSuffix(dry ? "rolling back (a dry run)…" : "committing…") == true, "\(named)")
    }

    @Test("--quiet on a terminal, or stderr not a terminal: no line at all")
    func none() throws {
        let box = try Sandbox()
        let file = try Self.list(box, distinct: 300)
        let quiet = try Self.drawn(box, "MOVIECAT import --quiet '\(file)'")
        #expect(quiet.isEmpty, "\(quiet)")
        let piped = try Self.list(box, distinct: 300)
        let run = try box.moviecat("import", piped)
        #expect(run.status == 0 && !run.stderr.contains("\u{1B}") && !run.stderr.contains("rows read; "), "\(run)")
    }
}

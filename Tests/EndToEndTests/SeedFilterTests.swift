import Foundation
import Testing
import TestSupport

/// The original app's filter behaviour, on the demo catalog, through the binary.
@Suite struct SeedFilterTests {
    struct Case: Sendable, CustomStringConvertible {
        let arguments: [String]
        let titles: [String]
        var description: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["--genre", "drama", "--rating", "5", "--duration", "3h"],
             titles: ["2001: A Space Odyssey", "Bohemian Rhapsody", "La La Land", "The Godfather"]),
        Case(arguments: ["--genre", "action"], titles: ["Aquaman", "Batman v Superman", "Seven Samurai"]),
        Case(arguments: ["--genre", "action,comedy", "--duration", "1h"],
             titles: ["Seven Samurai", "The Wolf of Wall Street"]),
        Case(arguments: ["genre:comedy", "genre:action", "rating:4.."], titles: ["Aquaman", "Forrest Gump", "The Wolf of Wall Street"]),
        Case(arguments: ["--rating", "1", "--rating", "2"], titles: ["50 Shades of Grey", "Batman v Superman", "Taken"]),
        Case(arguments: ["--year", "1970s"], titles: ["The Godfather", "The Godfather Part II"]),
        Case(arguments: ["--title", "GODFATHER", "--exclude-genre", "comedy"], titles: ["The Godfather", "The Godfather Part II"]),
        Case(arguments: ["--exclude-genre", "drama", "--exclude-genre", "action"], titles: ["Forrest Gump", "The Wolf of Wall Street"]),
        Case(arguments: ["--duration", "..90m"], titles: ["Seven Samurai", "Taken", "The Wolf of Wall Street"]),
        Case(arguments: ["--genre", "Drama", "--genre", "drama", "--year", "2018"], titles: ["A Man Called Ahok", "Bohemian Rhapsody"]),
        // A title's spaces are part of the substring (they were trimmed once: `an` is in Aquaman).
        Case(arguments: ["--title", "an "], titles: ["A Man Called Ahok", "Batman v Superman", "Bohemian Rhapsody"]),
        Case(arguments: ["title: m"], titles: ["A Man Called Ahok"]),
    ]

    @Test("filter on the seed catalog", arguments: cases)
    func filters(_ c: Case) throws {
        let box = try Sandbox()
        try #require(try box.moviecat("init", "--seed").status == 0)
        let run = try box.moviecat(["filter", "--format", "csv"] + c.arguments)
        #expect(run.status == 0, "\(run)")
        let titles = try CSV.rows(run.stdout).map { $0["title"] ?? "?" }
        #expect(titles == c.titles, "\(run)")
    }

    @Test("--count prints every match as a bare number, whatever the paging, order and format",
          arguments: [[], ["--limit", "2"], ["--offset", "5", "--limit", "1"], ["--sort", "year", "--desc"], ["--format", "json"], ["--format", "table"]])
    func countIgnoresPaging(_ extra: [String]) throws {
        let box = try Sandbox()
        try #require(try box.moviecat("init", "--seed").status == 0)
        let run = try box.moviecat(["filter", "--rating", "5", "--count"] + extra)
        #expect(run.status == 0 && run.stdout == "8\n", "\(run)")
    }
}

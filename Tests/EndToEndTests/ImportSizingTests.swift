import Foundation
import Testing

/// How an import sizes its input before writing (bulk load or row by row, facet rows deferred):
/// a gzipped file by the text it holds, a pipe by the bytes read ahead.
@Suite struct ImportSizingTests {
    @Test("a gzipped list is sized by the text it holds, not its compressed bytes: the same path as plain", arguments: [false, true])
    func gzippedSizedByItsText(gzipped: Bool) throws {
        let box = try Sandbox()
        try box.write("movies.csv", "imdb_id,title,year,rating\n" + (1...2_000).map { "tt\(String(format: "%07d", $0)),Movie \($0),1990,5\n" }.joined())
        #expect(try box.moviecat("import", "movies.csv").status == 0)
        // IMDb's ratings for these and as many other titles: 76 KB of text, a seventh when gzipped.
        let ratings = "tconst\taverageRating\tnumVotes\n" + (1...4_000).map { "tt\(String(format: "%07d", $0))\t7.\($0 % 10)\t\($0 * 3)\n" }.joined()
        let name = gzipped ? "title.ratings.tsv.gz" : "title.ratings.tsv"
        _ = try box.write(name, bytes: gzipped ? try LayoutTests.gzipped(Data(ratings.utf8)) : Array(ratings.utf8))
        let run = try box.moviecat(["import", name], environment: ["MOVIECAT_TIMINGS": "1"])
        #expect(run.status == 0 && run.errorLines.first?.contains("2,000 updated") == true, "\(run)")
        // Updates to most of the catalog write its facet rows in one pass at the end.
        #expect(run.errorLines.contains { $0.hasPrefix("timing: facet rows of updates") }, "\(run)")
        #expect(try box.sql("SELECT count(*), sum(rating = 7.0 + (id % 10) / 10.0) FROM movies") == ["2000|2000"])
    }

    /// `rows` generated CSV rows (some 65 bytes each), numbered from `first`.
    static func list(_ rows: Range<Int>) -> String {
        "title,year,genres,rating,duration\n" + rows.map { "A Movie Title Long Enough \($0),\(1950 + $0 % 70),drama|war,\($0 % 10).5,\(80 + $0 % 60)\n" }.joined()
    }

    @Test("a long list piped into a stored catalog is bulk-loaded, and leaves the catalog a file leaves")
    func longPipe() throws {
        let box = try Sandbox()
        try box.seed()
        let text = Self.list(0..<40_000)
        #expect(text.utf8.count > 2 << 20)
        let run = try box.moviecat(["import", "--format", "csv", "-"], stdin: text, environment: ["MOVIECAT_TIMINGS": "1"])
        #expect(run.status == 0 && run.errorLines.first?.contains("40,000 inserted") == true, "\(run)")
        #expect(run.errorLines.contains { $0.hasPrefix("timing: append rows") }, "\(run)")
        let file = box.path("file.sqlite")
        #expect(try runProcess(moviecatBinary, ["--db", file, "init", "--seed"], directory: box.dir).status == 0)
        try box.write("list.csv", text)
        #expect(try runProcess(moviecatBinary, ["--db", file, "import", "list.csv"], directory: box.dir).status == 0)
        #expect(try box.movies() == box.movies(db: file))
        #expect(try box.sql("PRAGMA integrity_check") == ["ok"])
    }

    @Test("a short pipe is sized by what it held: a few rows into a larger catalog go one by one")
    func shortPipe() throws {
        let box = try Sandbox()
        try box.write("stored.csv", Self.list(0..<30_000))
        #expect(try box.moviecat("import", "stored.csv").status == 0)
        let run = try box.moviecat(["import", "--format", "csv", "-"], stdin: Self.list(29_990..<30_010), environment: ["MOVIECAT_TIMINGS": "1"])
        #expect(run.status == 0 && run.errorLines.first?.contains("10 inserted, 10 updated") == true, "\(run)")
        #expect(!run.errorLines.contains { $0.hasPrefix("timing: append rows") }, "\(run)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["30010"])
    }

    // A review found the read-ahead read on while a producer trickled: the error waited for it.
    @Test("an error in a trickling pipe's first rows is met at once, into a stored catalog too")
    func trickleWithError() throws {
        let box = try Sandbox()
        try box.seed()
        let process = Process()
        process.executableURL = moviecatBinary
        process.arguments = ["--db", box.db, "import", "--format", "csv", "-"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data("title,year\n\"Bad \"quote\",2001\n".utf8))
        let started = Date()
        // A row every 100 ms for up to 10 s, as a slow producer would.
        while process.isRunning && Date().timeIntervalSince(started) < 10 {
            try? input.fileHandleForWriting.write(contentsOf: Data("Row,2002\n".utf8))
            usleep(100_000)
        }
        let seconds = Date().timeIntervalSince(started)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(seconds < 4, "took \(seconds) s")
        #expect(process.terminationStatus == 65)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("-:2:"), "\(message)")
    }

    // A review found a short pipe that paused bulk-loaded into a large catalog (6 times the time).
    @Test("a pipe that brings little in its first second goes row by row into a stored catalog")
    func slowPipe() throws {
        let box = try Sandbox()
        try box.write("stored.csv", Self.list(0..<30_000))
        #expect(try box.moviecat("import", "stored.csv").status == 0)
        let process = Process()
        process.executableURL = moviecatBinary
        process.arguments = ["--db", box.db, "import", "--format", "csv", "-"]
        process.environment = ["MOVIECAT_TIMINGS": "1"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(Self.list(30_000..<30_005).utf8))
        usleep(1_500_000)
        try input.fileHandleForWriting.write(contentsOf: Data(Self.list(30_005..<30_010).utf8.dropFirst(34)))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        let report = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0 && report.contains("10 inserted"), "\(report)")
        #expect(!report.contains("timing: append rows"), "\(report)")
        #expect(try box.sql("SELECT count(*) FROM movies") == ["30010"])
    }
}

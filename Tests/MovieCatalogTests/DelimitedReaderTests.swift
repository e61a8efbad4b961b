import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// CSV (RFC 4180) and TSV record reading.
@Suite struct DelimitedReaderTests {
    /// All records of an input, as text fields, with their starting lines.
    func records(_ text: String, _ dialect: DelimitedReader.Dialect = .csv) throws -> [(Int, [String])] {
        try records(bytes: Array(text.utf8), dialect)
    }

    func records(bytes: [UInt8], _ dialect: DelimitedReader.Dialect = .csv, chunk: Int? = nil) throws -> [(Int, [String])] {
        let input: ByteReader
        if let chunk {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("dr-\(UUID().uuidString)").path
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
            defer { try? FileManager.default.removeItem(atPath: path) }
            input = try ByteReader(path: path, chunkSize: chunk)
        } else {
            input = ByteReader(bytes: bytes, name: "x.csv")
        }
        let reader = DelimitedReader(input: input, dialect: dialect)
        var out: [(Int, [String])] = []
        while try reader.next() { out.append((reader.recordLine, reader.strings())) }
        return out
    }

    @Test("quoted fields, doubled quotes, embedded newlines and commas")
    func quoting() throws {
        let rows = try records("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\nplain,,last\n")
        #expect(rows.map(\.1) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["plain", "", "last"]])
        #expect(rows.map(\.0) == [1, 2, 4])
    }

    @Test("CRLF and LF line ends, final line without newline, BOM")
    func lineEnds() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("t,y\r\nA,1\r\nB,2\nC,3".utf8)
        let rows = try records(bytes: bytes)
        #expect(rows.map(\.1) == [["t", "y"], ["A", "1"], ["B", "2"], ["C", "3"]])
    }

    @Test("blank lines are skipped and do not shift line numbers")
    func blankLines() throws {
        let rows = try records("t\n\nA\n\n\nB\n")
        #expect(rows.map(\.0) == [1, 3, 6])
    }

    @Test("records straddling tiny read chunks", arguments: [1, 2, 3, 7, 64])
    func chunks(_ size: Int) throws {
        let text = "title,genres\r\n\"Long, \"\"quoted\"\"\ntitle é🎬\",drama|war\r\nnext,x\n"
        let rows = try records(bytes: Array(text.utf8), .csv, chunk: size)
        #expect(rows.map(\.1) == [["title", "genres"], ["Long, \"quoted\"\ntitle é🎬", "drama|war"], ["next", "x"]])
        #expect(rows.map(\.0) == [1, 2, 4])
    }

    @Test("line breaks inside quotes count as between records: LF, CRLF once, a lone CR", arguments: [1, 2, 3, 64])
    func quotedLineBreaks(_ size: Int) throws {
        for ending in ["\n", "\r\n", "\r"] {
            let text = ["t,y", "A,1", "\"B" + ending + "b\",2", "\"C" + ending + ending + "c\",3", "D,4", ""].joined(separator: ending)
            let rows = try records(bytes: Array(text.utf8), .csv, chunk: size)
            #expect(rows.map(\.0) == [1, 2, 3, 5, 8], "\(ending.unicodeScalars.map(\.value)), chunk \(size)")
        }
    }

    @Test("an input is the rejects path only as the same regular file: /dev/null, a terminal or a socket may be both")
    func readsRegularFilesOnly() throws {
        #expect(try ByteReader(path: "/dev/null").reads("/dev/null") == false)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reads-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("t\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ByteReader(path: path).reads(path))
        #expect(try ByteReader(path: path).reads("/dev/null") == false)
    }

    @Test("a TSV row of nulls alone (\\N) is skipped as a blank line; a CSV's \\N is text")
    func nullRows() throws {
        let tsv = try records("t\ty\nA\t1\n\\N\t\\N\n\\N\t\nB\t\\N\n", .tsv)
        #expect(tsv.map(\.0) == [1, 2, 5])
        let csv = try records("t,y\n\\N,\\N\n")
        #expect(csv.map(\.1) == [["t", "y"], ["\\N", "\\N"]])
    }

    @Test("a line of spaces and tabs alone, or of empty fields alone, is skipped as a blank line")
    func whiteSpaceLines() throws {
        let rows = try records("t,y\nA,1\n   \n \t \n,,\n,\nB,2\n")
        #expect(rows.map(\.1) == [["t", "y"], ["A", "1"], ["B", "2"]])
        #expect(rows.map(\.0) == [1, 2, 7])
    }

    @Test("a line of millions of empty fields stops at the bound, saying so by its fields")
    func manyFields() throws {
        let error = try #require(throws: CatalogError.self) { try records("t,y\nA," + String(repeating: ",", count: 3_000_000) + "\n") }
        #expect(error.message == "x.csv:2: a record of more than 2,097,152 fields; is this a CSV file?")
    }

    struct Ending: Sendable, CustomStringConvertible {
        let text: String
        let dialect: DelimitedReader.Dialect
        let expected: [[String]]
        var description: String { text.debugDescription }
    }

    static let endings: [Ending] = [
        Ending(text: "title\nA", dialect: .csv, expected: [["title"], ["A"]]),
        Ending(text: "title,year\nA,1\nB,2", dialect: .csv, expected: [["title", "year"], ["A", "1"], ["B", "2"]]),
        Ending(text: "title\tyear\nB\t2000", dialect: .tsv, expected: [["title", "year"], ["B", "2000"]]),
        Ending(text: "title,year\rAlpha,2000\rBeta,2001\r", dialect: .csv, expected: [["title", "year"], ["Alpha", "2000"], ["Beta", "2001"]]),
        Ending(text: "title,year\r\nA,\"x\"", dialect: .csv, expected: [["title", "year"], ["A", "x"]]),
        Ending(text: "title", dialect: .csv, expected: [["title"]]),
        Ending(text: "title\r", dialect: .csv, expected: [["title"]]),
    ]

    @Test("files without a final newline, or with CR-only line ends, from real reads", arguments: endings)
    func endingsFromFiles(_ c: Ending) throws {
        for chunk in [1, 2, 3, 5, 4096] {
            let rows = try records(bytes: Array(c.text.utf8), c.dialect, chunk: chunk)
            #expect(rows.map(\.1) == c.expected, "chunk \(chunk)")
        }
    }

    @Test("unterminated quote names the line it opens on")
    func unterminated() throws {
        let error = #expect(throws: CatalogError.self) { try records("t,y\nok,1\n\"never closed,2\nmore\n") }
        #expect(error?.kind == .dataError)
        #expect(error?.message.hasPrefix("x.csv:3: unterminated quoted field") == true, "\(error?.message ?? "")")
    }

    @Test("text after a closing quote is an error")
    func afterQuote() throws {
        let error = #expect(throws: CatalogError.self) { try records("t\n\"a\"b\n") }
        #expect(error?.message.hasPrefix("x.csv:2:") == true)
    }

    @Test("TSV: tabs split, quotes are data, \\N stays for the importer")
    func tsv() throws {
        let rows = try records("tconst\tprimaryTitle\tstartYear\ntt1\t\"Quoted\" Title\t\\N\n", .tsv)
        #expect(rows.map(\.1) == [["tconst", "primaryTitle", "startYear"], ["tt1", "\"Quoted\" Title", "\\N"]])
    }

    @Test("NUL bytes and invalid UTF-8 are flagged, not crashed on")
    func badBytes() throws {
        let input = ByteReader(bytes: Array("t\n".utf8) + [0x41, 0x00, 0x0A, 0xFF, 0xFE, 0x0A], name: "x.csv")
        let reader = DelimitedReader(input: input, dialect: .csv)
        #expect(try reader.next())
        #expect(try reader.next())
        #expect(reader.hasNUL)
        #expect(try reader.next())
        #expect(reader.string(0) == nil)
        #expect(try !reader.next())
    }

    /// The records a reader keeps under conditions, with their lines, and how many it left out.
    func kept(_ text: String, _ dialect: DelimitedReader.Dialect, chunk: Int,
              _ conditions: [RowCondition]) throws -> (rows: [(Int, [String])], filtered: Int) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dr-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = DelimitedReader(input: try ByteReader(path: path, chunkSize: chunk), dialect: dialect)
        reader.conditions = conditions
        var rows: [(Int, [String])] = []
        var filtered = 0
        while try reader.next() {
            if reader.isFilteredOut { filtered += 1 } else { rows.append((reader.recordLine, reader.strings())) }
        }
        return (rows, filtered)
    }

    @Test("rows failing a condition are left out, line numbers kept, across read chunks and line ends",
          arguments: [1, 2, 5, 64], ["\n", "\r\n", "\r"])
    func conditions(_ chunk: Int, _ end: String) throws {
        let lines = ["id\ttype\ttitle\tadult", "1\tmovie\tA\t0", "2\tepisode\tB\t0", "3\tMovie\tC\t1",
                     "4\ttvMovie\tD\t0", "5\tshort\tE", "6\tmovie\tF\t0"]
        let conditions = [RowCondition(column: 3, name: "adult", values: ["0"]),
                          RowCondition(column: 1, name: "type", values: ["movie", "TVMOVIE"])]
        for dialect in [DelimitedReader.Dialect.tsv, .csv] {
            let text = lines.map { dialect == .csv ? $0.replacing("\t", with: ",") : $0 }.joined(separator: end) + end
            let (rows, filtered) = try kept(text, dialect, chunk: chunk, conditions)
            // The header fails the type condition, as does row 5 ('short'), before its missing column matters.
            #expect(rows.map(\.0) == [2, 5, 7], "\(dialect) \(chunk)")
            #expect(rows.map { $0.1[2] } == ["A", "D", "F"])
            #expect(filtered == 4)
        }
    }

    @Test("a row too short for a condition's column is kept, to be reported as malformed")
    func shortRowKept() throws {
        let (rows, filtered) = try kept("a\tb\nx\n", .tsv, chunk: 64, [RowCondition(column: 1, name: "b", values: ["keep"])])
        #expect(rows.map(\.1) == [["x"]])
        #expect(filtered == 1)
    }

    @Test("a sheet's summary labels: alone or before ':'; titles that only start so, or Max, are films",
          arguments: [("TOTAL", true), ("Total:", true), ("grand total: 3", true), ("Average", true), ("avg", true),
                      ("Count: 2", true), ("  \"Sum\"", true), ("Notes: from IMDb", true), ("Source: me", true),
                      ("Total Recall", false), ("Sum of All Fears", false), ("Notes on a Scandal", false), ("Mean Girls", false),
                      ("Count Dracula", false), ("Note", false), ("Maximum Overdrive", false), ("Totals2", false), ("", false),
                      ("Max", false), ("Sum (2024)", false), ("Median (2019)", false), ("Total (3 films)", false)])
    func summaryLabels(title: String, isLabel: Bool) {
        let bytes = Array(title.utf8)
        #expect(bytes.withUnsafeBufferPointer { SummaryRows.isLabel($0) } == isLabel)
    }
}

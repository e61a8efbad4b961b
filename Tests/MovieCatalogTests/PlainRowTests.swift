import Testing
@testable import MovieCatalog
@testable import MovieDomain
import TestSupport

/// `PlainRow` reads plain rows from their bytes; whatever it reads must equal what `RowDecoder`
/// reads from the same record, and it must take the plain rows a dataset is made of.
@Suite struct PlainRowTests {
    static let header = ["title", "year", "genres", "rating", "votes", "duration", "certification", "imdb_id"]
    static let plainRow = ["Heat", "1995", "Crime|Thriller", "8.3", "700000", "170", "R", "tt0113277"]

    /// Each record of `text` decoded through `PlainRow` first and through `RowDecoder` alone, and
    /// whether `PlainRow` took it.
    static func decodeBoth(_ text: String, tsv: Bool = false, reading: Importer.CellReading = Importer.CellReading(),
                           updateOnly: Bool = false) throws -> [(fast: DecodedRow, plain: DecodedRow, taken: Bool)] {
        let reader = DelimitedReader(input: ByteReader(streaming: Array(text.utf8), name: "t", chunkSize: 64), dialect: tsv ? .tsv : .csv)
        #expect(try reader.next())
        let header = reader.strings()
        let columnOf = MovieField.allCases.map { field in header.firstIndex(of: field.name) }
        let plan = ImportPlan(layout: nil, mapping: FieldMapping(), conditions: [], updateOnly: updateOnly)
        let plain = try #require(PlainRow(columnOf: columnOf, reading: reading, required: plan.required))
        var results: [(DecodedRow, DecodedRow, Bool)] = []
        while try reader.next() {
            let fast = Importer.decode(reader, file: "t", fieldCount: header.count, columnOf: columnOf, reading: reading, plan: plan, plain: plain)
            let slow = Importer.decode(reader, file: "t", fieldCount: header.count, columnOf: columnOf, reading: reading, plan: plan)
            let taken = reader.withRecord { plain.decode($0, line: reader.recordLine) } != nil
            results.append((fast, slow, taken))
        }
        return results
    }

    static func csvLine(_ cells: [String]) -> String {
        cells.map { $0.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + $0.replacing("\"", with: "\"\"") + "\"" : $0 }.joined(separator: ",")
    }

    @Test("a dataset's plain rows are read from their bytes, as RowDecoder reads them")
    func plainRowsTaken() throws {
        let rows = [Self.plainRow,
                    ["Amélie", "2001", "Comedy, Romance", "8.3", "", "122", "pg-13", ""],
                    ["京都の約束", "", "drama", "7", "0", "1", "Not Rated", ""],
                    ["Heat \"Director's Cut\"", "1995", "", ".5", "12", "90", "N/A", "tt12345678"]]
        let results = try Self.decodeBoth(([Self.header] + rows).map(Self.csvLine).joined(separator: "\n") + "\n")
        #expect(results.count == rows.count)
        for (fast, plain, taken) in results {
            #expect(taken)
            #expect(fast == plain)
        }
        guard case .valid(let row) = results[2].fast else { Issue.record("\(results[2].fast)"); return }
        #expect(row.title == "京都の約束" && row.genres == ["drama"] && row.certification == "NOT RATED" && row.votes == 0)
    }

    /// Cells `PlainRow` must leave to `RowDecoder` (or read exactly alike), by field.
    static let awkward: [(MovieField, [String])] = [
        (.title, [" Heat", "Heat ", "\u{A0}Heat", "Heat\u{3000}", "Cafe\u{301}", "\u{301}x", "\tHeat", "   ", "N/A", "x]", "\u{1}Heat"]),
        (.year, ["95", "01995", "1869", "2101", "1995.0", "+1995", "1995 ", "1995-09-23", "1995)", "(1995)", "N/A", "0000", "19 5"]),
        (.rating, ["7.", ".5", "07.50", "10", "10.0001", "11", "-0", "+7", "7,5", "7.5.", "..5", "NaN", "-nan", "4/5", "85%",
                   "1234567890123456", "0.30000000000000004", "7e0", " 7", "7]"]),
        (.votes, ["1,234", "720.000", "25k", "1.5m", "-1", "+5", "99999999999999999999", "123456789012345678", "12 345", "N/A", "0"]),
        (.duration, ["0", "00", "-5", "+90", "1h 30m", "90 min", "1:30", "99999999999999999999", "1234567890123456789", "90]"]),
        (.certification, ["r", "nr", "na", "NA", "N/A", "n/a", "null", "NONE", "-", "--", "tba", "TV-MA", " R", "R ", "R[1]", "(R)", "é",
                          "—", "#N/A", "<NA>", "#n/a n/a", "Not  Rated", "pg\t13"]),
        (.imdbID, ["tt011116", "TT0111161", "0111161", "111161", "tt0111161 ", "https://www.imdb.com/title/tt0111161/", "tt01111610000000000000", "ttx111161", "tt"]),
        (.genres, ["[\"drama\"]", "['a', 'b']", "drama|", "|drama", "drama||war", " drama , war ", "N/A", "drama|n/a", "???", "drama|???",
                   "Sci-Fi", "Film-Noir", "drama)", "a[1]", "Café", "drama;war,comedy", "\tdrama", "dra\tma", "-", "a b"]),
    ]

    @Test("an awkward cell in any field is read as RowDecoder reads it", arguments: MovieField.allCases)
    func awkwardCells(_ field: MovieField) throws {
        let values = Self.awkward.first { $0.0 == field }!.1
        let column = Self.header.firstIndex(of: field.name)!
        let rows = values.map { value -> [String] in
            var row = Self.plainRow
            row[column] = value
            return row
        }
        for tsv in [false, true] {
            let text = tsv ? ([Self.header] + rows.filter { !$0.contains { $0.contains("\t") } }).map { $0.joined(separator: "\t") }.joined(separator: "\n")
                           : ([Self.header] + rows).map(Self.csvLine).joined(separator: "\n")
            for (index, result) in try Self.decodeBoth(text + "\n", tsv: tsv).enumerated() {
                #expect(result.fast == result.plain, "\(field.name) \(values[index]) tsv \(tsv)")
            }
        }
    }

    @Test("random rows of plain and awkward cells read alike, under each way of reading cells", arguments: 0..<6)
    func randomRows(_ variant: Int) throws {
        var rng = SeededRandom(seed: UInt64(variant) + 11)
        let pieces = ["", "0", "1", "7", "9", "19", "95", "2001", ".", ",", " ", "\t", "-", "+", "a", "Z", "tt", "|", ";", "[", "]",
                      "(", ")", "\"", "N/A", "na", "\\N", "é", "e\u{301}", "\u{A0}", "京", "k", "h", "min", ":"]
        let tsv = variant % 2 == 1
        var reading = Importer.CellReading(nullMarker: tsv ? "\\N" : nil)
        if variant >= 2 { reading.zeroIsUnknown = 1 << MovieField.rating.rawValue | 1 << MovieField.duration.rawValue }
        if variant >= 4 { reading.unquoting = tsv ? .signed : .none; reading.decimalComma = !tsv }
        var lines = [Self.header]
        for _ in 0..<3_000 {
            var row = Self.plainRow
            for column in row.indices where Int.random(in: 0..<3, using: &rng) == 0 {
                row[column] = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            }
            lines.append(tsv ? row.map { $0.replacing("\t", with: " ").replacing("\n", with: " ") } : row)
        }
        let text = lines.map { tsv ? $0.joined(separator: "\t") : Self.csvLine($0) }.joined(separator: "\n") + "\n"
        let results = try Self.decodeBoth(text, tsv: tsv, reading: reading, updateOnly: variant == 5)
        #expect(results.count == 3_000)
        var taken = 0
        for (index, result) in results.enumerated() {
            #expect(result.fast == result.plain, "line \(index + 2): \(lines[index + 1])")
            if result.taken { taken += 1 }
        }
        // Two thirds of the cells are plain: many rows are, and PlainRow takes them.
        #expect(taken > 100)
    }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore

/// SPEC section 4's round trip, value by value: whatever the schema's CHECKs let a sqlite3 user
/// store, moviecat prints in JSON, CSV and TSV as text its import reads back to the same value.
@Suite struct RoundTripValueTests {
    struct Case: Sendable, CustomStringConvertible {
        let field: MovieField
        let value: FieldValue
        var description: String { "\(field.name) \(value)" }
    }

    static let cases: [Case] = [
        Case(field: .votes, value: .integer(Int.max)), Case(field: .votes, value: .integer(1_000_000_000_000)),
        Case(field: .votes, value: .integer(0)),
        Case(field: .duration, value: .integer(Int.max)), Case(field: .duration, value: .integer(1_000_000_000)),
        Case(field: .duration, value: .integer(9_223_372_036_854_775_800)),
        Case(field: .imdbID, value: .text("tt9223372036854775807")), Case(field: .imdbID, value: .text("tt00000000001")),
        Case(field: .imdbID, value: .text("tt0000000")), Case(field: .imdbID, value: .text("tt" + String(repeating: "9", count: 40))),
        Case(field: .imdbID, value: .text("tt00111161")),
        Case(field: .rating, value: .real(9.95)), Case(field: .rating, value: .real(0.30000000000000004)),
        Case(field: .rating, value: .real(1e-300)), Case(field: .rating, value: .real(.leastNonzeroMagnitude)),
        Case(field: .rating, value: .real(.leastNormalMagnitude)), Case(field: .rating, value: .real(10.0.nextDown)),
        Case(field: .rating, value: .real(1.0 / 3)),
        Case(field: .year, value: .integer(1870)), Case(field: .year, value: .integer(2100)),
        Case(field: .certification, value: .text("é")), Case(field: .certification, value: .text("ß")),
        Case(field: .certification, value: .text("TV-ма")), Case(field: .certification, value: .text("R\u{1B}[1M")),
        Case(field: .title, value: .text("x\u{1B}]0;y\u{7}")), Case(field: .title, value: .text("a\u{85}b")),
    ]

    /// The movie of a case: a plain title and the one value.
    static func movie(_ c: Case) -> Movie {
        var movie = Movie(title: "T")
        movie[c.field] = c.value
        return movie
    }

    @Test("a JSON line moviecat prints reads back to the same value", arguments: cases)
    func json(_ c: Case) throws {
        // A value a sqlite3 user can store: the schema and its Swift mirror take it.
        let accepted = try MovieRulesTests.schemaAccepts(MovieColumns.insertHead + MovieColumns.insertValues) { statement in
            try MovieColumns.bindInsert(Self.movie(c), id: nil, now: 0, to: statement, at: 0)
        }
        try #require(accepted && MovieRules.violation(in: Self.movie(c)) == nil)
        let line = MovieWriter.json(Self.movie(c)) + "\n"
        let reader = JSONRecordReader(reader: ByteReader(streaming: Array(line.utf8), name: "-", chunkSize: 64), mode: .lines)
        let record = try #require(try reader.next())
        let cells = Dictionary(record.members.map { ($0.key, Importer.cell($0.value)) }, uniquingKeysWith: { a, _ in a })
        let decoded = RowDecoder.decode(file: "-", line: 1) { cells[$0.outputName] ?? .absent }
        guard case .valid(let row) = decoded else { Issue.record("\(line): \(decoded)"); return }
        #expect(row.movie[c.field] == c.value, "\(line)")
    }

    @Test("a CSV or TSV row moviecat prints reads back to the same value", arguments: cases, [false, true])
    func delimited(_ c: Case, tsv: Bool) throws {
        let movie = Self.movie(c)
        let text = MovieWriter.fieldNames.joined(separator: tsv ? "\t" : ",") + "\n"
            + MovieWriter.delimited(movie, tsv: tsv) + "\n"
        let reader = DelimitedReader(input: ByteReader(streaming: Array(text.utf8), name: "-", chunkSize: 64), dialect: tsv ? .tsv : .csv)
        #expect(try reader.next())
        let (plan, columns, _) = try ImportPlan.make(header: reader.strings(), source: "-:1", options: ImportOptions())
        #expect(try reader.next())
        let decoded = Importer.decode(reader, file: "-", fieldCount: MovieWriter.fieldNames.count,
                                      columnOf: MovieField.allCases.map { columns[$0] }, reading: Importer.CellReading(nullMarker: tsv ? "\\N" : nil, rowRules: plan.rowRules,
                                                                    zeroIsUnknown: plan.zeroIsUnknown), plan: plan)
        guard case .valid(let row) = decoded else { Issue.record("\(text): \(decoded)"); return }
        #expect(row.movie[c.field] == c.value, "\(text)")
    }
}

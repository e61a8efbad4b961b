import MovieDomain
import SQLiteStore
/// CSV and TSV input for the importer: a header row, then one record per row.
extension Importer {
    /// The first line of a Letterboxd list export (`Letterboxd list export v7`).
    static let letterboxdListPreamble = "Letterboxd list export"

    /// The header row: the first record, but for a Letterboxd list export, which opens with the
    /// list's own lines (`Letterboxd list export v7`, a header and a row about the list, a blank
    /// line) before the films' header.
    static func header(_ reader: DelimitedReader, name: String) throws -> [String] {
        var header = reader.strings()
        guard header.count == 1, header[0].hasPrefix(letterboxdListPreamble) else { return header }
        let preamble = reader.recordLine
        repeat {
            guard try reader.next(), reader.recordLine - preamble < 12 else {
                throw CatalogError(.dataError, "\(name):\(preamble): a Letterboxd list export without the films' header (Position,Name,Year,URL) in the lines after it")
            }
            header = reader.strings()
        } while !header.contains(where: { $0.trimmingWhitespace().lowercased() == "position" })
        return header
    }

    func importDelimited(_ input: ByteReader, dialect: DelimitedReader.Dialect) throws {
        let reader = DelimitedReader(input: input, dialect: dialect)
        guard try reader.next() else {
            throw CatalogError(.dataError, "\(input.name):1: empty file: expected a header row naming the columns")
        }
        let header = try Importer.header(reader, name: input.name)
        let (plan, columns, ignored) = try ImportPlan.make(header: header, source: "\(input.name):\(reader.recordLine)",
                                                           options: options)
        describe(plan, ignored: ignored)
        // Rows left out are skipped while scanning, before any field is read.
        reader.conditions = plan.conditions
        let columnOf = MovieField.allCases.map { columns[$0] }
        let nullMarker = dialect == .tsv ? "\\N" : nil
        let rowRules = plan.rowRules, zeroIsUnknown = plan.zeroIsUnknown
        let name = input.name
        let handoff = Handoff(value: reader)
        try streamRows(from: input, header: header) { _ in
            let reader = handoff.value
            return { batch in
                guard try reader.next() else { return false }
                if reader.isFilteredOut {
                    batch.filtered += 1
                    return true
                }
                batch.append(Importer.decode(reader, file: name, fieldCount: header.count, columnOf: columnOf,
                                             nullMarker: nullMarker, plan: plan, rowRules: rowRules, zeroIsUnknown: zeroIsUnknown),
                             raw: reader.fieldBytes())
                return true
            }
        }
    }

    /// Validates the reader's current record.
    static func decode(_ reader: DelimitedReader, file: String, fieldCount: Int, columnOf: [Int?],
                       nullMarker: String?, plan: ImportPlan, rowRules: [ImportLayout.ValueRule], zeroIsUnknown: Int) -> DecodedRow {
        let line = reader.recordLine
        if reader.fieldCount != fieldCount {
            return .invalid([ImportProblem(file: file, line: line, field: "record",
                                           reason: "expected \(fieldCount) fields like the header, found \(reader.fieldCount)")])
        }
        if reader.hasNUL {
            return .invalid([ImportProblem(file: file, line: line, field: "record", reason: "contains a NUL byte")])
        }
        return reader.withRecord { record in
            func cell(_ field: MovieField) -> Cell {
                guard let column = columnOf[field.rawValue] else { return .absent }
                guard let text = record.string(column) else { return .invalidUTF8 }
                if text.isEmpty || text == nullMarker { return .null }
                if zeroIsUnknown & (1 << field.rawValue) != 0 && text == "0" { return .null }
                return .text(text)
            }
            if rowRules.isEmpty { return RowDecoder.decode(file: file, line: line, required: plan.required, cell: cell) }
            // A layout's rules see the whole row (a MovieLens title gives the year too).
            var cells = MovieField.allCases.map(cell)
            for rule in rowRules { rule.apply(to: &cells) }
            return RowDecoder.decode(file: file, line: line, required: plan.required) { cells[$0.rawValue] }
        }
    }
}

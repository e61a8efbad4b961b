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
        // Excel's `sep=;` line names the separator (found from it already): the header follows.
        if header.first?.lowercased() == "sep=", header.dropFirst().allSatisfy(\.isEmpty) {
            guard try reader.next() else { throw CatalogError(.dataError, "\(name):1: no header row after the 'sep=' line") }
            header = reader.strings()
        }
        // Windows PowerShell's Export-Csv writes the objects' type first (`#TYPE System.…`).
        if header.count == 1, header[0].hasPrefix("#TYPE ") {
            guard try reader.next() else { throw CatalogError(.dataError, "\(name):1: no header row after the '#TYPE' line") }
            header = reader.strings()
        }
        guard header.count == 1, header[0].hasPrefix(letterboxdListPreamble) else { return header }
        let preamble = reader.recordLine
        var records = 0
        repeat {
            // The list's header and its row (a description of any length) come first: a few records.
            records += 1
            guard try reader.next(), records <= 6 else {
                throw CatalogError(.dataError, "\(name):\(preamble): a Letterboxd list export without the films' header (Position,Name,Year,URL) in the records after it")
            }
            header = reader.strings()
        } while !header.contains(where: { $0.trimmingWhitespace().lowercased() == "position" })
        return header
    }

    /// How a row's cells are read beyond the plan's columns.
    struct CellReading: Sendable {
        /// The text that means null (TSV's `\N`).
        var nullMarker: String?
        /// The layout's rules that need the whole row, and the fields whose `0` is none known (bits).
        var rowRules: [ImportLayout.ValueRule] = []
        var zeroIsUnknown = 0
        /// Ratings written with a decimal comma (`8,3`), as a CSV separated by `;` writes them.
        var decimalComma = false
        /// TSV fields written quoted, as spreadsheets and CSV libraries write TSV, read unquoted
        /// (not in IMDb's datasets, whose titles may be quoted).
        var unquoting = TSVQuoting.none
    }

    /// Which TSV fields written quoted as RFC 4180 quotes (`"a ""b"" c"`) are read unquoted. A
    /// title may be written in quotes (`"Quoted"`), so a quoted field alone says little: where
    /// the header's fields are quoted (every field is: R, `QUOTE_ALL`), all are; else those whose
    /// quoting shows a writer's (a doubled quote, as any writer escapes one, or a comma, which
    /// Excel quotes).
    enum TSVQuoting: Sendable {
        case none, signed, all
    }

    /// The text of a field written quoted as RFC 4180 quotes (`"a ""b"" c"`: it starts and ends
    /// with a quote, and every quote between is doubled), without the quoting, when `quoting`
    /// reads it so; nil for any other.
    static func unquoted(_ text: String, _ quoting: TSVQuoting) -> String? {
        guard quoting != .none else { return nil }
        let bytes = Array(text.utf8)
        guard bytes.count >= 2, bytes[0] == 0x22, bytes[bytes.count - 1] == 0x22 else { return nil }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count - 2)
        var signed = quoting == .all
        var i = 1
        while i < bytes.count - 1 {
            if bytes[i] == 0x22 {
                guard i + 1 < bytes.count - 1, bytes[i + 1] == 0x22 else { return nil }
                signed = true
                i += 1
            } else if bytes[i] == 0x2C {
                signed = true
            }
            result.append(bytes[i])
            i += 1
        }
        return signed ? String(decoding: result, as: UTF8.self) : nil
    }

    /// The most lines of a sheet's own (a title, notes) looked past for the header.
    static let linesAboveHeader = 5

    /// Whether a line is a header rather than a sheet's title or notes: two or more cells, none
    /// empty, each a name (a letter, and only letters, digits, spaces and `_-./()#%&'`: no
    /// `Legend: * = seen`, no date or count).
    static func looksLikeHeader(_ cells: [String]) -> Bool {
        cells.count >= 2 && cells.allSatisfy { cell in
            let name = cell.trimmingWhitespace()
            return name.unicodeScalars.contains { $0.properties.isAlphabetic }
                && name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || " _-./()#%&'".unicodeScalars.contains($0) }
        }
    }

    /// `;` when a CSV's header line holds semicolons and no comma: a spreadsheet's CSV saved
    /// where the comma is the decimal sign (German, French, Dutch Excel). Else nil.
    static func semicolonSeparator(_ input: ByteReader) throws -> UInt8? {
        // The first line that is not blank (blank lines before the header are passed over).
        let head = try input.peek(1 << 16).drop { $0 == 0x0A || $0 == 0x0D || $0 == 0x20 || $0 == 0x09 }
        let line = head.prefix { $0 != 0x0A && $0 != 0x0D }
        guard line.count < head.count || head.count < 1 << 16 else { return nil }
        var quoted = false, commas = 0, semicolons = 0
        for byte in line {
            if byte == 0x22 { quoted.toggle() } else if !quoted && byte == 0x2C { commas += 1 } else if !quoted && byte == 0x3B { semicolons += 1 }
        }
        return commas == 0 && semicolons > 0 ? 0x3B : nil
    }

    func importDelimited(_ input: ByteReader, dialect: DelimitedReader.Dialect) throws {
        let separator = dialect == .csv ? try Importer.semicolonSeparator(input) : nil
        let reader = DelimitedReader(input: input, dialect: dialect, separator: separator)
        guard try reader.next() else {
            throw CatalogError(.dataError, "\(input.name):1: empty file: expected a header row naming the columns")
        }
        /// A header's names, and whether they were all quoted (TSV: every field then is).
        func names(_ read: [String]) -> (header: [String], quoted: Bool) {
            let unquoted = dialect == .tsv ? read.compactMap { Importer.unquoted($0, .all) } : []
            let quoted = !read.isEmpty && unquoted.count == read.count
            return (quoted ? unquoted : read, quoted)
        }
        var (header, quotedHeader) = names(try Importer.header(reader, name: input.name))
        if let layout = ImportPlan.layout(for: header.map { $0.trimmingWhitespace() }, choice: options.layout), let reason = layout.notMovies {
            addNote("\(layout.title): \(reason); skipped (--layout none reads its columns)")
            return
        }
        let made: (plan: ImportPlan, columns: [MovieField: Int], ignored: [String])
        var passedOver = 0
        do {
            made = try ImportPlan.make(header: header, source: "\(input.name):\(reader.recordLine)", options: options)
        } catch let first as CatalogError where first.kind == .dataError {
            // A sheet's own lines above its header (`My movie list (updated 2024)`, notes): the
            // header is the first of the next few lines that names a title column. Not when the
            // first line is a header itself, without a title column: a row under it naming one
            // (`Heat,movie` under `movie_name,type`) is data.
            let firstIsHeader = Importer.looksLikeHeader(header)
            var found: (plan: ImportPlan, columns: [MovieField: Int], ignored: [String])?
            while found == nil, passedOver < Importer.linesAboveHeader, try reader.next() {
                passedOver += 1
                let candidate = names(reader.strings())
                guard let plan = try? ImportPlan.make(header: candidate.header, source: "\(input.name):\(reader.recordLine)", options: options) else { continue }
                guard firstIsHeader else {
                    (header, quotedHeader, found) = (candidate.header, candidate.quoted, plan)
                    break
                }
                // A wider line of names below a first line of names (`My list,Ann` above
                // `Title,Year,Rating`) may be the header: said, not taken.
                if Importer.looksLikeHeader(candidate.header), candidate.header.count > header.count {
                    throw CatalogError(first.kind, first.message + "; line \(reader.recordLine) names one: if the lines above it are notes, delete them")
                }
                break
            }
            guard let found else { throw first }
            made = found
        }
        let (plan, columns, ignored) = made
        let finalHeader = header
        describe(plan, ignored: ignored)
        if passedOver > 0 { addNote("the header on line \(reader.recordLine), the lines above it passed over") }
        if separator != nil {
            addNote("fields separated by ';', ratings with a decimal comma")
        }
        // Rows left out are skipped while scanning, before any field is read.
        reader.conditions = plan.conditions
        let columnOf = MovieField.allCases.map { columns[$0] }
        let imdb = plan.layout?.name.hasPrefix("imdb-") == true
        let reading = CellReading(nullMarker: dialect == .tsv ? "\\N" : nil, rowRules: plan.rowRules,
                                  zeroIsUnknown: plan.zeroIsUnknown, decimalComma: separator != nil,
                                  unquoting: dialect != .tsv || imdb ? .none : quotedHeader ? .all : .signed)
        let plain = PlainRow(columnOf: columnOf, reading: reading, required: plan.required)
        let name = input.name
        let episodesColumn = plan.layout?.leavesOutEpisodes == true ? columns[.title] : nil
        // moviecat's own CSV and TSV hold no summary rows: a yearless `Total` there is a movie.
        let ownExport = header.map { $0.trimmingWhitespace() } == MovieField.recordNames
        let summary = options.layout == .automatic && plan.layout == nil && !ownExport ? columns[.title].map { (title: $0, year: columns[.year], imdbID: columns[.imdbID]) } : nil
        let handoff = Handoff(value: reader)
        try streamRows(from: input, header: finalHeader) { _ in
            let reader = handoff.value
            return { batch in
                guard try reader.next() else { return false }
                // A short row's missing fields are empty: a condition on one of them is met only by `*`.
                if reader.isFilteredOut || reader.fieldCount < finalHeader.count && !Importer.emptyPasses(plan.conditions, from: reader.fieldCount) {
                    batch.filtered += 1
                    batch.leftOutByConditions += 1
                    if reader.isLeftOutByKind {
                        batch.leftOutByKind += 1
                        batch.kindColumn = plan.conditions.first(where: \.excludes)?.name
                    }
                    return true
                }
                if let episodesColumn, episodesColumn < reader.fieldCount, ImportLayout.isEpisode(reader.string(episodesColumn) ?? "") {
                    batch.filtered += 1
                    return true
                }
                if let summary, reader.withRecord({ SummaryRows.isSummary($0, title: summary.title, year: summary.year, imdbID: summary.imdbID) }) {
                    batch.filtered += 1
                    batch.summaryRows.append(reader.recordLine)
                    return true
                }
                if reader.fieldCount < finalHeader.count { batch.shortRows += 1 }
                batch.append(Importer.decode(reader, file: name, fieldCount: finalHeader.count, columnOf: columnOf,
                                             reading: reading, plan: plan, plain: plain),
                             raw: reader.fieldBytes())
                return true
            }
        }
    }

    /// Whether the conditions on columns from `column` on accept an empty value.
    static func emptyPasses(_ conditions: [RowCondition], from column: Int) -> Bool {
        conditions.allSatisfy { $0.column < column || $0.accepts(UnsafeBufferPointer(start: nil, count: 0)) }
    }

    /// Validates the reader's current record (through `plain` first, when it reads such rows).
    static func decode(_ reader: DelimitedReader, file: String, fieldCount: Int, columnOf: [Int?],
                       reading: CellReading, plan: ImportPlan, plain: PlainRow? = nil) -> DecodedRow {
        let line = reader.recordLine
        // Fewer fields than the header: the missing last ones are empty (Excel writes rows so);
        // more: refused unless the extra ones are empty (a stray trailing comma).
        if reader.fieldCount > fieldCount && reader.withRecord({ record in (fieldCount..<record.count).contains { !record.field($0).isEmpty } }) {
            return .invalid([ImportProblem(file: file, line: line, field: "record",
                                           reason: "expected \(fieldCount) fields like the header, found \(reader.fieldCount)")])
        }
        if reader.hasNUL {
            return .invalid([ImportProblem(file: file, line: line, field: "record", reason: "contains a NUL byte")])
        }
        return reader.withRecord { record in
            // Most rows are plain: read from their bytes without a `String` a cell.
            if let row = plain?.decode(record, line: line) { return .valid(row) }
            func cell(_ field: MovieField) -> Cell {
                guard let column = columnOf[field.rawValue] else { return .absent }
                guard column < record.count else { return .null }
                guard var text = record.string(column) else { return .invalidUTF8 }
                if text.withUTF8Bytes({ $0.first == 0x22 }), let unquoted = Importer.unquoted(text, reading.unquoting) { text = unquoted }
                if text.isEmpty || text == reading.nullMarker { return .null }
                // `0`, `00`, `0.0` (a runtime a dataset wrote as a float), as the JSON rule reads them.
                if reading.zeroIsUnknown & (1 << field.rawValue) != 0 && text.withUTF8Bytes({ $0.contains(0x30) && $0.allSatisfy { $0 == 0x30 || $0 == 0x2E } }) { return .null }
                if reading.decimalComma && field == .rating { return .text(text.replacing(",", with: ".")) }
                return .text(text)
            }
            if reading.rowRules.isEmpty { return RowDecoder.decode(file: file, line: line, required: plan.required, cell: cell) }
            // A layout's rules see the whole row (a MovieLens title gives the year too).
            var cells = MovieField.allCases.map(cell)
            for rule in reading.rowRules { rule.apply(to: &cells) }
            return RowDecoder.decode(file: file, line: line, required: plan.required) { cells[$0.rawValue] }
        }
    }
}

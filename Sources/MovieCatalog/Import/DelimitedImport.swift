/// Rows parsed and validated ahead of the writer, in input order.
struct ParsedBatch: Sendable {
    var rows: [DecodedRow] = []
    /// The fields as read, kept only for invalid rows (for `--rejects`).
    var raw: [[String]?] = []
    /// Input bytes consumed when the batch was cut, for the progress line.
    var bytesConsumed = 0
    /// JSON keys first seen in this batch that feed no field.
    var ignored: [String] = []

    static let size = 512

    mutating func append(_ row: DecodedRow, raw fields: @autoclosure () -> [String]) {
        rows.append(row)
        if case .invalid = row { raw.append(fields()) } else { raw.append(nil) }
    }
}

/// CSV and TSV input for the importer: a header row, then one record per row.
extension Importer {
    func importDelimited(_ input: ByteReader, dialect: DelimitedReader.Dialect) throws {
        let reader = DelimitedReader(input: input, dialect: dialect)
        guard try reader.next() else {
            throw CatalogError(.dataError, "\(input.name):1: empty file: expected a header row naming the columns")
        }
        let header = reader.strings()
        let (columns, ignored) = try mapping.resolve(header: header, source: "\(input.name):\(reader.recordLine)")
        ignore(ignored)
        let columnOf = ImportField.allCases.map { columns[$0] }
        let nullMarker = dialect == .tsv ? "\\N" : nil
        let name = input.name
        let handoff = Handoff(value: reader)
        try streamRows(from: input, header: header) { _ in
            let reader = handoff.value
            return { batch in
                guard try reader.next() else { return false }
                batch.append(Importer.decode(reader, file: name, fieldCount: header.count, columnOf: columnOf,
                                             nullMarker: nullMarker), raw: reader.strings())
                return true
            }
        }
    }

    /// Parses rows on a second thread while this one stores them, in order.
    ///
    /// `makeProducer` runs on the parsing thread (which alone touches `input` from then on) and
    /// returns a function that appends the next row to a batch, or returns false at the end.
    @discardableResult
    func streamRows(from input: ByteReader, header: [String],
                    makeProducer: @escaping @Sendable (ByteReader) -> (inout ParsedBatch) throws -> Bool) throws -> [String] {
        let handoff = Handoff(value: input)
        let stop = StopFlag()
        let ahead = ParseAhead<ParsedBatch>.start { emit in
            let input = handoff.value
            input.shouldStop = { stop.isRaised }
            let produce = makeProducer(input)
            var batch = ParsedBatch()
            while try produce(&batch) {
                if batch.rows.count == ParsedBatch.size {
                    batch.bytesConsumed = input.bytesConsumed
                    guard emit(batch) else { return }
                    batch = ParsedBatch()
                }
            }
            batch.bytesConsumed = input.bytesConsumed
            _ = emit(batch)
        }
        defer {
            stop.raise()   // ends a read stalled on a pipe, so the thread can be joined at once
            ahead.cancel()
        }
        var ignored: [String] = []
        while let batch = try ahead.next() {
            ignored += batch.ignored
            try handle(batch, from: input, header: header)
        }
        return ignored
    }

    /// Validates the reader's current record.
    static func decode(_ reader: DelimitedReader, file: String, fieldCount: Int, columnOf: [Int?],
                       nullMarker: String?) -> DecodedRow {
        let line = reader.recordLine
        if reader.fieldCount != fieldCount {
            return .invalid([ImportProblem(file: file, line: line, field: "record",
                                           reason: "expected \(fieldCount) fields like the header, found \(reader.fieldCount)")])
        }
        if reader.hasNUL {
            return .invalid([ImportProblem(file: file, line: line, field: "record", reason: "contains a NUL byte")])
        }
        return RowDecoder.decode(file: file, line: line) { field in
            guard let column = columnOf[field.index] else { return .absent }
            guard let text = reader.string(column) else { return .invalidUTF8 }
            if text.isEmpty || text == nullMarker { return .null }
            return .text(text)
        }
    }
}

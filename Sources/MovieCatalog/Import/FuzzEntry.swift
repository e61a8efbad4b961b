import MovieDomain

/// Entry points for the libFuzzer targets in `Fuzz/` and for the unit test that replays their
/// corpus: each feeds arbitrary bytes to one reader or parser, which must give values or
/// errors and never crash.
public enum FuzzEntry {
    /// CSV or TSV records, with a row condition, through validation as an import does.
    public static func delimited(_ data: [UInt8], tsv: Bool) {
        for chunkSize in [64, 7] {
            if let difference = recordDifference(data, tsv: tsv, chunkSize: chunkSize) { preconditionFailure(difference) }
        }
        let input = ByteReader(streaming: data, name: "fuzz", chunkSize: 64)
        // Half the inputs have their encoding told as a file's is (Windows-1252, UTF-16, late too).
        if data.count % 3 != 0 {
            input.encodingSniffed = false
            input.maySingleByte = true
        }
        let reader = DelimitedReader(input: input, dialect: tsv ? .tsv : .csv)
        do {
            guard try reader.next() else { return }
            let header = reader.strings()
            _ = Importer.looksLikeHeader(header)
            reader.conditions = [RowCondition(column: 1, name: "kind", values: ["movie", "tvMovie"]),
                                 RowKinds.condition(column: 2, name: "media type")]
            let columnOf = MovieField.allCases.map { $0.rawValue < header.count ? $0.rawValue : nil }
            let plan = ImportPlan(layout: ImportLayout.recognise(header) ?? ImportLayout.named("movielens")!,
                                  mapping: FieldMapping(), conditions: [], updateOnly: data.count % 2 == 0)
            // Rows read plainly (no layout's rules): where `PlainRow` takes one, `RowDecoder` must agree.
            let plainReading = Importer.CellReading(nullMarker: tsv ? "\\N" : nil, zeroIsUnknown: data.count % 5 == 0 ? 1 << MovieField.rating.rawValue : 0,
                                                    unquoting: tsv && data.count % 7 == 0 ? .signed : .none)
            let plain = PlainRow(columnOf: columnOf, reading: plainReading, required: plan.required)
            while try reader.next() {
                if reader.isFilteredOut { continue }
                _ = Importer.decode(reader, file: "fuzz", fieldCount: header.count, columnOf: columnOf,
                                    reading: Importer.CellReading(nullMarker: tsv ? "\\N" : nil, rowRules: plan.rowRules, zeroIsUnknown: plan.zeroIsUnknown), plan: plan)
                let decoded = Importer.decode(reader, file: "fuzz", fieldCount: header.count, columnOf: columnOf, reading: plainReading, plan: plan)
                let fast = Importer.decode(reader, file: "fuzz", fieldCount: header.count, columnOf: columnOf, reading: plainReading, plan: plan, plain: plain)
                precondition(fast == decoded, "PlainRow read \(fast) where RowDecoder read \(decoded)")
                _ = reader.strings()
            }
        } catch {}
    }

    /// Reads `data` with and without `DelimitedReader.scanPlain` (in chunks of `chunkSize` bytes,
    /// or all at once when nil; split on `separator` when given; for inputs of even length under a
    /// TSV's skipping condition and a kind's): nil when both give the same records, fields, lines,
    /// flags, input positions and errors, else the first difference.
    public static func recordDifference(_ data: [UInt8], tsv: Bool, chunkSize: Int?, separator: UInt8? = nil) -> String? {
        func reader(plainScan: Bool) -> DelimitedReader {
            let input = chunkSize.map { ByteReader(streaming: data, name: "fuzz", chunkSize: $0) } ?? ByteReader(bytes: data, name: "fuzz")
            if data.count % 3 != 0 {
                input.encodingSniffed = false
                input.maySingleByte = true
            }
            let reader = DelimitedReader(input: input, dialect: tsv ? .tsv : .csv, separator: separator, plainScan: plainScan)
            if data.count % 2 == 0 {
                reader.conditions = [RowCondition(column: 1, name: "kind", values: ["movie", "tvMovie"]),
                                     RowKinds.condition(column: 2, name: "media type")]
            }
            return reader
        }
        let plain = reader(plainScan: true), bytewise = reader(plainScan: false)
        while true {
            let read = Result { try plain.next() }, expected = Result { try bytewise.next() }
            switch (read, expected) {
            case (.success(let more), .success(let expectedMore)):
                guard more == expectedMore else { return "scanPlain: more records \(more), scan \(expectedMore)" }
                guard plain.line == bytewise.line, plain.input.position == bytewise.input.position else {
                    return "scanPlain at line \(plain.line), byte \(plain.input.position); scan at line \(bytewise.line), byte \(bytewise.input.position)"
                }
                guard more else { return nil }
                let fields = plain.fieldBytes(), expectedFields = bytewise.fieldBytes()
                guard fields == expectedFields, plain.recordLine == bytewise.recordLine, plain.hasNUL == bytewise.hasNUL,
                      plain.isFilteredOut == bytewise.isFilteredOut, plain.isLeftOutByKind == bytewise.isLeftOutByKind else {
                    return "scanPlain read line \(plain.recordLine) \(fields) (NUL \(plain.hasNUL), left out \(plain.isFilteredOut)/\(plain.isLeftOutByKind)) "
                        + "where scan read line \(bytewise.recordLine) \(expectedFields) (NUL \(bytewise.hasNUL), left out \(bytewise.isFilteredOut)/\(bytewise.isLeftOutByKind))"
                }
            case (.failure(let error), .failure(let expectedError)):
                return "\(error)" == "\(expectedError)" ? nil : "scanPlain failed with \(error), scan with \(expectedError)"
            default:
                return "scanPlain gave \(read), scan \(expected)"
            }
        }
    }

    /// A JSON array or JSON Lines, record by record, each record's values as cells, then each
    /// record through the row conditions and validation as an import does (keys to fields by the
    /// plain aliases, nested ones too).
    public static func json(_ data: [UInt8], lines: Bool) {
        let reader = JSONRecordReader(reader: ByteReader(streaming: data, name: "fuzz", chunkSize: 64), mode: lines ? .lines : .array)
        let mapping = FieldMapping()
        let conditions = [RowCondition(column: -1, name: "type", values: ["movie"], given: false), RowKinds.condition(column: -1, name: "media_type")]
        var seen: Set<String> = []
        do {
            while let record = try reader.next() {
                for member in record.members { _ = Importer.rawText(Importer.cell(member.value)) }
                let members = Importer.flattened(record.members)
                var byKind = false
                _ = Importer.passes(members, conditions, seen: &seen, byKind: &byKind)
                var cells = [Cell](repeating: .absent, count: MovieField.allCases.count)
                for member in members {
                    if let field = mapping.field(for: member.key) { cells[field.rawValue] = Importer.cell(member.value) }
                }
                for rule in [ImportLayout.ValueRule.yearAfterTitle, .zeroIsUnknown(.rating), .imdbIDFromGuids] { rule.apply(to: &cells) }
                _ = RowDecoder.decode(file: "fuzz", line: record.line) { cells[$0.rawValue] }
            }
        } catch {}
    }

    /// Input that may be gzip data, read through the reader that inflates it.
    public static func gzip(_ data: [UInt8]) {
        let input = ByteReader(streaming: data, name: "fuzz", chunkSize: 512)
        do { while try input.next() != nil {} } catch {}
    }

    /// Filter tokens and flag values of every facet.
    public static func filterToken(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        let parser = FilterParser(genres: GenreCatalogue([Genre(id: 1, code: "drama", name: "Drama"),
                                                          Genre(id: 2, code: "sci-fi", name: "Sci-Fi")]))
        _ = try? parser.parseToken(text)
        for facet in Facet.allCases {
            if let elements = try? parser.parse(facet, text) {
                // A parsed element's canonical text parses back to itself.
                for element in elements where (try? parser.parseToken(element.description)) != [element] {
                    fatalError("\(element) does not round-trip through '\(element.description)'")
                }
            }
        }
    }

    /// The value parsers: durations, ratings, years, votes, IMDb ids, dates, counts, numbers.
    public static func values(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        _ = ValueParsing.minutes(text)
        _ = ValueParsing.integer(text)
        _ = ValueParsing.decimal(text)
        _ = ValueParsing.number(text)
        _ = ValueParsing.count(text)
        _ = ValueParsing.imdbID(text)
        _ = ValueParsing.yearOfDate(text)
        _ = ValueParsing.wholeHours(text)
        for field in MovieField.allCases {
            if case .success(let value) = MovieRules.value(field, from: text.trimmingWhitespace()), !text.isEmpty {
                var movie = Movie(title: field == .title ? text.trimmingWhitespace() : "T")
                movie[field] = value
                // What the rules accept, the schema's CHECKs accept.
                if let violation = MovieRules.violation(in: movie), field != .title {
                    fatalError("\(field.name) '\(text)' passed the rules but \(violation)")
                }
            }
        }
    }
}

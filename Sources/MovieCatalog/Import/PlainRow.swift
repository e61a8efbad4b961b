import MovieDomain

/// CSV and TSV rows of plain cells decoded straight from their bytes, with no `String` made for
/// a cell that is only read as a number: four digits for a year, a decimal for a rating
/// (`ValueParsing.decimal`'s), digits for votes and minutes, `tt` and digits for an IMDb id,
/// ASCII names for genres and a certification, a title without spaces at its ends. Nearly every
/// row of a dataset is plain; any cell that is not (a date, `1h 30m`, `N/A` in a number, a note,
/// a value out of range) makes `decode` return nil, and the row goes through `RowDecoder`, whose
/// result this equals for every row it takes (`PlainRowTests` and the fuzz target compare them).
struct PlainRow: Sendable {
    /// The input's columns of the fields it has, in field order.
    private let columns: [(field: MovieField, column: Int)]
    private let present: MovieFields
    private let reading: Importer.CellReading
    private let required: MovieField

    /// Rows with the fields of `columnOf` (a column by field), read as `reading` says; nil when
    /// its layout has rules over whole rows (`RowDecoder` applies them).
    init?(columnOf: [Int?], reading: Importer.CellReading, required: MovieField) {
        guard reading.rowRules.isEmpty else { return nil }
        columns = MovieField.allCases.compactMap { field in columnOf[field.rawValue].map { (field, $0) } }
        present = MovieFields(columns.map(\.field))
        self.reading = reading
        self.required = required
    }

    /// The row's values, or nil when a cell is not plain.
    func decode(_ record: DelimitedReader.Record, line: Int) -> ImportRow? {
        var movie = Movie(title: "")
        for (field, column) in columns where column < record.count {
            let bytes = record.field(column)
            if bytes.isEmpty || reading.nullMarker?.withUTF8Bytes({ $0.elementsEqual(bytes) }) == true { continue }
            // A quoted TSV field may be read unquoted: `Importer.decode` knows how.
            if reading.unquoting != .none && bytes[0] == 0x22 { return nil }
            if reading.zeroIsUnknown & (1 << field.rawValue) != 0 && bytes.contains(0x30) && bytes.allSatisfy({ $0 == 0x30 || $0 == 0x2E }) {
                continue
            }
            switch field {
            case .title:
                guard let title = Self.trimmedText(record, column) else { return nil }
                movie.title = title.precomposed
            case .year:
                guard bytes.count == 4, let year = Self.digits(bytes), MovieRules.years.contains(year) else { return nil }
                movie.year = year
            case .rating:
                guard let rating = ValueParsing.decimal(bytes: bytes), MovieRules.ratings.contains(rating) else { return nil }
                movie.rating = rating
            case .votes:
                guard let votes = Self.digits(bytes) else { return nil }
                movie.votes = votes
            case .duration:
                guard let minutes = Self.digits(bytes), minutes > 0 else { return nil }
                movie.durationMinutes = minutes
            case .certification:
                guard let word = Self.word(bytes) else { return nil }
                if ValueParsing.isNullWord(ascii: word) { continue }
                movie.certification = MovieRules.uppercased(String(decoding: word, as: UTF8.self))
            case .imdbID:
                guard bytes.count >= 9, bytes[0] == 0x74, bytes[1] == 0x74,
                      Self.digits(UnsafeBufferPointer(rebasing: bytes[2...]), upTo: .max) != nil else { return nil }
                movie.imdbID = String(decoding: bytes, as: UTF8.self)
            case .genres:
                guard let genres = Self.genres(bytes) else { return nil }
                movie.genres = genres
            }
        }
        // A row missing its required value has a problem to report: `RowDecoder`'s to word.
        if required == .title ? movie.title.isEmpty : movie[required] == .null { return nil }
        return ImportRow(line: line, movie: movie, present: present)
    }

    /// A cell's text when it is valid UTF-8 and trimming would keep it as it is (no whitespace
    /// at either end, as `trimmingWhitespace` finds it), else nil.
    private static func trimmedText(_ record: DelimitedReader.Record, _ column: Int) -> String? {
        let bytes = record.field(column)
        guard let text = record.string(column) else { return nil }
        if isVisible(bytes[0]) && isVisible(bytes[bytes.count - 1]) { return text }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              !first.properties.isWhitespace, !last.properties.isWhitespace else { return nil }
        return text
    }

    /// Printable ASCII other than a space: a cell's edge that trimming keeps.
    private static func isVisible(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

    /// Digits alone as a number (no sign, at most `upTo` digits: 18 stay within `Int`).
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, upTo limit: Int = 18) -> Int? {
        guard !bytes.isEmpty, bytes.count <= limit else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value &* 10 &+ Int(byte - 0x30)
        }
        return value
    }

    /// A name as a plain cell writes it: printable ASCII, visible at both ends, and no note after
    /// it (`]`, `)`), with a letter or digit (so its code is not empty).
    private static func word(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        guard let first = bytes.first, let last = bytes.last, isVisible(first), isVisible(last),
              last != UInt8(ascii: "]"), last != UInt8(ascii: ")") else { return nil }
        var wordCharacter = false
        for byte in bytes {
            guard byte >= 0x20 && byte < 0x7F else { return nil }
            if (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) { wordCharacter = true }
        }
        return wordCharacter ? bytes : nil
    }

    /// Genre names split on `|`, `,` or `;` as `RowDecoder.splitGenres` splits them, each a
    /// `word`; nil for a list written as JSON or Python writes one, or a name that is not a word.
    private static func genres(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
        var names: [String] = []
        names.reserveCapacity(4)
        var start = 0
        for i in 0...bytes.count {
            guard i == bytes.count || bytes[i] == 0x7C || bytes[i] == 0x2C || bytes[i] == 0x3B else {
                if bytes[i] == UInt8(ascii: "[") { return nil }
                continue
            }
            var lo = start, hi = i
            while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
            while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
            start = i + 1
            guard hi > lo else { continue }
            guard let name = word(UnsafeBufferPointer(rebasing: bytes[lo..<hi])) else { return nil }
            if !ValueParsing.isNullWord(ascii: name) { names.append(String(decoding: name, as: UTF8.self)) }
        }
        return names
    }
}

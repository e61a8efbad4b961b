import MovieDomain
import SQLiteStore
/// The formats `filter` can print.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, csv, tsv, json, jsonl
}

/// Writes movies in one output format; the text formats stream, the table waits to align columns.
public final class MovieWriter {
    /// Field names of csv/tsv headers and JSON objects.
    public static let fieldNames = MovieField.recordNames

    private let format: OutputFormat
    private let out: TextOutput
    private let table: MovieTable?
    /// The number of movies written so far.
    private(set) public var count = 0
    /// A CSV, TSV or JSON line's bytes, made again for each movie in the same storage.
    private var line: [UInt8] = []

    /// The fields whose table columns are shown only when some listed movie has a value.
    public static let optionalColumns: [MovieField] = [.votes, .imdbID]

    /// `genres` gives display names for the table; `width` is the terminal width (nil: never cut
    /// titles); `tableFields` the table's columns after the id (others formats show every field).
    public init(format: OutputFormat, to out: TextOutput, genres: GenreCatalogue, width: Int?,
                tableFields: [MovieField] = MovieField.allCases) {
        self.format = format
        self.out = out
        self.table = format == .table ? MovieTable(genres: genres, width: width, fields: tableFields) : nil
        switch format {
        case .csv: out.write(MovieWriter.fieldNames.joined(separator: ",") + "\n")
        case .tsv: out.write(MovieWriter.fieldNames.joined(separator: "\t") + "\n")
        case .json: out.write("[")
        default: break
        }
    }

    /// Writes (or, for the table, collects) one movie.
    public func write(_ movie: Movie) {
        switch format {
        case .table: table?.append(movie, to: out)
        case .csv, .tsv:
            line.removeAll(keepingCapacity: true)
            MovieWriter.appendDelimited(movie, tsv: format == .tsv, to: &line)
            line.append(UInt8(ascii: "\n"))
            out.write(bytes: line)
        case .json, .jsonl:
            line.removeAll(keepingCapacity: true)
            if format == .json { line.append(contentsOf: count == 0 ? [10] : [44, 10]) }
            MovieWriter.appendJSON(movie, to: &line)
            if format == .jsonl { line.append(10) }
            out.write(bytes: line)
        }
        count += 1
    }

    /// Finishes the output (closes the JSON array, prints the table) and flushes.
    public func finish() throws {
        switch format {
        case .json: out.write(count == 0 ? "]\n" : "\n]\n")
        case .table: table?.render(to: out)
        default: break
        }
        try out.flush()
    }

    /// One movie as a JSON object with the SPEC's field names.
    public static func json(_ m: Movie) -> String {
        var text: [UInt8] = []
        appendJSON(m, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `json`'s object to `text` as bytes.
    static func appendJSON(_ m: Movie, to text: inout [UInt8]) {
        text.append(contentsOf: "{\"id\":".utf8)
        text.append(contentsOf: String(m.id).utf8)
        for (position, field) in MovieField.allCases.enumerated() {
            text.append(contentsOf: MovieWriter.jsonKeys[position])
            switch m[field] {
            case .null: text.append(contentsOf: "null".utf8)
            case .text(let s): TextEscaping.appendJSON(s, to: &text)
            case .integer(let n): text.append(contentsOf: String(n).utf8)
            case .real(let d): text.append(contentsOf: NumberText.decimal(d).utf8)
            case .list(let items):
                text.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { text.append(UInt8(ascii: ",")) }
                    TextEscaping.appendJSON(item, to: &text)
                }
                text.append(UInt8(ascii: "]"))
            }
        }
        text.append(UInt8(ascii: "}"))
    }

    /// `,"name":` of each field, in `MovieField.allCases` order.
    private static let jsonKeys: [[UInt8]] = MovieField.allCases.map { Array(",\"\($0.outputName)\":".utf8) }

    /// One movie as a CSV or TSV line (without its line break); genres joined by `|`.
    static func delimited(_ m: Movie, tsv: Bool) -> String {
        var line: [UInt8] = []
        appendDelimited(m, tsv: tsv, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// Appends `delimited`'s line to `line` as bytes: a line of cell Strings joined cost some
    /// 17,000 instructions a movie (exporting 950k movies: some 16 G).
    static func appendDelimited(_ m: Movie, tsv: Bool, to line: inout [UInt8]) {
        func append(text: String) {
            if tsv { TextEscaping.appendTSV(text, to: &line) } else { TextEscaping.appendCSV(text, to: &line) }
        }
        line.append(contentsOf: String(m.id).utf8)
        for field in MovieField.allCases {
            line.append(UInt8(ascii: tsv ? "\t" : ","))
            switch m[field] {
            case .null: break
            case .text(let s): append(text: s)
            case .integer(let n): line.append(contentsOf: String(n).utf8)
            case .real(let d): line.append(contentsOf: NumberText.decimal(d).utf8)
            case .list(let items): append(text: items.joined(separator: "|"))
            }
        }
    }
}

/// The aligned table people read: ID, Title, Year, Genres, Rating, Duration, Certification.
///
/// Column widths come from the first rows; after that rows stream, so a million-row table
/// does not sit in memory (a later, longer cell just widens its own line).
final class MovieTable {
    private let genres: GenreCatalogue
    private let width: Int?
    private let fields: [MovieField]
    private var rows: [[String]] = []
    private var widths: [Int]?
    private var headers: [String]
    private let rightAligned: Set<Int>
    /// The columns that give way to a narrow terminal: the title, then the genres.
    private let shrinking: [Int]
    /// The columns left out on a terminal too narrow for them and a readable title: IMDb,
    /// then Votes, then Certification (whose header is first written `Cert`).
    private let leavable: [Int]
    private let certification: Int?
    /// The columns left out when a line fits no other way.
    private let lastResort: [Int]
    /// The columns left out (their cells are not printed).
    private var hidden: Set<Int> = []
    /// Rows measured before the widths are fixed.
    static let window = 1000

    init(genres: GenreCatalogue, width: Int?, fields: [MovieField]) {
        self.genres = genres
        self.width = width
        self.fields = fields
        headers = ["ID"] + fields.map(\.header)
        // Column 0 is the id; field columns follow in `fields` order.
        rightAligned = Set([0] + fields.indices.filter { fields[$0].rightAligned }.map { $0 + 1 })
        shrinking = [MovieField.title, .genres].compactMap { fields.firstIndex(of: $0) }.map { $0 + 1 }
        leavable = [MovieField.imdbID, .votes, .certification].compactMap { fields.firstIndex(of: $0) }.map { $0 + 1 }
        lastResort = [MovieField.duration, .genres, .rating].compactMap { fields.firstIndex(of: $0) }.map { $0 + 1 }
        certification = fields.firstIndex(of: .certification).map { $0 + 1 }
    }

    /// The title a narrow terminal still leaves readable, in display columns.
    static let readableTitle = 24

    func append(_ m: Movie, to out: TextOutput) {
        let row = [String(m.id)] + fields.map { cell($0, of: m) }
        if let widths {
            out.write(bytes: line(row, widths, pastWindow: true))
            return
        }
        rows.append(row)
        if rows.count == MovieTable.window { render(to: out) }
    }

    /// Fixes the widths from the rows so far and prints them under the header.
    func render(to out: TextOutput) {
        guard widths == nil, !rows.isEmpty else { return }
        var widths = headers.map(DisplayWidth.of)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], DisplayWidth.of(cell)) }
        }
        if let width { fit(&widths, to: width) }
        self.widths = widths
        out.write(bytes: line(headers, widths))
        for row in rows { out.write(bytes: line(row, widths)) }
        rows = []
    }

    /// Fits the columns to a terminal's width: the title and the genres give way (the genres
    /// first down to a third of the room, the title keeping the most), Certification's header
    /// is written `Cert`, and where the title would still be cut below a readable width, IMDb,
    /// Votes and Certification are left out.
    private func fit(_ widths: inout [Int], to width: Int) {
        var natural = widths
        guard let title = shrinking.first else { return }
        func share() {
            let genres = shrinking.dropFirst().first.flatMap { hidden.contains($0) ? nil : $0 }
            let shown = widths.indices.filter { !hidden.contains($0) }
            let fixed = shown.filter { !shrinking.contains($0) }.reduce(0) { $0 + natural[$1] }
            let room = max(6, width - fixed - 2 * (shown.count - 1))
            guard let genres else { widths[title] = max(6, min(natural[title], room)); return }
            let genresWidth = min(natural[genres], max(6, room - natural[title], room / 3))
            widths[title] = max(6, min(natural[title], room - genresWidth))
            widths[genres] = max(6, min(natural[genres], room - widths[title]))
        }
        share()
        // A cut title or genre list first takes the room of Certification's long header.
        if let certification, shrinking.contains(where: { widths[$0] < natural[$0] }) {
            headers[certification] = "Cert"
            natural[certification] = rows.reduce(DisplayWidth.of("Cert")) { max($0, DisplayWidth.of($1[certification])) }
            widths[certification] = natural[certification]
            share()
        }
        for column in leavable where widths[title] < min(natural[title], MovieTable.readableTitle) {
            hidden.insert(column)
            share()
        }
        // A terminal too narrow even then (under some 45 columns): the last columns go, the
        // duration, the genres and the rating, until a line fits.
        func lineWidth() -> Int {
            let shown = widths.indices.filter { !hidden.contains($0) }
            return shown.reduce(0) { $0 + widths[$1] } + 2 * (shown.count - 1)
        }
        for column in lastResort where lineWidth() > width {
            hidden.insert(column)
            share()
        }
    }

    /// One aligned line with its line break, as bytes; titles and genres are cut on a terminal,
    /// and elsewhere past the widths the first rows set (a later, longer title would push the
    /// rest of its line out of line). Spaces are written only before more text: a line ends at
    /// its last character that is not a space (padded Strings joined, then trimmed, cost some
    /// 20,000 instructions a row).
    private func line(_ cells: [String], _ widths: [Int], pastWindow: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [], spaces = 0, first = true
        for (i, cell) in cells.enumerated() where !hidden.contains(i) {
            if !first { spaces += 2 }
            first = false
            let text = shrinking.contains(i) && (width != nil || pastWindow) ? DisplayWidth.truncate(cell, to: widths[i]) : cell
            let padding = max(0, widths[i] - DisplayWidth.of(text)), right = rightAligned.contains(i)
            if right { spaces += padding }
            text.withUTF8Bytes { text in
                // The text's own trailing spaces wait like padding.
                let end = (text.lastIndex { $0 != 0x20 }).map { $0 + 1 } ?? 0
                if end > 0 {
                    bytes.append(contentsOf: repeatElement(0x20, count: spaces))
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[0..<end]))
                    spaces = 0
                }
                spaces += text.count - end
            }
            if !right { spaces += padding }
        }
        bytes.append(0x0A)
        return bytes
    }

    /// A field as a table cell: genres by name, ratings with one decimal, durations in hours.
    private func cell(_ field: MovieField, of m: Movie) -> String {
        switch field {
        case .genres: return TextEscaping.terminalSafe(m.genres.map(genres.name(of:)).joined(separator: ", "))
        case .rating: return m.rating.map(MovieTable.rating) ?? ""
        case .duration: return m.durationMinutes.map(MovieTable.duration) ?? ""
        case .votes: return m.votes.map(NumberText.grouped) ?? ""
        case .title, .year, .certification, .imdbID:
            switch m[field] {
            case .text(let s): return TextEscaping.terminalSafe(s)
            case .integer(let n): return String(n)
            case .real(let d): return NumberText.decimal(d)
            case .null, .list: return ""
            }
        }
    }

    /// A rating with one decimal (`7.5`, `5.0`), or as many as it has (`7.99`): rounded, 7.99
    /// would show as 8.0, a rating `--rating 8` does not find.
    static func rating(_ value: Double) -> String {
        // A catalog edited past its CHECKs may hold any number: print those as they are.
        guard value.isFinite, abs(value) < 1e15 else { return NumberText.decimal(value) }
        let tenths = Int((value * 10).rounded())
        guard Double(tenths) / 10 == value else { return NumberText.decimal(value) }
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// A duration like `2h 10m`, `45m`, `3h`.
    static func duration(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        if h == 0 { return "\(m)m" }
        return m == 0 ? "\(h)h" : "\(h)h \(m)m"
    }
}

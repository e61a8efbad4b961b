import MovieDomain
import SQLiteStore
/// One input cell, before validation.
public enum Cell: Equatable, Sendable {
    /// The input has no such column or key.
    case absent
    /// Empty, `\N` (TSV) or JSON null.
    case null
    case text(String)
    /// A JSON number literal.
    case number(String)
    /// A JSON array of strings (genres), or of objects each with a `name` (TMDB's genres).
    case list([String])
    /// A JSON array of numbers (TMDB's `genre_ids`, which its layout names).
    case numbers([String])
    /// A JSON value of a type no field takes (named for the message: "a boolean").
    case unsupported(String)
    /// Bytes that are not valid UTF-8.
    case invalidUTF8
}

/// A validated input row, ready to store.
@dynamicMemberLookup
public struct ImportRow: Equatable, Sendable {
    /// Physical line where the record starts.
    public var line: Int
    /// The row's values (id 0; genres as names, resolved to codes when stored).
    public var movie: Movie {
        didSet {
            keyHash = nil
            breaksNoRule = nil
        }
    }
    /// The fields the input has (absent ones keep their stored values on update).
    public var present: MovieFields
    /// The hash of the row's key (`RepeatSieve`): its IMDb id's when it has one, else its title
    /// and year's. Computed with the row, where it is parsed, off the writer's thread; nil once
    /// the values change.
    private(set) var keyHash: UInt64?
    /// Whether the values pass `MovieRules.violation` (the CHECKs a bulk load turns off), checked
    /// with the row where it is parsed; nil once the values change.
    private var breaksNoRule: Bool?

    /// Creates a row from its line, values and present fields.
    public init(line: Int, movie: Movie, present: MovieFields) {
        keyHash = RepeatSieve.hash(of: movie, byIMDbID: movie.imdbID != nil)
        breaksNoRule = MovieRules.violation(in: movie) == nil
        self.line = line
        self.present = present
        // Its last use: moved in, not copied.
        self.movie = movie
    }

    /// The first CHECK of `movies` the values break (`MovieRules.violation`), nil for none.
    var violation: String? { breaksNoRule == true ? nil : MovieRules.violation(in: movie) }

    /// Rows are equal when their line, values and fields are (the hash follows the values).
    public static func == (a: ImportRow, b: ImportRow) -> Bool {
        a.line == b.line && a.movie == b.movie && a.present == b.present
    }

    /// The hash of the row's key by IMDb id or by title and year (`RepeatSieve.hash(of:byIMDbID:)`).
    func keyHash(byIMDbID: Bool) -> UInt64 {
        if let keyHash, byIMDbID == (movie.imdbID != nil) { return keyHash }
        return RepeatSieve.hash(of: movie, byIMDbID: byIMDbID)
    }

    /// The movie's values read as the row's own (`row.title`, `row.year`).
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<Movie, T>) -> T {
        get { movie[keyPath: keyPath] }
        set { movie[keyPath: keyPath] = newValue }
    }
}

/// A problem with one row: `file:line: field: reason`.
public struct ImportProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input's name (`movies.csv`, or `-` for stdin).
    public let file: String
    /// The physical line where the record starts.
    public let line: Int
    /// The field or part of the record at fault (`year`, `record`).
    public let field: String
    /// What is wrong with it.
    public let reason: String
    /// The record's number, for a JSON record on a line with others (minified JSON).
    public var record: Int? = nil

    /// The problem as `file:line: field: reason` (`file:1 (record 7): ...` in minified JSON).
    public var description: String { "\(file):\(line)\(record.map { " (record \($0))" } ?? ""): \(field): \(reason)" }
}

/// A decoded row, or every problem it has.
public enum DecodedRow: Equatable, Sendable {
    case valid(ImportRow)
    case invalid([ImportProblem])
}

/// Turns cells into a validated `ImportRow`, collecting every problem of the row.
public enum RowDecoder {
    /// Decodes one record; `cell` gives each field's raw value. Every row needs the `required`
    /// field: the title, or the IMDb id of an update-only input.
    public static func decode(file: String, line: Int, required: MovieField = .title, cell: (MovieField) -> Cell) -> DecodedRow {
        var problems: [ImportProblem] = []
        var present = MovieFields()
        var movie = Movie(title: "")
        func problem(_ field: MovieField, _ reason: String) {
            problems.append(ImportProblem(file: file, line: line, field: field.name, reason: reason))
        }
        /// A field's value from text through the rules, or nil (empty, or refused and reported).
        func parse(_ field: MovieField, _ text: String, number: Bool = false) -> FieldValue? {
            var trimmed = text.trimmingWhitespace()
            // A table copied from a wiki: footnote marks (`113 minutes[1]`) and a note after a
            // date (`12 September 1998 (Toronto)`) are no part of a value; a title keeps them.
            if field != .title && !number && trimmed.withUTF8Bytes({ $0.last == UInt8(ascii: "]") || $0.last == UInt8(ascii: ")") }) {
                trimmed = ValueParsing.withoutNotes(trimmed, dropParenthesised: field == .year)
            }
            // `N/A` and its kin are empty cells, but in a title (a film may be called `Nan`).
            if trimmed.isEmpty || field != .title && ValueParsing.isNullWord(trimmed) { return nil }
            switch MovieRules.value(field, from: trimmed, number: number) {
            case .success(let value): return value
            case .failure(let violation): problem(field, violation.reason); return nil
            }
        }
        for field in MovieField.allCases {
            let value = cell(field)
            if value != .absent { present.insert(field) }
            if field == .genres {
                let names: [String]
                switch value {
                case .list(let items): names = items.flatMap(splitGenres)
                case .text(let s): names = splitGenres(s)
                case .number(let s): problem(field, "expected genre names, found the number \(s)"); continue
                case .numbers: problem(field, "expected genre names, found an array holding a number"); continue
                case .unsupported(let kind): problem(field, "expected genre names, found \(kind)"); continue
                case .invalidUTF8: problem(field, "invalid UTF-8"); continue
                case .absent, .null: continue
                }
                movie.genres = names.compactMap { name in
                    if case .text(let stored)? = parse(.genres, name) { stored } else { nil }
                }
                continue
            }
            switch value {
            case .absent, .null: break
            case .text(let s): if let parsed = parse(field, s) { movie[field] = parsed }
            case .number(let s): if let parsed = parse(field, s, number: true) { movie[field] = parsed }
            case .list, .numbers: problem(field, "expected a single value, found an array")
            case .unsupported(let kind): problem(field, "expected text or a number, found \(kind)")
            case .invalidUTF8: problem(field, "invalid UTF-8")
            }
        }
        let missing = required == .title ? movie.title.isEmpty : movie[required] == .null
        if missing && !problems.contains(where: { $0.field == required.name }) {
            let reason = present.contains(required) ? "is blank" : "is missing"
            problems.insert(ImportProblem(file: file, line: line, field: required.name, reason: reason), at: 0)
        }
        guard problems.isEmpty else { return .invalid(problems) }
        return .valid(ImportRow(line: line, movie: movie, present: present))
    }

    /// Genre names from one cell: split on `|`, `,` or `;`, trimmed, empty parts dropped; a
    /// cell holding a list as JSON or Python writes it is read as one (`GenreListCell`).
    static func splitGenres(_ text: String) -> [String] {
        if text.withUTF8Bytes({ $0.contains(UInt8(ascii: "[")) }), let names = GenreListCell.names(text) { return names }
        var text = text
        return text.withUTF8 { bytes in
            var names: [String] = []
            var start = 0
            for i in 0...bytes.count {
                guard i == bytes.count || bytes[i] == 0x7C || bytes[i] == 0x2C || bytes[i] == 0x3B else { continue }
                var lo = start, hi = i
                while lo < hi && (bytes[lo] == 0x20 || bytes[lo] == 0x09) { lo += 1 }
                while hi > lo && (bytes[hi - 1] == 0x20 || bytes[hi - 1] == 0x09) { hi -= 1 }
                if hi > lo {
                    // Trimmed again for Unicode spaces; a part of only those is dropped too.
                    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self).trimmingWhitespace()
                    if !name.isEmpty { names.append(name) }
                }
                start = i + 1
            }
            return names
        }
    }
}

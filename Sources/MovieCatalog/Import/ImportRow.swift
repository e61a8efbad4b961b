/// One input cell, before validation.
public enum Cell: Equatable, Sendable {
    /// The input has no such column or key.
    case absent
    /// Empty, `\N` (TSV) or JSON null.
    case null
    case text(String)
    /// A JSON number literal.
    case number(String)
    /// A JSON array of strings (genres).
    case list([String])
    /// A JSON value of a type no field takes (named for the message: "a boolean").
    case unsupported(String)
    /// Bytes that are not valid UTF-8.
    case invalidUTF8
}

/// A validated input row, ready to store.
public struct ImportRow: Equatable, Sendable {
    /// Physical line where the record starts.
    public var line: Int
    /// The movie's title, trimmed.
    public var title: String
    /// The release year, if given.
    public var year: Int?
    /// The rating from 0 to 10, if given.
    public var rating: Double?
    /// The running time in minutes, if given.
    public var durationMinutes: Int?
    /// The certification, if given.
    public var certification: String?
    /// Genre names as given; resolved to codes when stored.
    public var genres: [String]
    /// The fields the input has (absent ones keep their stored values on update).
    public var present: ImportFields
}

/// A set of import fields as a bitmask (checked for every row, so no hashing).
public struct ImportFields: Hashable, Sendable, ExpressibleByArrayLiteral {
    private var bits: UInt8 = 0

    /// Creates an empty set.
    public init() {}
    /// Creates a set of the given fields.
    public init(_ fields: some Sequence<ImportField>) { for field in fields { insert(field) } }
    /// Creates a set from an array literal of fields.
    public init(arrayLiteral fields: ImportField...) { self.init(fields) }

    /// Every field.
    public static var all: ImportFields { ImportFields(ImportField.allCases) }

    /// Whether the set holds `field`.
    public func contains(_ field: ImportField) -> Bool { bits & (1 << field.index) != 0 }
    /// Adds `field` to the set.
    public mutating func insert(_ field: ImportField) { bits |= 1 << field.index }
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

    /// The problem as `file:line: field: reason`.
    public var description: String { "\(file):\(line): \(field): \(reason)" }
}

/// A decoded row, or every problem it has.
public enum DecodedRow: Equatable, Sendable {
    case valid(ImportRow)
    case invalid([ImportProblem])
}

/// Turns cells into a validated `ImportRow`, collecting every problem of the row.
public enum RowDecoder {
    /// Decodes one record; `cell` gives each field's raw value.
    public static func decode(file: String, line: Int, cell: (ImportField) -> Cell) -> DecodedRow {
        var problems: [ImportProblem] = []
        var present = ImportFields()
        func problem(_ field: ImportField, _ reason: String) {
            problems.append(ImportProblem(file: file, line: line, field: field.rawValue, reason: reason))
        }
        /// The cell as trimmed text, nil for null/absent; reports type problems.
        func text(_ field: ImportField) -> String? {
            let value = cell(field)
            if value != .absent { present.insert(field) }
            switch value {
            case .absent, .null: return nil
            case .text(let s), .number(let s):
                let trimmed = s.trimmingWhitespace()
                return trimmed.isEmpty ? nil : trimmed
            case .list: problem(field, "expected a single value, found an array"); return nil
            case .unsupported(let kind): problem(field, "expected text or a number, found \(kind)"); return nil
            case .invalidUTF8: problem(field, "invalid UTF-8"); return nil
            }
        }

        let title = text(.title)
        if title == nil && !problems.contains(where: { $0.field == "title" }) {
            problem(.title, present.contains(.title) ? "is blank" : "is missing")
        }

        var year: Int?
        if let raw = text(.year) {
            if let value = wholeNumber(raw) {
                if (1870...2100).contains(value) { year = value } else { problem(.year, "'\(raw)' is outside 1870..2100") }
            } else {
                problem(.year, "'\(raw)' is not a whole number")
            }
        }

        var rating: Double?
        if let raw = text(.rating) {
            if let value = ValueParsing.number(raw) {
                if (0...10).contains(value) { rating = value } else { problem(.rating, "'\(raw)' is outside 0..10") }
            } else {
                problem(.rating, "'\(raw)' is not a number")
            }
        }

        var duration: Int?
        if let raw = text(.duration) {
            if raw.hasPrefix("-") {
                problem(.duration, "'\(raw)' is negative; durations are positive minutes")
            } else if let minutes = ValueParsing.minutes(raw) ?? wholeNumber(raw) {
                if minutes <= 0 {
                    problem(.duration, "'\(raw)' is not a positive duration")
                } else if minutes > ValueParsing.maxMinutes {
                    problem(.duration, "'\(raw)' is longer than \(ValueParsing.maxMinutes) minutes")
                } else {
                    duration = minutes
                }
            } else {
                problem(.duration, "'\(raw)' is not a duration (use 120, 2h, 1h 30m or 1:30:00)")
            }
        }

        let certification = text(.certification).map(RowDecoder.uppercased)

        var genres: [String] = []
        let genreCell = cell(.genres)
        if genreCell != .absent { present.insert(.genres) }
        switch genreCell {
        case .list(let items): genres = items.flatMap(splitGenres)
        case .text(let s): genres = splitGenres(s)
        case .number(let s): problem(.genres, "expected genre names, found the number \(s)")
        case .unsupported(let kind): problem(.genres, "expected genre names, found \(kind)")
        case .invalidUTF8: problem(.genres, "invalid UTF-8")
        case .absent, .null: break
        }
        for genre in genres where !RowDecoder.hasWordCharacter(genre) && Genre.slug(genre).isEmpty {
            problem(.genres, "'\(genre)' is not a genre name")
        }

        guard problems.isEmpty, let title else { return .invalid(problems) }
        return .valid(ImportRow(line: line, title: title, year: year, rating: rating, durationMinutes: duration,
                                  certification: certification, genres: genres, present: present))
    }

    /// Upper case, without Unicode case mapping for the common already-upper ASCII text (`PG-13`).
    static func uppercased(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 97 && $0 <= 122) }) ? text : text.uppercased()
    }

    /// Cheap test that a name has an ASCII letter or digit (so its slug is not empty).
    static func hasWordCharacter(_ text: String) -> Bool {
        text.utf8.contains { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) }
    }

    /// Genre names from one cell: split on `|`, `,` or `;`, trimmed, empty parts dropped.
    static func splitGenres(_ text: String) -> [String] {
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

    /// An integer, also written as a decimal with a zero fraction (`1994.0`, as JSON tools do).
    static func wholeNumber(_ text: String) -> Int? {
        if let value = ValueParsing.integer(text) { return value }
        if let value = ValueParsing.number(text), value == value.rounded(), abs(value) < 1e9 { return Int(value) }
        return nil
    }
}

import MovieDomain
import SQLiteStore
/// A JSON value of one member of a record.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number literal exactly as written (validated against the JSON grammar), e.g. `"7.5"`, `"-1e3"`.
    case number(String)
    /// A string with its escapes decoded.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// A nested object; kept in order, the importer ignores or rejects it.
    case object([JSONMember])
}

/// One `"key": value` member of an object, in input order (duplicate keys are kept).
public struct JSONMember: Equatable, Sendable {
    /// The decoded key.
    public let key: String
    /// The member's value.
    public let value: JSONValue

    /// Creates a member.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// One top-level object and the 1-based physical line where it starts.
public struct JSONRecord: Equatable, Sendable {
    /// The line of the object's opening `{`.
    public let line: Int
    /// The record's number in the input (1-based) when it begins on the line an earlier record
    /// ended on (minified JSON: every record on line 1), else nil: the line alone tells it.
    public var number: Int?
    /// The object's members in input order.
    public let members: [JSONMember]
    /// Text in the record that cannot be stored, and under which top-level key (nil: a key itself,
    /// or a NUL, which makes the whole record invalid as a CSV record with a NUL byte is): a
    /// string with the escape `\u0000` (valid JSON, but no value for the catalog), bytes that are
    /// not UTF-8, or a lone surrogate escape. The input reads on past it; a problem under a key
    /// that feeds no field is no problem, as a bad byte in a column nothing reads is none.
    public let textProblems: [TextProblem]
    /// The bytes of each string that is not UTF-8 as read (a lone surrogate as the three bytes
    /// that encode it), by the string it reads as (with U+FFFD): a rejects row keeps them.
    public let rawTexts: [String: [UInt8]]

    /// Text that cannot be stored, where.
    public struct TextProblem: Equatable, Sendable {
        /// The top-level key whose value holds it; nil for the whole record.
        public let key: String?
        /// What is wrong (`invalid UTF-8`).
        public let reason: String
    }

    /// The first problem, for messages (nil: none).
    public var problem: String? { textProblems.first?.reason }

    /// Creates a record.
    public init(line: Int, members: [JSONMember], textProblems: [TextProblem] = [], rawTexts: [String: [UInt8]] = [:]) {
        self.line = line
        self.members = members
        self.textProblems = textProblems
        self.rawTexts = rawTexts
    }
}

extension JSONValue {
    /// Whether `bytes` match the JSON number grammar `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isValidNumber(_ bytes: [UInt8]) -> Bool {
        var index = 0
        let count = bytes.count
        func digits() -> Int {
            let start = index
            while index < count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index - start
        }
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        if index < count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return false
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { return false }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { return false }
        }
        return index == count
    }
}

/// How the reader names bytes in error messages.
enum JSONByte {
    /// A byte for a message: `'x'` when printable, else what kind of byte it is.
    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...: return "a non-ASCII character"
        default: return "control character \(hex(byte))"
        }
    }

    /// The kind of value that starts with `byte`, for "found a string"-style messages.
    static func kind(of byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return describe(byte)
        }
    }

    /// What a line of JSON Lines starts with instead of an object: a value's kind, else its first
    /// characters (`title,year`: a CSV given as `.jsonl`), with the way to read it.
    /// `head` holds the line's first bytes, at most `cut` of them.
    static func kind(ofLine head: [UInt8], cut: Int) -> String {
        guard let byte = head.first else { return "the end of the input" }
        var line = head.prefix { $0 != 0x0A && $0 != 0x0D }
        let word = String(decoding: line.prefix { $0 >= 0x61 && $0 <= 0x7A }, as: UTF8.self)
        if "\"[-0123456789".utf8.contains(byte) || ["true", "false", "null"].contains(word) { return kind(of: byte) }
        let isCut = line.count == cut
        // Cut before a character the cut split: its lead byte and what came of the rest.
        if isCut, let lead = line.lastIndex(where: { $0 & 0xC0 != 0x80 }), line[lead] >= 0xC0,
           line.endIndex - lead < (line[lead] >= 0xF0 ? 4 : line[lead] >= 0xE0 ? 3 : 2) {
            line = line[..<lead]
        }
        let text = String(decoding: line, as: UTF8.self).unicodeScalars.map { $0 == "\t" ? " " : $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
        return "text, not JSON: '\(text)\(isCut ? "…" : "")' (a CSV or TSV file? --format csv or tsv reads it)"
    }

    /// `0x1F` style, for control and stray bytes.
    static func hex(_ byte: UInt8) -> String {
        "0x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
    }

    /// `D83D` style, for \u escapes.
    static func hex4(_ unit: UInt16) -> String {
        let text = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - text.count) + text
    }
}

extension JSONValue {
    /// The value's kind for messages: "a number", "an object".
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

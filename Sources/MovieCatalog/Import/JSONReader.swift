import MovieDomain
import SQLiteStore
/// Reads top-level JSON objects one at a time from a JSON array or JSON Lines, never holding the whole input.
public final class JSONRecordReader {
    /// The input layout: one JSON array of objects, or one object per line.
    public enum Mode: Sendable { case array, lines }

    enum State { case start, element, finished }

    /// Deep enough for any real record, shallow enough that hostile input cannot overflow the stack.
    static let maxDepth = 64

    /// The bytes read (the escapes' reader, `JSONEscapes.swift`, reads them too).
    let reader: ByteReader
    private let mode: Mode
    var state = State.start
    /// The current physical line (1-based).
    private var line = 1
    /// Reused for string, number and literal bytes so tokens do not allocate per byte.
    /// Token readers borrow it as a local (`borrowScratch`): a class property held `inout`
    /// across reads would pay a dynamic exclusivity check on every access.
    private var scratch: [UInt8] = []
    /// Text in the object being read that cannot be stored, and the raw bytes of its strings that
    /// are not UTF-8 (see `JSONRecord`); `textKey` is the top-level key whose value is being read.
    var textProblems: [JSONRecord.TextProblem] = []
    var rawTexts: [String: [UInt8]] = [:]
    private var textKey: String?
    /// Where the object being read began (bytes consumed), and its values so far: a record's
    /// values are held as a tree, so both are bounded (`ByteReader.maxRecordBytes`, `maxValues`).
    var recordStart = 0, values = 0
    /// The line the object being read began on.
    private var recordLine = 1
    /// The most values one record may hold (a value takes some 24-40 bytes as a tree).
    static let maxValues = 500_000
    /// After an error the input position is meaningless, so every later call repeats the error.
    private var failure: Error?

    /// Creates a reader over `reader` in the given layout.
    public init(reader: ByteReader, mode: Mode) {
        self.reader = reader
        self.mode = mode
        scratch.reserveCapacity(256)
    }

    /// The next top-level object, or nil at the end of input.
    public func next() throws -> JSONRecord? {
        if let failure { throw failure }
        do {
            return try mode == .array ? nextInArray() : nextLine()
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: - Top level

    func nextInArray() throws -> JSONRecord? {
        switch state {
        case .finished:
            return nil
        case .start:
            try skipByteOrderMark()
            guard let first = try skipWhitespace() else { throw error("empty input, expected a JSON array") }
            if first == UInt8(ascii: "{") {
                // One record alone, or an object holding the records (`JSONWrapper.swift`).
                guard try startInObject() else {
                    let record = try readObjectRecord()
                    if try skipWhitespace() != nil { throw error("trailing data after the object") }
                    return record
                }
                return state == .finished ? nil : try nextInArray()
            }
            guard first == UInt8(ascii: "[") else {
                throw error("expected a JSON array of objects, found \(JSONByte.describe(first))")
            }
            try consume()
            if try peekToken() == UInt8(ascii: "]") {
                try consume()
                try finishArray()
                return nil
            }
            state = .element
        case .element:
            break
        }
        let byte = try peekToken()
        guard byte == UInt8(ascii: "{") else {
            // Only reachable for ']' right after a ','.
            if byte == UInt8(ascii: "]") { throw error("trailing ',' before ']'") }
            throw error("array element is not an object (found \(JSONByte.kind(of: byte)))")
        }
        let record = try readObjectRecord()
        // Check the separator now so a malformed array never yields the object before the damage.
        let separator = try peekToken()
        try consume()
        switch separator {
        case UInt8(ascii: ","):
            break
        case UInt8(ascii: "]"):
            try finishArray()
        default:
            throw error("expected ',' or ']' after an object, found \(JSONByte.describe(separator))")
        }
        return record
    }

    /// How many objects hold the records' array (`JSONWrapper.swift`): 0 for a top-level array.
    var wrapLevels = 0

    private func nextLine() throws -> JSONRecord? {
        switch state {
        case .finished: return nil
        case .start: try skipByteOrderMark(); state = .element
        case .element: break
        }
        // Blank lines (and whitespace-only lines) between records are skipped.
        guard var byte = try skipWhitespace() else {
            state = .finished
            return nil
        }
        // A byte-order mark at a line's start: files joined with `cat`, each with its own.
        if byte == 0xEF, try reader.peek(3) == [0xEF, 0xBB, 0xBF] {
            try skipByteOrderMark()
            guard let next = try skipWhitespace() else { state = .finished; return nil }
            byte = next
        }
        guard byte == UInt8(ascii: "{") else {
            throw error("expected one JSON object on the line, found \(JSONByte.kind(ofLine: try reader.peek(40), cut: 40))")
        }
        let record = try readObjectRecord()
        // The rest of the line may hold only spaces, tabs and the CR of a CRLF ending.
        while let byte = try reader.peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                try consume()
            case UInt8(ascii: "\n"):
                try consume()
                line += 1
                return record
            case 0:
                throw error("NUL byte")
            default:
                throw error("unexpected data after the object")
            }
        }
        return record
    }

    /// Reads a top-level object whose `{` is the next byte.
    func readObjectRecord() throws -> JSONRecord {
        let start = line
        recordsRead += 1
        let shared = start == lastRecordEnd
        recordStart = reader.bytesConsumed
        recordLine = line
        values = 0
        try consume()
        textProblems = []
        rawTexts = [:]
        textKey = nil
        let members = try readMembers(depth: 1)
        lastRecordEnd = line
        var record = JSONRecord(line: start, members: members, textProblems: textProblems, rawTexts: rawTexts)
        record.number = shared ? recordsRead : nil
        return record
    }

    /// Records read so far, and the line the last one ended on (0: none yet).
    private var recordsRead = 0, lastRecordEnd = 0

    private func skipByteOrderMark() throws {
        guard try reader.peek() == 0xEF else { return }
        try consume()
        guard try reader.next() == 0xBB, try reader.next() == 0xBF else {
            let expected = mode == .array ? "a JSON array of objects" : "one JSON object on the line"
            throw error("expected \(expected), found a non-ASCII character")
        }
    }

    // MARK: - Values

    func readValue(depth: Int) throws -> JSONValue {
        values += 1
        if values > Self.maxValues {
            throw CatalogError(.dataError, "\(reader.name):\(recordLine): an object of more than \(Self.maxValues) values")
        }
        if reader.bytesConsumed - recordStart > ByteReader.maxRecordBytes { throw tooLong() }
        let byte = try peekToken()
        switch byte {
        case UInt8(ascii: "{"):
            try consume()
            return .object(try readMembers(depth: depth + 1))
        case UInt8(ascii: "["):
            try consume()
            return .array(try readElements(depth: depth + 1))
        case UInt8(ascii: "\""):
            try consume()
            return .string(try readString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            return try readLiteral()
        default:
            throw error("expected a value, found \(JSONByte.describe(byte))")
        }
    }

    /// Reads members after an object's `{` up to and including its `}`.
    private func readMembers(depth: Int) throws -> [JSONMember] {
        try checkDepth(depth)
        var members: [JSONMember] = []
        if try peekToken() == UInt8(ascii: "}") {
            try consume()
            return members
        }
        while true {
            let quote = try peekToken()
            guard quote == UInt8(ascii: "\"") else {
                throw error("expected a string key in an object, found \(JSONByte.describe(quote))")
            }
            try consume()
            if depth == 1 { textKey = nil }   // a problem in a key spoils the record
            let key = try readString()
            if depth == 1 { textKey = key }
            let colon = try peekToken()
            guard colon == UInt8(ascii: ":") else {
                throw error("expected ':' after an object key, found \(JSONByte.describe(colon))")
            }
            try consume()
            members.append(JSONMember(key: key, value: try readValue(depth: depth)))
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: "}") { return members }
            guard separator == UInt8(ascii: ",") else {
                throw error("expected ',' or '}' in an object, found \(JSONByte.describe(separator))")
            }
        }
    }

    /// Reads elements after an array value's `[` up to and including its `]`.
    private func readElements(depth: Int) throws -> [JSONValue] {
        try checkDepth(depth)
        var elements: [JSONValue] = []
        if try peekToken() == UInt8(ascii: "]") {
            try consume()
            return elements
        }
        while true {
            elements.append(try readValue(depth: depth))
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: "]") { return elements }
            guard separator == UInt8(ascii: ",") else {
                throw error("expected ',' or ']' in an array, found \(JSONByte.describe(separator))")
            }
        }
    }

    private func checkDepth(_ depth: Int) throws {
        if depth > Self.maxDepth { throw error("nesting deeper than \(Self.maxDepth) levels") }
    }

    /// Reads a string body after its opening quote, through the closing quote.
    func readString() throws -> String {
        var bytes = borrowScratch()
        defer { scratch = bytes }
        while true {
            let stop = try reader.scan(into: &bytes, limit: ByteReader.maxRecordBytes) {
                $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20
            }
            // Checked on every stop, as escapes alone may make a string grow.
            if bytes.count > ByteReader.maxRecordBytes || reader.bytesConsumed - recordStart > ByteReader.maxRecordBytes { throw tooLong() }
            guard let stop else { throw error("unterminated string") }
            try consume()
            switch stop {
            case UInt8(ascii: "\""):
                // ASCII needs no validation; other text is checked for bad sequences, overlongs
                // and encoded surrogates.
                let string = bytes.withUnsafeBufferPointer { bytes -> String? in
                    var ascii = true
                    for byte in bytes where byte >= 0x80 { ascii = false; break }
                    return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
                }
                // Well-formed JSON around it: the record is rejected alone, the text kept with
                // U+FFFD for what does not decode.
                guard let string else {
                    markText("invalid UTF-8")
                    let lossy = String(decoding: bytes, as: UTF8.self)
                    if rawTexts.count < 64 { rawTexts[lossy] = bytes }
                    return lossy
                }
                return string
            case UInt8(ascii: "\\"):
                try readEscape(into: &bytes)
            case 0:
                throw error("NUL byte")
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw error("unterminated string (line break inside a string)")
            default:
                throw error("control character \(JSONByte.hex(stop)) inside a string (must be escaped)")
            }
        }
    }

    private func readNumber() throws -> JSONValue {
        var bytes = borrowScratch()
        defer { scratch = bytes }
        let stop = try reader.scan(into: &bytes, limit: ByteReader.maxRecordBytes) {
            !($0 &- UInt8(ascii: "0") < 10 || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e"))
        }
        if stop == 0 { throw error("NUL byte") }
        if bytes.count > ByteReader.maxRecordBytes { throw tooLong() }
        let text = String(decoding: bytes, as: UTF8.self)
        guard JSONValue.isValidNumber(bytes) else { throw error("invalid number '\(text.prefix(40))'") }
        return .number(text)
    }

    private func readLiteral() throws -> JSONValue {
        var bytes = borrowScratch()
        defer { scratch = bytes }
        let stop = try reader.scan(into: &bytes, limit: ByteReader.maxRecordBytes) { !(UInt8(ascii: "a")...UInt8(ascii: "z") ~= $0) }
        if stop == 0 { throw error("NUL byte") }
        if bytes.count > ByteReader.maxRecordBytes { throw tooLong() }
        switch String(decoding: bytes, as: UTF8.self) {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case let word: throw error("invalid literal '\(word.prefix(40))'")
        }
    }

    // MARK: - Bytes

    /// Moves the reusable token buffer out, emptied; the caller puts it back when done.
    @inline(__always)
    private func borrowScratch() -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &scratch)
        bytes.removeAll(keepingCapacity: true)
        return bytes
    }

    /// Skips JSON whitespace, counting lines, and returns the next byte unconsumed (nil at end of input).
    /// Inside a JSON Lines record a line break is an error: each record must fit on one line.
    func skipWhitespace(insideRecord: Bool = false) throws -> UInt8? {
        while let byte = try reader.peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                try consume()
            case UInt8(ascii: "\n"):
                if insideRecord && mode == .lines {
                    throw error("line ends inside the object (JSON Lines needs one object per line)")
                }
                try consume()
                line += 1
            case 0:
                throw error("NUL byte")
            default:
                return byte
            }
        }
        return nil
    }

    /// The next non-whitespace byte inside a record, unconsumed; the input may not end here.
    func peekToken() throws -> UInt8 {
        guard let byte = try skipWhitespace(insideRecord: true) else { throw error("unexpected end of input") }
        return byte
    }

    /// Notes text that cannot be stored, under the key being read (a NUL: the whole record).
    func markText(_ reason: String, wholeRecord: Bool = false) {
        let problem = JSONRecord.TextProblem(key: wholeRecord ? nil : textKey, reason: reason)
        // The first few, each key once: enough to tell whether a kept field has one.
        if textProblems.count < 16 && !textProblems.contains(where: { $0.key == problem.key }) { textProblems.append(problem) }
    }

    /// Consumes the byte just peeked.
    @inline(__always)
    func consume() throws {
        _ = try reader.next()
    }

    /// The error for a record past `ByteReader.maxRecordBytes`.
    private func tooLong() -> CatalogError {
        CatalogError(.dataError, "\(reader.name):\(recordLine): an object longer than \(ByteReader.maxRecordText); is this a JSON file?")
    }

    /// An error naming the input and the current line.
    func error(_ reason: String) -> CatalogError {
        CatalogError(.dataError, "\(reader.name):\(line): \(reason)")
    }
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// A malformed input and the message fragment (with file name and line) its error must contain.
struct MalformedJSON: Sendable, CustomTestStringConvertible {
    let label: String
    let input: [UInt8]
    let mode: JSONRecordReader.Mode
    let message: String

    /// A case whose input is text.
    static func text(_ label: String, _ input: String, _ message: String, _ mode: JSONRecordReader.Mode = .array) -> Self {
        Self(label: label, input: Array(input.utf8), mode: mode, message: message)
    }

    /// A case whose input has raw bytes between two pieces of text.
    static func raw(_ label: String, _ before: String, _ raw: [UInt8], _ after: String,
                    _ message: String, _ mode: JSONRecordReader.Mode = .array) -> Self {
        Self(label: label, input: Array(before.utf8) + raw + Array(after.utf8), mode: mode, message: message)
    }

    var testDescription: String { label }
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

private func readAll(_ reader: JSONRecordReader) throws -> [JSONRecord] {
    var records: [JSONRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

private func records(_ input: [UInt8], _ mode: JSONRecordReader.Mode = .array) throws -> [JSONRecord] {
    try readAll(JSONRecordReader(reader: ByteReader(bytes: input, name: "t.json"), mode: mode))
}

private func records(_ text: String, _ mode: JSONRecordReader.Mode = .array) throws -> [JSONRecord] {
    try records(bytes(text), mode)
}

/// Writes `content` to a fresh temporary file and returns its path.
private func temporaryFile(_ content: [UInt8]) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("jsonreader-\(UUID().uuidString).json")
    try Data(content).write(to: url)
    return url.path
}

private func member(_ key: String, _ value: JSONValue) -> JSONMember { JSONMember(key: key, value: value) }

@Suite struct JSONReaderTests {
    @Test("an array of flat objects, with nested arrays as values")
    func arrayOfObjects() throws {
        let result = try records(#"[{"title":"Heat","year":1995,"genres":["crime","drama"]},{"title":"Up","genres":[]}]"#)
        var second = JSONRecord(line: 1, members: [member("title", .string("Up")), member("genres", .array([]))])
        second.number = 2   // on the line the first ended on
        #expect(result == [
            JSONRecord(line: 1, members: [
                member("title", .string("Heat")), member("year", .number("1995")),
                member("genres", .array([.string("crime"), .string("drama")])),
            ]),
            second,
        ])
    }

    @Test("every kind of value, nested objects and duplicate keys kept in order")
    func allValueKinds() throws {
        let text = #"[ { "a" : null , "b":true,"c":false,"d":{"x":[1,{"y":[]}]},"e":{},"a":"again","f":[[],[null]] } ]"#
        let record = try #require(try records(text).first)
        #expect(record.members == [
            member("a", .null), member("b", .bool(true)), member("c", .bool(false)),
            member("d", .object([member("x", .array([.number("1"), .object([member("y", .array([]))])]))])),
            member("e", .object([])), member("a", .string("again")),
            member("f", .array([.array([]), .array([.null])])),
        ])
    }

    @Test("numbers are kept exactly as written", arguments: [
        "0", "-0", "7", "42", "7.5", "-1e3", "1E+10", "2.5e-3", "0.000", "-0.5E0", "123456789012345678901234567890",
    ])
    func numbers(literal: String) throws {
        let record = try #require(try records("[{\"n\":\(literal)}]").first)
        #expect(record.members == [member("n", .number(literal))])
    }

    @Test("string escapes, \\u escapes and surrogate pairs")
    func escapes() throws {
        let text = #"[{"s":"q\"b\\s\/b\bf\fn\nr\rt\t","u":"\u00e9\u20AC\u00C9","pair":"\uD83C\uDFAC\ud83c\udf7f"}]"#
        let record = try #require(try records(text).first)
        #expect(record.members == [
            member("s", .string("q\"b\\s/b\u{8}f\u{C}n\nr\rt\t")),
            member("u", .string("é€É")),
            member("pair", .string("🎬🍿")),
        ])
    }

    // Valid JSON, so the input reads on: the record is marked and the import rejects it alone.
    @Test("an escaped NUL marks its record", arguments: [JSONRecordReader.Mode.array, .lines])
    func escapedNUL(mode: JSONRecordReader.Mode) throws {
        let objects = [#"{"a":"x"}"#, #"{"a":"I\u0000J","b":["\u0000"]}"#, #"{"a":"y"}"#]
        let text = mode == .array ? "[" + objects.joined(separator: ",\n") + "]" : objects.joined(separator: "\n")
        let result = try records(text, mode)
        #expect(result.map(\.problem) == [nil, "contains a NUL character (\\u0000)", nil])
        #expect(result.map(\.line) == [1, 2, 3])
        #expect(result[1].members == [member("a", .string("I\u{0}J")), member("b", .array([.string("\u{0}")]))])
        #expect(result[2].members == [member("a", .string("y"))])
    }

    /// A string that is well-formed JSON but no text: its record is marked, the text read with
    /// U+FFFD in place, and the records after it read as usual.
    struct MarkedText: Sendable, CustomTestStringConvertible {
        let label: String
        let string: [UInt8]
        let problem: String
        let value: String
        /// The bytes the rejects row keeps (nil: the string as read).
        var raw: [UInt8]? = nil
        var testDescription: String { label }
    }

    @Test("bytes that are not UTF-8 and lone surrogate escapes mark their record; reading goes on", arguments: [
        MarkedText(label: "invalid UTF-8", string: [0xC3, 0x28], problem: "invalid UTF-8", value: "\u{FFFD}("),
        MarkedText(label: "overlong UTF-8", string: [0xC0, 0xAF], problem: "invalid UTF-8", value: "\u{FFFD}\u{FFFD}"),
        MarkedText(label: "encoded surrogate", string: [0xED, 0xA0, 0x80], problem: "invalid UTF-8", value: "\u{FFFD}\u{FFFD}\u{FFFD}"),
        MarkedText(label: "truncated sequence", string: [0xE2, 0x82], problem: "invalid UTF-8", value: "\u{FFFD}"),
        // A lone surrogate reads as the three bytes that encode it: three U+FFFD.
        MarkedText(label: "lone high surrogate", string: bytes("\\uD83D"), problem: "lone surrogate \\uD83D", value: "\u{FFFD}\u{FFFD}\u{FFFD}",
                   raw: [0xED, 0xA0, 0xBD]),
        MarkedText(label: "lone low surrogate", string: bytes("\\uDE00x"), problem: "lone surrogate \\uDE00", value: "\u{FFFD}\u{FFFD}\u{FFFD}x",
                   raw: [0xED, 0xB8, 0x80, 0x78]),
        MarkedText(label: "high then non-low", string: bytes("\\uD83D\\u0041"), problem: "lone surrogate \\uD83D (followed by \\u0041)",
                   value: "\u{FFFD}\u{FFFD}\u{FFFD}A", raw: [0xED, 0xA0, 0xBD, 0x41]),
        MarkedText(label: "high then high", string: bytes("\\uD83D\\uD83D"), problem: "lone surrogate \\uD83D (followed by \\uD83D)",
                   value: String(repeating: "\u{FFFD}", count: 6), raw: [0xED, 0xA0, 0xBD, 0xED, 0xA0, 0xBD]),
        MarkedText(label: "high then another escape", string: bytes("\\uD83D\\n!"), problem: "lone surrogate \\uD83D", value: "\u{FFFD}\u{FFFD}\u{FFFD}\n!",
                   raw: [0xED, 0xA0, 0xBD, 0x0A, 0x21]),
        MarkedText(label: "a pair after a lone half", string: bytes("\\uDE00\\uD83D\\uDE00"), problem: "lone surrogate \\uDE00",
                   value: "\u{FFFD}\u{FFFD}\u{FFFD}\u{1F600}", raw: [0xED, 0xB8, 0x80] + Array("\u{1F600}".utf8)),
        MarkedText(label: "a pair after a lone high half", string: bytes("\\uD83D\\uD83D\\uDE00"), problem: "lone surrogate \\uD83D (followed by \\uD83D)",
                   value: "\u{FFFD}\u{FFFD}\u{FFFD}\u{1F600}", raw: [0xED, 0xA0, 0xBD] + Array("\u{1F600}".utf8)),
    ], [JSONRecordReader.Mode.array, .lines])
    func markedText(_ c: MarkedText, mode: JSONRecordReader.Mode) throws {
        let bad = bytes(#"{"a":""#) + c.string + bytes(#"","b":"z"}"#)
        let input = mode == .array
            ? bytes("[{\"a\":\"x\"},\n") + bad + bytes(",\n{\"a\":\"y\"}]")
            : bytes("{\"a\":\"x\"}\n") + bad + bytes("\n{\"a\":\"y\"}\n")
        let result = try records(input, mode)
        #expect(result.map(\.problem) == [nil, c.problem, nil])
        #expect(result.map(\.line) == [1, 2, 3])
        #expect(result[1].members == [member("a", .string(c.value)), member("b", .string("z"))])
        #expect(result[1].textProblems.map(\.key) == ["a"])
        #expect(result[1].rawTexts == [c.value: c.raw ?? c.string])
        // A key too: the record is marked as a whole.
        let key = try records(bytes("[{\"") + c.string + bytes("\":1}]"))
        #expect(key.map(\.problem) == [c.problem])
        #expect(key[0].textProblems.map(\.key) == [nil])
    }

    @Test("a record beginning on the line an earlier one ended on has its number; one on a line of its own has none")
    func recordNumbers() throws {
        #expect(try records(#"[{"a":1},{"a":2},{"a":3}]"#).map(\.number) == [nil, 2, 3])
        #expect(try records("[\n{\"a\":1},\n{\"a\":2}, {\"a\":3}\n]").map(\.number) == [nil, nil, 3])
        #expect(try records("{\"a\":1}\n{\"a\":2}\n", .lines).map(\.number) == [nil, nil])
    }

    @Test("an object holding the array, as API results do: its first array's objects are the records")
    func wrappedArray() throws {
        let text = #"{"page": 1, "meta": {"n": [1, 2]}, "results": [{"a": "x"},"# + "\n" + #"{"a": "y"}], "total": 2, "more": [3]}"#
        let result = try records(text)
        #expect(result.map(\.members) == [[member("a", .string("x"))], [member("a", .string("y"))]])
        #expect(result.map(\.line) == [1, 2])
        #expect(try records(#"{"Items": []}"#).isEmpty)
        // An empty array, or one of other values, before the records' array is read past.
        let past = try records(#"{"errors": [], "tags": ["x", {"a": 0}], "results": [{"a": "z"}]}"#)
        #expect(past.map(\.members) == [[member("a", .string("z"))]])
    }

    @Test("raw emoji and non-ASCII text in keys and values")
    func nonASCII() throws {
        let record = try #require(try records(#"[{"titre":"Amélie","原題":"千と千尋の神隠し","e":"👩‍👩‍👧 🎬"}]"#).first)
        #expect(record.members == [
            member("titre", .string("Amélie")), member("原題", .string("千と千尋の神隠し")), member("e", .string("👩‍👩‍👧 🎬")),
        ])
    }

    @Test("records report the line of their opening brace across multi-line objects")
    func lineNumbers() throws {
        let text = """
            [
              {
                "title": "Heat",
                "genres": [
                  "crime"
                ]
              },

              {"title": "Up"}, {"title": "Brazil"},
              {
                "title": "Alien"}
            ]

            """
        #expect(try records(text).map(\.line) == [2, 9, 9, 10])
    }

    @Test("empty arrays yield no records, and the end stays the end", arguments: ["[]", "  [ \n ]\n\n", "\u{FEFF}[]"])
    func emptyArray(text: String) throws {
        let reader = JSONRecordReader(reader: ByteReader(bytes: bytes(text)), mode: .array)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test("a UTF-8 byte order mark at the start is skipped")
    func byteOrderMark() throws {
        #expect(try records("\u{FEFF}[{\"a\":1}]").map(\.members) == [[member("a", .number("1"))]])
        #expect(try records("\u{FEFF}{\"a\":1}\n", .lines).map(\.members) == [[member("a", .number("1"))]])
        // JSON Lines files joined with `cat`, each with its mark: the mark at a line's start too.
        #expect(try records("\u{FEFF}{\"a\":1}\n\u{FEFF}{\"b\":2}\n \u{FEFF}\n", .lines).map(\.members) == [[member("a", .number("1"))], [member("b", .number("2"))]])
    }

    @Test("JSON Lines with blank lines, whitespace-only lines and CRLF endings")
    func jsonLines() throws {
        let text = "{\"a\":1}\r\n\r\n  \t\r\n{\"b\":\"x y\"} \t\r\n\n{\"c\":[1,2]}"
        let result = try records(text, .lines)
        #expect(result == [
            JSONRecord(line: 1, members: [member("a", .number("1"))]),
            JSONRecord(line: 4, members: [member("b", .string("x y"))]),
            JSONRecord(line: 6, members: [member("c", .array([.number("1"), .number("2")]))]),
        ])
    }

    @Test("JSON Lines: empty or blank input has no records", arguments: ["", "\n\n", " \r\n\t\n"])
    func emptyLines(text: String) throws {
        #expect(try records(text, .lines).isEmpty)
    }

    @Test("tokens straddling chunk boundaries read the same as from memory", arguments: [1, 2, 3, 7, 64])
    func multiChunk(chunkSize: Int) throws {
        let text = """
            \u{FEFF}[ {"title": "Amélie \\u00e9 \\uD83C\\uDFAC 🎬 千と千尋", "year": -1.25e+10,
              "genres": ["drama", "comedy", "romance"], "seen": true, "note": null, "esc": "a\\"b\\\\c\\n"},
              {"title": "x"}, {}, {"long": "\(String(repeating: "0123456789", count: 50))"}
            ]
            """
        let path = try temporaryFile(bytes(text))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try readAll(JSONRecordReader(reader: ByteReader(path: path, chunkSize: chunkSize), mode: .array))
        #expect(fromFile == (try records(text)))
        #expect(fromFile.map(\.line) == [1, 3, 3, 3])
        #expect(fromFile[0].members[0] == member("title", .string("Amélie é 🎬 🎬 千と千尋")))
    }

    @Test("a record far larger than the chunk size")
    func largeRecord() throws {
        let big = String(repeating: "ab€🎬", count: 5_000)
        let genres = (0..<500).map { "\"g\($0)\"" }.joined(separator: ",")
        let text = "{\"title\":\"\(big)\",\"genres\":[\(genres)]}\n{\"title\":\"next\"}\n"
        let path = try temporaryFile(bytes(text))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try readAll(JSONRecordReader(reader: ByteReader(path: path, chunkSize: 7), mode: .lines))
        #expect(result.count == 2)
        #expect(result[0].members[0] == member("title", .string(big)))
        #expect(result[0].members[1] == member("genres", .array((0..<500).map { .string("g\($0)") })))
        #expect(result[1] == JSONRecord(line: 2, members: [member("title", .string("next"))]))
    }

    @Test("200,000 small objects stream through", arguments: [JSONRecordReader.Mode.array, .lines])
    func manyObjects(mode: JSONRecordReader.Mode) throws {
        let count = 200_000
        var text = mode == .array ? "[\n" : ""
        text.reserveCapacity(count * 60)
        for index in 1...count {
            text += "{\"title\":\"Movie \(index)\",\"year\":\(1900 + index % 120),\"rating\":7.5}"
            text += mode == .array ? (index < count ? ",\n" : "\n]\n") : "\n"
        }
        let path = try temporaryFile(bytes(text))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = JSONRecordReader(reader: try ByteReader(path: path, chunkSize: 1 << 16), mode: mode)
        var seen = 0
        var last: JSONRecord?
        while let record = try reader.next() {
            seen += 1
            last = record
        }
        #expect(seen == count)
        #expect(last?.line == (mode == .array ? count + 1 : count))
        #expect(last?.members.first == member("title", .string("Movie \(count)")))
    }

    @Test("nesting up to the limit is fine")
    func nestingAtLimit() throws {
        let depth = JSONRecordReader.maxDepth - 1  // the record itself is one level
        let text = "[{\"a\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}]"
        #expect(try records(text).count == 1)
    }

    @Test("errors name the file path and stay thrown on later calls")
    func errorsAreSticky() throws {
        let path = try temporaryFile(bytes("[{\"a\":1},\n  {\"a\":\"\\x\"}]"))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = JSONRecordReader(reader: try ByteReader(path: path, chunkSize: 7), mode: .array)
        #expect(try reader.next()?.line == 1)
        for _ in 0..<2 {
            let error = try #require(throws: CatalogError.self) { try reader.next() }
            #expect(error.kind == .dataError)
            #expect(error.message == "\(path):2: invalid escape '\\x'")
        }
    }

    static let deep = "[{\"a\":" + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}]"

    static let malformed: [MalformedJSON] = [
        // Array structure
        .text("empty input", "", "t.json:1: empty input, expected a JSON array"),
        .text("blank input", "\n \n", "t.json:3: empty input, expected a JSON array"),
        .text("top-level object", "{\"a\":1}", "t.json:1: expected a JSON array of objects, found an object without one (for one object a line, JSON Lines, use --format jsonl)"),
        .text("empty top-level object", "{}", "t.json:1: expected a JSON array of objects, found an object without one"),
        .text("data after a wrapped array", "{\"r\":[{\"a\":1}] 5}", "t.json:1: expected ',' or '}' after the array, found '5'"),
        .text("data after the wrapping object", "{\"r\":[]} x", "t.json:1: trailing data after the object"),
        .text("data after a wrapping object with records", "{\"r\":[{\"a\":1}]} x", "t.json:1: trailing data after the array"),
        .text("string element", "[\n\"x\"]", "t.json:2: array element is not an object (found a string)"),
        .text("number element", "[{},\n 5]", "t.json:2: array element is not an object (found a number)"),
        .text("array element", "[[]]", "t.json:1: array element is not an object (found an array)"),
        .text("null element", "[null]", "t.json:1: array element is not an object (found null)"),
        .text("missing comma", "[{\"a\":1}\n{\"b\":2}]", "t.json:2: expected ',' or ']' after an object, found '{'"),
        .text("trailing comma", "[{\"a\":1},\n]", "t.json:2: trailing ',' before ']'"),
        .text("unclosed array", "[{\"a\":1},\n", "t.json:2: unexpected end of input"),
        .text("unclosed object", "[\n{\"a\":1", "t.json:2: unexpected end of input"),
        .text("missing value", "[{\"a\":", "t.json:1: unexpected end of input"),
        .text("only [", "[", "t.json:1: unexpected end of input"),
        .text("trailing data", "[{\"a\":1}]\n\nx", "t.json:3: trailing data after the array"),
        .text("second array", "[] []", "t.json:1: trailing data after the array"),
        .text("non-ASCII after object", "[{}é]", "t.json:1: expected ',' or ']' after an object, found a non-ASCII character"),
        .raw("broken BOM", "", [0xEF, 0xBB], "[]", "t.json:1: expected a JSON array of objects, found a non-ASCII character"),
        // Objects and values
        .text("unquoted key", "[{a:1}]", "t.json:1: expected a string key in an object, found 'a'"),
        .text("object trailing comma", "[{\"a\":1,}]", "t.json:1: expected a string key in an object, found '}'"),
        .text("missing colon", "[{\"a\" 1}]", "t.json:1: expected ':' after an object key, found '1'"),
        .text("missing member comma", "[{\"a\":1 \"b\":2}]", "t.json:1: expected ',' or '}' in an object, found '\"'"),
        .text("missing element comma", "[{\"g\":[\"a\" \"b\"]}]", "t.json:1: expected ',' or ']' in an array, found '\"'"),
        .text("bad value", "[{\"a\":+1}]", "t.json:1: expected a value, found '+'"),
        .text("error deep in a pretty record", "[\n  {\n    \"title\": \"x\",\n    \"year\": 19x5\n  }\n]",
              "t.json:4: expected ',' or '}' in an object, found 'x'"),
        .text("leading zero", "[{\"n\":01}]", "t.json:1: invalid number '01'"),
        .text("bare point", "[{\"n\":1.}]", "t.json:1: invalid number '1.'"),
        .text("bare minus", "[{\"n\":-}]", "t.json:1: invalid number '-'"),
        .text("empty exponent", "[{\"n\":1e+}]", "t.json:1: invalid number '1e+'"),
        .text("two points", "[{\"n\":1.2.3}]", "t.json:1: invalid number '1.2.3'"),
        .text("double minus", "[{\"n\":--1}]", "t.json:1: invalid number '--1'"),
        .text("truncated literal", "[{\"a\":tru}]", "t.json:1: invalid literal 'tru'"),
        .text("long literal", "[{\"a\":nulls}]", "t.json:1: invalid literal 'nulls'"),
        .text("capital literal", "[{\"a\":True}]", "t.json:1: expected a value, found 'T'"),
        .text("too deep", deep, "t.json:1: nesting deeper than 64 levels"),
        // Strings
        .text("unterminated string", "[{\"a\":\"abc", "t.json:1: unterminated string"),
        .text("line break in string", "[\n{\"a\":\"ab\ncd\"}]", "t.json:2: unterminated string (line break inside a string)"),
        .text("unterminated key", "[{\"ab", "t.json:1: unterminated string"),
        .text("invalid escape", "[{\"a\":\"x\\q\"}]", "t.json:1: invalid escape '\\q'"),
        .text("escape at end", "[{\"a\":\"x\\", "t.json:1: unterminated string"),
        .text("bad \\u digits", "[{\"a\":\"\\u12G4\"}]", "t.json:1: invalid \\u escape (needs 4 hex digits)"),
        .text("short \\u", "[{\"a\":\"\\u12\"}]", "t.json:1: invalid \\u escape (needs 4 hex digits)"),
        .raw("control character", "[{\"a\":\"x", [0x01], "\"}]", "t.json:1: control character 0x01 inside a string (must be escaped)"),
        .text("raw tab", "[{\"a\":\"x\ty\"}]", "t.json:1: control character 0x09 inside a string"),
        // Bytes
        .raw("NUL in string", "[{\"a\":\"x", [0], "\"}]", "t.json:1: NUL byte"),
        .raw("NUL between values", "[{\"a\":1,", [0], "\"b\":2}]", "t.json:1: NUL byte"),
        .raw("NUL after number", "[{\"a\":1", [0], "}]", "t.json:1: NUL byte"),
        .raw("NUL after array", "[]\n", [0], "", "t.json:2: NUL byte"),
        .raw("NUL in escape", "[{\"a\":\"\\", [0], "\"}]", "t.json:1: NUL byte"),
        // JSON Lines
        .text("array on a line", "{\"a\":1}\n[1]\n", "t.json:2: expected one JSON object on the line, found an array", .lines),
        .text("string after blank lines", "{\"a\":1}\n\n\n\"x\"\n", "t.json:4: expected one JSON object on the line, found a string", .lines),
        .text("junk after CRLF lines", "{\"a\":1}\r\n{\"b\":2}\r\nxyz\r\n", "t.json:3: expected one JSON object on the line, found text, not JSON: 'xyz' (a CSV or TSV file? --format csv or tsv reads it)", .lines),
        .text("a CSV given as JSON Lines", "title,year,genres,rating,duration,certification\nHeat,1995\n",
              "t.json:1: expected one JSON object on the line, found text, not JSON: 'title,year,genres,rating,duration,certif…' (a CSV or TSV file? --format csv or tsv reads it)", .lines),
        .text("text without a line end", "title,year", "t.json:1: expected one JSON object on the line, found text, not JSON: 'title,year' (a CSV or TSV file? --format csv or tsv reads it)", .lines),
        .text("text cut inside a character", "abcdefghijklmnopqrstuvwxyz0123456789abc\u{E9}def\n",
              "t.json:1: expected one JSON object on the line, found text, not JSON: 'abcdefghijklmnopqrstuvwxyz0123456789abc…' (a CSV or TSV file? --format csv or tsv reads it)", .lines),
        .text("text cut after a character", "abcdefghijklmnopqrstuvwxyz0123456789ab\u{E9}def\n",
              "t.json:1: expected one JSON object on the line, found text, not JSON: 'abcdefghijklmnopqrstuvwxyz0123456789ab\u{E9}…' (a CSV or TSV file? --format csv or tsv reads it)", .lines),
        .text("a boolean on a line", "{\"a\":1}\ntrue\n", "t.json:2: expected one JSON object on the line, found a boolean", .lines),
        .text("a word like a boolean", "{\"a\":1}\ntitle\tyear\n", "t.json:2: expected one JSON object on the line, found text, not JSON: 'title year' (a CSV or TSV file? --format csv or tsv reads it)", .lines),
        .text("two objects on a line", "{\"a\":1} {\"b\":2}\n", "t.json:1: unexpected data after the object", .lines),
        .text("comma after object", "{\"a\":1}\n{\"a\":2},\n", "t.json:2: unexpected data after the object", .lines),
        .text("object across lines", "{\"a\":1}\n{\"a\":\n2}\n", "t.json:2: line ends inside the object (JSON Lines needs one object per line)", .lines),
        .text("unclosed object at end", "{\"a\":1}\n{\"a\":2", "t.json:2: unexpected end of input", .lines),
        .raw("NUL after object line", "{\"a\":1}", [0], "\n", "t.json:1: NUL byte", .lines),
    ]

    @Test("malformed input fails with a one-line message naming the line", arguments: malformed)
    func malformedInput(_ testCase: MalformedJSON) throws {
        let error = try #require(throws: CatalogError.self) { try records(testCase.input, testCase.mode) }
        #expect(error.kind == .dataError)
        #expect(error.message.hasPrefix(testCase.message), "got: \(error.message)")
        #expect(!error.message.contains("\n"))
    }
}

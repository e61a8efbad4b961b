import MovieDomain

/// A JSON array of records held by a top-level object, as API results are (`{"page": 1,
/// "results": [...]}`, or deeper: `{"result": {"movies": [...]}}`): its other members are read
/// past, its first array's objects are the records.
extension JSONRecordReader {
    /// How deep the records' array may sit in objects (Plex's `{"MediaContainer": {"Metadata": [...]}}`
    /// is two, Kodi's `{"result": {"movies": [...]}}` too).
    static let maxWrapLevels = 4

    /// At the input's first `{`: false when the object is one record alone (an API's details of
    /// one film saved as .json; it is then all there may be); else reads into it up to the records'
    /// array and returns true (the state `.finished` when it holds none, but empty arrays).
    func startInObject() throws -> Bool {
        if Self.hasTitleKey(try reader.peek(1 << 16)) {
            state = .finished
            return false
        }
        try consume()
        wrapLevels = 1
        switch try skipMembers(untilArray: true) {
        case .records:
            state = .element
        case .emptyArray:
            // Only empty arrays in it (a page of no results): no records.
            state = .finished
            if try skipWhitespace() != nil { throw error("trailing data after the object") }
        case .nothing:
            throw error("expected a JSON array of objects, found an object without one (for one object a line, JSON Lines, use --format jsonl)")
        }
        return true
    }

    /// After the closing `]`: only whitespace may follow (the rest of each object holding it first).
    func finishArray() throws {
        state = .finished
        while wrapLevels > 0 {
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: ",") {
                _ = try skipMembers(untilArray: false)
            } else if separator != UInt8(ascii: "}") {
                throw error("expected ',' or '}' after the array, found \(JSONByte.describe(separator))")
            }
            wrapLevels -= 1
        }
        if try skipWhitespace() != nil { throw error("trailing data after the array") }
    }

    /// Whether the object at the start of `bytes` has a title key of its own (`title`,
    /// `primaryTitle`, any case) among its first 64 KiB: then it is one record, not an object
    /// holding records (whose arrays, a film's `genres`, must not be taken for films).
    static func hasTitleKey(_ bytes: [UInt8]) -> Bool {
        var depth = 0, i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x22 {
                // A string: a key when it is at the object's own level and a ':' follows.
                var end = i + 1
                while end < bytes.count && bytes[end] != 0x22 { end += bytes[end] == 0x5C ? 2 : 1 }
                guard end < bytes.count else { return false }
                if depth == 1 {
                    var next = end + 1
                    while next < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                    if next < bytes.count && bytes[next] == 0x3A {
                        let key = String(decoding: bytes[(i + 1)..<end], as: UTF8.self).lowercased()
                        if key == "title" || key == "primarytitle" { return true }
                    }
                }
                i = end + 1
                continue
            }
            if byte == 0x7B || byte == 0x5B { depth += 1 } else if byte == 0x7D || byte == 0x5D {
                depth -= 1
                if depth == 0 { return false }
            }
            i += 1
        }
        return false
    }

    /// What the members of an object held.
    enum Held { case records, emptyArray, nothing }

    /// Reads the members of an object after its `{` (or a `,`), values skipped. With
    /// `untilArray`: up to the first array whose first element is an object, its `[` consumed
    /// (`.records`), looking into objects among the members too; an empty array or one of other
    /// values is skipped, and an object ending with no such array says whether it held an empty
    /// one. Else through the closing `}`.
    func skipMembers(untilArray: Bool) throws -> Held {
        var sawEmptyArray = false
        if try peekToken() == UInt8(ascii: "}") {
            try consume()
            return .nothing
        }
        while true {
            let quote = try peekToken()
            guard quote == UInt8(ascii: "\"") else { throw error("expected a string key in an object, found \(JSONByte.describe(quote))") }
            try consume()
            _ = try readString()
            let colon = try peekToken()
            guard colon == UInt8(ascii: ":") else { throw error("expected ':' after an object key, found \(JSONByte.describe(colon))") }
            try consume()
            // A value beside the records (a page number, a count, `"errors": []`): bounded as a record is.
            recordStart = reader.bytesConsumed
            values = 0
            let value = untilArray ? try peekToken() : nil
            if value == UInt8(ascii: "[") {
                try consume()
                let first = try peekToken()
                if first == UInt8(ascii: "{") { return .records }
                if first == UInt8(ascii: "]") { sawEmptyArray = true; try consume() } else { try skipRestOfArray() }
            } else if value == UInt8(ascii: "{") && wrapLevels < Self.maxWrapLevels {
                // An object among the members: the records may be in it.
                try consume()
                wrapLevels += 1
                switch try skipMembers(untilArray: true) {
                case .records: return .records
                case .emptyArray: sawEmptyArray = true
                case .nothing: break
                }
                wrapLevels -= 1
            } else {
                _ = try readValue(depth: 1)
            }
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: "}") { return sawEmptyArray ? .emptyArray : .nothing }
            guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object, found \(JSONByte.describe(separator))") }
        }
    }

    /// Reads past the elements of an array whose `[` was consumed, through its `]`.
    private func skipRestOfArray() throws {
        while true {
            _ = try readValue(depth: 2)
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: "]") { return }
            guard separator == UInt8(ascii: ",") else { throw error("expected ',' or ']' in an array, found \(JSONByte.describe(separator))") }
        }
    }
}

import MovieDomain

/// A JSON array of records held by a top-level object, as API results are (`{"page": 1,
/// "results": [...]}`): its other members are read past, its first array's objects are the records.
extension JSONRecordReader {
    /// After the closing `]`: only whitespace may follow (the rest of the object holding it first).
    func finishArray() throws {
        state = .finished
        if wrapped {
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: ",") { try skipMembers(untilArray: false) } else if separator != UInt8(ascii: "}") {
                throw error("expected ',' or '}' after the array, found \(JSONByte.describe(separator))")
            }
        }
        if try skipWhitespace() != nil { throw error("trailing data after the array") }
    }

    /// Reads the members of the top-level object after its `{` (or a `,`), values skipped. With
    /// `untilArray`: up to the first array whose first element is an object, its `[` consumed
    /// (true); an empty array or one of other values is skipped, and an object ending with no
    /// such array but an empty one holds no records (false). Else through the closing `}`.
    @discardableResult
    func skipMembers(untilArray: Bool) throws -> Bool {
        var sawEmptyArray = false
        func end() throws -> Bool {
            guard untilArray else { return false }
            if sawEmptyArray { return false }
            throw error("expected a JSON array of objects, found an object without one (for one object a line, JSON Lines, use --format jsonl)")
        }
        if try peekToken() == UInt8(ascii: "}") {
            try consume()
            return try end()
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
            if untilArray, try peekToken() == UInt8(ascii: "[") {
                try consume()
                let first = try peekToken()
                if first == UInt8(ascii: "{") { return true }
                if first == UInt8(ascii: "]") { sawEmptyArray = true; try consume() } else { try skipRestOfArray() }
            } else {
                _ = try readValue(depth: 1)
            }
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: "}") { return try end() }
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

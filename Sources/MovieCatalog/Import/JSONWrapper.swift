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

    /// Reads the members of the top-level object after its `{` (or a `,`), values skipped, up to
    /// the first array (`untilArray`; its `[` is then the next byte) or through the closing `}`.
    func skipMembers(untilArray: Bool) throws {
        if try peekToken() == UInt8(ascii: "}") {
            try consume()
            if untilArray { throw error("expected a JSON array of objects, found an object without one (for one object a line, JSON Lines, use --format jsonl)") }
            return
        }
        while true {
            let quote = try peekToken()
            guard quote == UInt8(ascii: "\"") else { throw error("expected a string key in an object, found \(JSONByte.describe(quote))") }
            try consume()
            _ = try readString()
            let colon = try peekToken()
            guard colon == UInt8(ascii: ":") else { throw error("expected ':' after an object key, found \(JSONByte.describe(colon))") }
            try consume()
            if untilArray, try peekToken() == UInt8(ascii: "[") { return }
            // A value beside the records (a page number, a count): bounded as a record is.
            recordStart = reader.bytesConsumed
            values = 0
            _ = try readValue(depth: 1)
            let separator = try peekToken()
            try consume()
            if separator == UInt8(ascii: "}") {
                if untilArray { throw error("expected a JSON array of objects, found an object without one (for one object a line, JSON Lines, use --format jsonl)") }
                return
            }
            guard separator == UInt8(ascii: ",") else { throw error("expected ',' or '}' in an object, found \(JSONByte.describe(separator))") }
        }
    }
}

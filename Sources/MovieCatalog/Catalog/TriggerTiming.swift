/// When a trigger fires, read from its CREATE TRIGGER statement (sqlite_master keeps the text
/// as it was typed; SQLite has no pragma that tells).
enum TriggerTiming {
    /// Whether `sql` makes an AFTER trigger; true too when the statement cannot be read (the
    /// callers' safe side). BEFORE is SQLite's default when neither word is given.
    static func firesAfter(_ sql: String) -> Bool {
        var tokens = Tokens(Array(sql.utf8))
        guard tokens.next() == "create" else { return true }
        var word = tokens.next()
        if word == "temp" || word == "temporary" { word = tokens.next() }
        guard word == "trigger" else { return true }
        word = tokens.next()
        if word == "if" {
            guard tokens.next() == "not", tokens.next() == "exists" else { return true }
            word = tokens.next()
        }
        // The name, maybe after its schema's: `main.name`.
        guard word != nil else { return true }
        word = tokens.next()
        if word == "." {
            guard tokens.next() != nil else { return true }
            word = tokens.next()
        }
        switch word {
        case "before", "insert", "update", "delete": return false
        case "instead": return false   // only on views
        default: return true
        }
    }

    /// SQL's tokens as far as a trigger's head needs them: words in lower case, a quoted name as
    /// one token (its text unused), punctuation one byte each; comments and spaces skipped.
    private struct Tokens {
        let bytes: [UInt8]
        var at = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> String? {
            skipSpaceAndComments()
            guard at < bytes.count else { return nil }
            let byte = bytes[at]
            let closing: UInt8? = switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"): byte
            case UInt8(ascii: "["): UInt8(ascii: "]")
            default: nil
            }
            if let closing {
                at += 1
                // A doubled quote inside stands for one.
                while at < bytes.count {
                    if bytes[at] == closing {
                        if closing != UInt8(ascii: "]"), at + 1 < bytes.count, bytes[at + 1] == closing { at += 2; continue }
                        at += 1
                        return "\"quoted\""
                    }
                    at += 1
                }
                return nil
            }
            guard isWordByte(byte) else { at += 1; return String(decoding: [byte], as: UTF8.self) }
            let start = at
            while at < bytes.count, isWordByte(bytes[at]) { at += 1 }
            return String(decoding: bytes[start..<at].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }

        private func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
                || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
        }

        private mutating func skipSpaceAndComments() {
            while at < bytes.count {
                let byte = bytes[at]
                if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                    at += 1
                } else if byte == UInt8(ascii: "-"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "-") {
                    while at < bytes.count, bytes[at] != 0x0A { at += 1 }
                } else if byte == UInt8(ascii: "/"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "*") {
                    at += 2
                    while at + 1 < bytes.count, !(bytes[at] == UInt8(ascii: "*") && bytes[at + 1] == UInt8(ascii: "/")) { at += 1 }
                    at = min(bytes.count, at + 2)
                } else {
                    return
                }
            }
        }
    }
}

import MovieDomain
import SQLiteStore
/// Quoting for the text formats moviecat writes.
public enum TextEscaping {
    /// A JSON string literal, quotes included.
    public static func json(_ text: String) -> String {
        var out: [UInt8] = []
        appendJSON(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal to `out`, byte by byte (a String built scalar by
    /// scalar cost a JSON export some 30,000 instructions a movie): quote, backslash and the
    /// controls escaped, and U+2028 and U+2029 (bytes E2 80 A8 and A9), which some JavaScript
    /// readers take for line ends. The bytes are read in place (`withUTF8Bytes`: a loop over
    /// `String.UTF8View` cost some ten instructions a byte).
    public static func appendJSON(_ text: String, to out: inout [UInt8]) {
        out.append(34)
        text.withUTF8Bytes { bytes in
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 34: out.append(contentsOf: [92, 34])
                case 92: out.append(contentsOf: [92, 92])
                case 10: out.append(contentsOf: [92, UInt8(ascii: "n")])
                case 13: out.append(contentsOf: [92, UInt8(ascii: "r")])
                case 9: out.append(contentsOf: [92, UInt8(ascii: "t")])
                case 0..<0x20: appendUnicodeEscape(UInt32(byte), to: &out)
                case 0xE2 where index + 1 < bytes.count && bytes[index] == 0x80 && (bytes[index + 1] == 0xA8 || bytes[index + 1] == 0xA9):
                    appendUnicodeEscape(bytes[index + 1] == 0xA8 ? 0x2028 : 0x2029, to: &out)
                    index += 2
                default: out.append(byte)
                }
            }
        }
        out.append(34)
    }

    /// `\u` and four lower-case hex digits.
    private static func appendUnicodeEscape(_ value: UInt32, to out: inout [UInt8]) {
        out.append(contentsOf: [92, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8((value >> UInt32(shift)) & 0xF)
            out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }

    /// An RFC 4180 CSV field: quoted when it holds a comma, quote, CR or LF (or edge spaces).
    public static func csv(_ text: String) -> String {
        var out: [UInt8] = []
        appendCSV(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` as a CSV field (`csv(_:)`) to `out`, byte by byte (the generic `replacing`
    /// cost some 20,000 instructions a call). An edge space is a character of its own, as
    /// `first` and `last` see it, tested only where the edge byte is a space.
    public static func appendCSV(_ text: String, to out: inout [UInt8]) {
        text.withUTF8Bytes { bytes in
            var needsQuotes = holdsCSVSpecial(bytes)
            if !needsQuotes, bytes.first == 0x20 || bytes.last == 0x20 { needsQuotes = text.first == " " || text.last == " " }
            if needsQuotes { appendQuoted(bytes, to: &out) } else { out.append(contentsOf: bytes) }
        }
    }

    /// A CSV field of bytes as read (not necessarily UTF-8), quoted as `csv(_:)` quotes text
    /// (its edge spaces taken byte by byte).
    public static func csv(bytes: [UInt8]) -> [UInt8] {
        guard holdsCSVSpecial(bytes) || bytes.first == 0x20 || bytes.last == 0x20 else { return bytes }
        var out: [UInt8] = []
        appendQuoted(bytes, to: &out)
        return out
    }

    /// Whether a field holds a comma, quote, CR or LF.
    private static func holdsCSVSpecial(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
    }

    /// Appends a field in quotes, its quotes doubled.
    private static func appendQuoted(_ bytes: some Sequence<UInt8>, to out: inout [UInt8]) {
        out.append(34)
        for byte in bytes {
            out.append(byte)
            if byte == 34 { out.append(34) }
        }
        out.append(34)
    }

    /// A word a POSIX shell reads back as `text`: as it is when it holds only characters no
    /// shell treats specially, else in single quotes (`'title:love story'`, `'title:an '`), so
    /// a token list shows where each token ends and can be pasted into a command line.
    public static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || ":._-+,/=@%^".unicodeScalars.contains(scalar)
        }
        return plain ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// Text safe to print on a terminal: control characters (newlines, escape sequences) become
    /// their visible Unicode pictures (␊, ␛), so a stored title cannot break or drive the table;
    /// C1 controls and bidirectional overrides (which reorder what follows) become U+FFFD.
    public static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHostile) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case _ where isHostile(scalar): out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A message line safe for a terminal: control characters, C1 controls and bidirectional
    /// overrides quoted from input are written as escapes (`\x1B`, `\u{202E}`), so a hostile
    /// header, value or file name cannot retitle, recolour or scramble the user's terminal.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHostile) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\x" + hex(scalar.value, digits: 2)
            } else if isHostile(scalar) {
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Bytes as text, each byte that is not part of valid UTF-8 written as `\xFF`: what a
    /// header or raw field holds, shown (and kept in a rejects file) without loss or harm.
    public static func visible(bytes: UnsafeBufferPointer<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = ""
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, i + length <= bytes.count,
               let scalar = String(validating: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]), as: UTF8.self) {
                out += scalar
                i += length
            } else {
                out += "\\x" + hex(UInt32(lead), digits: 2)
                i += 1
            }
        }
        return out
    }

    /// Controls, the format characters that reorder text on screen, and the byte order mark
    /// (invisible: a header's doubled BOM made `title` look like a column that was there).
    static func isHostile(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Appends `text` as a TSV field (`tsv(_:)`) to `out`.
    public static func appendTSV(_ text: String, to out: inout [UInt8]) {
        let plain = text.withUTF8Bytes { bytes in
            guard !bytes.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { out.append(contentsOf: tsv(text).utf8) }
    }

    /// A TSV field: tabs and newlines cannot be represented, so they become spaces; `\N` would read as null.
    public static func tsv(_ text: String) -> String {
        let cleaned = text.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 }
            ? String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
            : text
        return cleaned
    }
}

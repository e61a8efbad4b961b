import MovieDomain
import SQLiteStore
/// Quoting for the text formats moviecat writes.
public enum TextEscaping {
    /// A JSON string literal, quotes included.
    public static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An RFC 4180 CSV field: quoted when it holds a comma, quote, CR or LF (or edge spaces).
    public static func csv(_ text: String) -> String {
        let needsQuotes = text.utf8.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
            || text.first == " " || text.last == " "
        guard needsQuotes else { return text }
        return "\"" + text.replacing("\"", with: "\"\"") + "\""
    }

    /// Text safe to print on a terminal: control characters (newlines, escape sequences) become
    /// their visible Unicode pictures (␊, ␛), so a stored title cannot break or drive the table.
    public static func terminalSafe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80...0x9F: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A TSV field: tabs and newlines cannot be represented, so they become spaces; `\N` would read as null.
    public static func tsv(_ text: String) -> String {
        let cleaned = text.utf8.contains { $0 == 9 || $0 == 10 || $0 == 13 }
            ? String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
            : text
        return cleaned
    }
}

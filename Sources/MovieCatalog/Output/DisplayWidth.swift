import MovieDomain
import SQLiteStore
/// Terminal display width of text: wide (CJK, emoji) characters take two columns, marks none.
public enum DisplayWidth {
    /// Columns `text` occupies in a terminal.
    public static func of(_ text: String) -> Int {
        if let width = asciiWidth(text) { return width }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    /// The width of ASCII text from its bytes, nil for text beyond ASCII: each byte is a
    /// character of its own, one column but the controls' none (as `of(_: Character)` counts
    /// them), where breaking a table's cells into characters cost some 28,000 instructions a row.
    private static func asciiWidth(_ text: String) -> Int? {
        text.withUTF8Bytes { bytes -> Int? in
            var width = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if byte >= 0x20 && byte != 0x7F { width += 1 }
            }
            return width
        }
    }

    /// Columns one grapheme cluster occupies.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        // Emoji shown as pictures, or text symbols turned into emoji by VS16, are two columns.
        if first.properties.isEmojiPresentation || scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if isWide(first.value) { return 2 }
        // Otherwise a column for each scalar that is no mark, format or control, as terminals
        // measure text (wcwidth, code point by code point): a Devanagari vowel sign (`ि`) and a
        // conjunct's second consonant (`स्त`) take columns of their own, so `दिलवाले` is 6
        // columns in 4 characters.
        return scalars.reduce(0) { $0 + (isZeroWidth($1) ? 0 : 1) }
    }

    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
    }

    /// East Asian Wide and Fullwidth ranges.
    static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        var out = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            out.append(character)
            used += w
        }
        return out + "…"
    }

    /// `text` in lines of at most `width` columns, broken at spaces; a word wider than a line is
    /// cut with `…` (or, not `cutting`, has a line of its own).
    public static func wrap(_ text: String, to width: Int, cutting: Bool = true) -> [String] {
        wrap(words: text.split(separator: " ", omittingEmptySubsequences: true).map { cutting ? truncate(String($0), to: max(1, width)) : String($0) },
             to: width)
    }

    /// `words` in lines of at most `width` columns, a space between two, each word whole (one
    /// wider than a line has a line of its own).
    public static func wrap(words: [String], to width: Int) -> [String] {
        var lines: [String] = [], line = "", used = 0
        for word in words {
            let w = of(word)
            if used > 0 && used + 1 + w > width {
                lines.append(line)
                line = ""
                used = 0
            }
            line += (used > 0 ? " " : "") + word
            used += (used > 0 ? 1 : 0) + w
        }
        return lines + (line.isEmpty && !lines.isEmpty ? [] : [line])
    }

    /// `text` padded with spaces to `width` columns.
    public static func pad(_ text: String, to width: Int, rightAligned: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - of(text)))
        return rightAligned ? padding + text : text + padding
    }
}

/// The one-byte encodings of spreadsheets' CSV before UTF-8: Windows-1252 (Excel on Windows,
/// IMDb's exports before 2017) and Mac Roman (Excel for Mac's "CSV (Macintosh)", its lines ending
/// in CR alone). Told from UTF-8, and from each other, by an input's first bytes, and turned
/// into UTF-8 as it is read.
enum SingleByteEncoding: Sendable {
    case windows1252, macRoman

    /// How the report names it, and why it was told.
    var note: String {
        switch self {
        case .windows1252: return "Windows-1252 (its bytes are not UTF-8)"
        case .macRoman: return "Mac Roman (its bytes are not UTF-8, and are Excel for Mac's)"
        }
    }

    /// The encoding `bytes` (the start of an input) are in, when not UTF-8: some byte of 0x80 and
    /// above, none of them in a sequence shaped as UTF-8 (a lead byte and its continuation bytes,
    /// valid or not: a surrogate's three bytes too; a UTF-8 file with one broken byte stays UTF-8,
    /// its broken rows reported). Mac Roman where lines end in CR alone (classic Mac files), or
    /// where bytes Windows-1252 leaves undefined occur (Mac Roman's `ç`, `è`, `ê`, `ù`, `Å`);
    /// else Windows-1252. `atEnd`: the input ends with these bytes (a lead byte cut by its end
    /// is no UTF-8); `linesBefore`: how the lines of the ASCII text before them ended.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool = false,
                       linesBefore: (loneCR: Bool, lineFeed: Bool) = (false, false)) -> SingleByteEncoding? {
        // UTF-16 or UTF-32 (a byte order mark, NUL bytes) is told apart elsewhere.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.contains(0) { return nil }
        var invalid = false, undefinedIn1252 = false, loneCR = linesBefore.loneCR, lineFeed = linesBefore.lineFeed
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 {
                if lead == 0x0A { lineFeed = true }
                if lead == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A) { loneCR = true }
                i += 1
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, i + length <= bytes.count, bytes[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                return nil   // shaped as UTF-8: UTF-8
            }
            // A sequence cut by the end of what was read (continuation bytes up to it) says
            // nothing either way.
            if !atEnd && length > 0 && i + length > bytes.count && bytes[(i + 1)...].allSatisfy({ $0 & 0xC0 == 0x80 }) { break }
            invalid = true
            if undefined1252.contains(lead) { undefinedIn1252 = true }
            i += 1
        }
        guard invalid else { return nil }
        return undefinedIn1252 || (loneCR && !lineFeed) ? .macRoman : .windows1252
    }

    /// How lines end in `bytes`: some in CR alone, some in LF.
    static func lineEnds(_ bytes: [UInt8]) -> (loneCR: Bool, lineFeed: Bool) {
        var loneCR = false
        for (i, byte) in bytes.enumerated() where byte == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A) { loneCR = true; break }
        return (loneCR, bytes.contains(0x0A))
    }

    /// The five bytes Windows-1252 leaves undefined.
    private static let undefined1252: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]

    /// Turns the `count` bytes at `bytes` into UTF-8 in place; the buffer must hold `3 * count`.
    /// Returns the new count.
    func transcode(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var out = count
        for i in 0..<count where bytes[i] >= 0x80 { out += scalar(bytes[i]) >= 0x800 ? 2 : 1 }
        guard out > count else { return count }
        // From the back, so that no byte is overwritten before it is read.
        var write = out
        for i in stride(from: count - 1, through: 0, by: -1) {
            let byte = bytes[i]
            if byte < 0x80 {
                write -= 1
                bytes[write] = byte
                continue
            }
            let utf8 = Unicode.Scalar(scalar(byte))!.utf8
            write -= utf8.count
            for (offset, unit) in utf8.enumerated() { bytes[write + offset] = unit }
        }
        return out
    }

    /// The code point of a byte of 0x80 and above.
    private func scalar(_ byte: UInt8) -> UInt32 {
        switch self {
        case .macRoman:
            return Self.macRomanHigh[Int(byte) - 0x80]
        case .windows1252:
            // The five bytes it leaves undefined read as the C1 controls of their value, as
            // Windows reads them.
            guard byte < 0xA0 else { return UInt32(byte) }
            return Self.windows1252High[Int(byte) - 0x80]
        }
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// Mac Roman's 0x80...0xFF (0xDB is the euro sign since Mac OS 8.5; 0xF0 the Apple logo,
    /// U+F8FF).
    private static let macRomanHigh: [UInt32] = [
        0x00C4, 0x00C5, 0x00C7, 0x00C9, 0x00D1, 0x00D6, 0x00DC, 0x00E1, 0x00E0, 0x00E2, 0x00E4, 0x00E3, 0x00E5, 0x00E7, 0x00E9, 0x00E8,
        0x00EA, 0x00EB, 0x00ED, 0x00EC, 0x00EE, 0x00EF, 0x00F1, 0x00F3, 0x00F2, 0x00F4, 0x00F6, 0x00F5, 0x00FA, 0x00F9, 0x00FB, 0x00FC,
        0x2020, 0x00B0, 0x00A2, 0x00A3, 0x00A7, 0x2022, 0x00B6, 0x00DF, 0x00AE, 0x00A9, 0x2122, 0x00B4, 0x00A8, 0x2260, 0x00C6, 0x00D8,
        0x221E, 0x00B1, 0x2264, 0x2265, 0x00A5, 0x00B5, 0x2202, 0x2211, 0x220F, 0x03C0, 0x222B, 0x00AA, 0x00BA, 0x03A9, 0x00E6, 0x00F8,
        0x00BF, 0x00A1, 0x00AC, 0x221A, 0x0192, 0x2248, 0x2206, 0x00AB, 0x00BB, 0x2026, 0x00A0, 0x00C0, 0x00C3, 0x00D5, 0x0152, 0x0153,
        0x2013, 0x2014, 0x201C, 0x201D, 0x2018, 0x2019, 0x00F7, 0x25CA, 0x00FF, 0x0178, 0x2044, 0x20AC, 0x2039, 0x203A, 0xFB01, 0xFB02,
        0x2021, 0x00B7, 0x201A, 0x201E, 0x2030, 0x00C2, 0x00CA, 0x00C1, 0x00CB, 0x00C8, 0x00CD, 0x00CE, 0x00CF, 0x00CC, 0x00D3, 0x00D4,
        0xF8FF, 0x00D2, 0x00DA, 0x00DB, 0x00D9, 0x0131, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9, 0x02DA, 0x00B8, 0x02DD, 0x02DB, 0x02C7,
    ]
}

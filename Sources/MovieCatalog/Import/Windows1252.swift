/// Windows-1252, the encoding Excel's "CSV" and many older exports (IMDb's before 2017) write on
/// Windows: told from UTF-8 by its first bytes, and turned into UTF-8 as it is read.
enum Windows1252 {
    /// Whether `bytes` (the start of an input) look like Windows-1252 and not UTF-8: some byte
    /// of 0x80 and above, none of them in a sequence shaped as UTF-8 (a lead byte and its
    /// continuation bytes, valid or not: a surrogate's three bytes too). A UTF-8 file with one
    /// broken byte has such sequences too, and stays UTF-8 (its broken rows are reported).
    static func looksLikeIt(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // UTF-16 or UTF-32 (a byte order mark, NUL bytes) is told apart, and refused, later.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.contains(0) { return false }
        var invalid = false
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
            if length > 0, i + length <= bytes.count, bytes[(i + 1)..<(i + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) {
                return false   // shaped as UTF-8: UTF-8
            }
            // A sequence cut by the end of what was read (continuation bytes up to it) says
            // nothing either way.
            if length > 0 && i + length > bytes.count && bytes[(i + 1)...].allSatisfy({ $0 & 0xC0 == 0x80 }) { break }
            invalid = true
            i += 1
        }
        return invalid
    }

    /// Turns the `count` bytes at `bytes` into UTF-8 in place; the buffer must hold `3 * count`.
    /// Returns the new count.
    static func transcode(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
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

    /// The code point of a byte of 0x80 and above; the five bytes Windows-1252 leaves undefined
    /// read as the C1 controls of their value, as Windows reads them.
    private static func scalar(_ byte: UInt8) -> UInt32 {
        guard byte < 0xA0 else { return UInt32(byte) }
        return high[Int(byte) - 0x80]
    }

    private static let high: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

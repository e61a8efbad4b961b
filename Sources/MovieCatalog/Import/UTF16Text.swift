/// UTF-16 text (Excel's "Unicode Text", Windows PowerShell's files) turned into UTF-8 as it is read,
/// across reads that may cut a character or a surrogate pair anywhere.
struct UTF16Text {
    /// Whether the code units are big-endian (a `FE FF` byte order mark).
    let bigEndian: Bool
    /// A byte read ahead of its code unit's second byte.
    private var oddByte: UInt8?
    /// A high surrogate waiting for the low one of its pair.
    private var high: UInt16?

    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    /// The most UTF-8 bytes `decode` may write for `count` bytes in: three for each code unit, a
    /// lone surrogate waiting from the read before, and a last odd byte.
    static func room(for count: Int) -> Int { (count + 1) / 2 * 3 + 4 }

    /// The encoding `bytes` (the start of an input) are in, when UTF-16: a byte order mark that is
    /// not UTF-32's (`FF FE 00 00`), or, with none, the NUL bytes of ASCII text in every other place
    /// (at least nine code units in ten of the first 4 KiB: text that is mostly ASCII, as lists are).
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> UTF16Text? {
        if bytes.starts(with: [0xFF, 0xFE]) && !bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return UTF16Text(bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return UTF16Text(bigEndian: true) }
        let units = min(bytes.count, 4096) / 2
        guard units >= 2 else { return nil }
        var little = 0, big = 0
        for unit in 0..<units {
            let first = bytes[2 * unit], second = bytes[2 * unit + 1]
            if first != 0 && second == 0 { little += 1 } else if first == 0 && second != 0 { big += 1 }
        }
        if little * 10 >= units * 9 && bytes[0] != 0 { return UTF16Text(bigEndian: false) }
        if big * 10 >= units * 9 && bytes[1] != 0 { return UTF16Text(bigEndian: true) }
        // Titles beyond ASCII on every row (CJK): the header line alone, ASCII, tells.
        for bigEndian in [false, true] where asciiFirstLine(bytes, bigEndian: bigEndian) { return UTF16Text(bigEndian: bigEndian) }
        return nil
    }

    /// Whether the first line is four or more ASCII code units (a header's names) and ends in a
    /// line feed, in this byte order.
    private static func asciiFirstLine(_ bytes: UnsafeBufferPointer<UInt8>, bigEndian: Bool) -> Bool {
        var unit = 0
        while 2 * unit + 1 < bytes.count {
            let (high, low) = bigEndian ? (bytes[2 * unit], bytes[2 * unit + 1]) : (bytes[2 * unit + 1], bytes[2 * unit])
            guard high == 0, low != 0, low < 0x80 else { return false }
            if low == 0x0A { return unit >= 4 }
            unit += 1
        }
        return false
    }

    /// Decodes `count` bytes into UTF-8 at `output` (room for `room(for: count)` bytes) and returns
    /// how many it wrote; `atEnd` says no bytes follow. A lone surrogate is written as the three
    /// bytes that would encode it, which no UTF-8 reader accepts, so its row is refused rather than
    /// stored with a replacement character; so is a last odd byte.
    mutating func decode(_ input: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>, atEnd: Bool) -> Int {
        var written = 0
        var index = 0
        func put(_ scalar: UInt32) {
            if scalar < 0x80 {
                output[written] = UInt8(scalar); written += 1
            } else if scalar < 0x800 {
                output[written] = UInt8(0xC0 | scalar >> 6)
                output[written + 1] = UInt8(0x80 | scalar & 0x3F); written += 2
            } else if scalar < 0x10000 {
                output[written] = UInt8(0xE0 | scalar >> 12)
                output[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                output[written + 2] = UInt8(0x80 | scalar & 0x3F); written += 3
            } else {
                output[written] = UInt8(0xF0 | scalar >> 18)
                output[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                output[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                output[written + 3] = UInt8(0x80 | scalar & 0x3F); written += 4
            }
        }
        while true {
            let first: UInt8, second: UInt8
            if let odd = oddByte {
                guard index < count else { break }
                first = odd; second = input[index]; index += 1
                oddByte = nil
            } else {
                guard index + 1 < count else {
                    if index < count { oddByte = input[index] }
                    break
                }
                first = input[index]; second = input[index + 1]; index += 2
            }
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
            if let waiting = high {
                high = nil
                if unit & 0xFC00 == 0xDC00 {
                    put(0x10000 + (UInt32(waiting & 0x3FF) << 10 | UInt32(unit & 0x3FF)))
                    continue
                }
                put(UInt32(waiting))
            }
            switch unit & 0xFC00 {
            case 0xD800: high = unit
            default: put(UInt32(unit))   // a lone low surrogate too
            }
        }
        if atEnd {
            if let waiting = high { put(UInt32(waiting)); high = nil }
            if oddByte != nil { output[written] = 0xFF; written += 1; oddByte = nil }
        }
        return written
    }
}

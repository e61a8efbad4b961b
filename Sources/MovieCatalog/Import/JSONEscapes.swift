import MovieDomain

/// JSON string escapes: `\n` and the like, `\uXXXX` with surrogate pairs; `\u0000` and lone
/// surrogates mark their record (`markText`).
extension JSONRecordReader {
    /// Decodes one escape after its backslash, appending its UTF-8 to `bytes`.
    func readEscape(into bytes: inout [UInt8]) throws {
        guard let byte = try reader.next() else { throw error("unterminated string") }
        let decoded: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = byte
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            try readUnicodeEscape(into: &bytes)
            return
        case 0:
            throw error("NUL byte")
        case 0x21...0x7E:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        default:
            throw error("invalid escape (backslash followed by byte \(JSONByte.hex(byte)))")
        }
        bytes.append(decoded)
    }

    /// Decodes `XXXX` after `\u` into `bytes`, joining a surrogate pair. NUL never goes into
    /// the catalog: it marks the record, whose rejects row keeps it, so that importing that row
    /// again rejects it again. A lone surrogate marks the record too, and goes into `bytes` as
    /// the three bytes that would encode it: no UTF-8, so the string reads with U+FFFD and its
    /// rejects row fails again.
    private func readUnicodeEscape(into bytes: inout [UInt8]) throws {
        var unit = try readHex4()
        if unit == 0 {
            markText("contains a NUL character (\\u0000)", wholeRecord: true)
            bytes.append(0)
            return
        }
        func lone(_ unit: UInt16, _ detail: String = "") {
            markText("lone surrogate \\u\(JSONByte.hex4(unit))\(detail)")
            bytes.append(contentsOf: [0xE0 | UInt8(unit >> 12), 0x80 | UInt8((unit >> 6) & 0x3F), 0x80 | UInt8(unit & 0x3F)])
        }
        // A high half followed by an escape that is no low half is lone; that escape then starts
        // again (it may be the high half of a pair of its own).
        while true {
            guard 0xD800...0xDFFF ~= unit else { return bytes.append(contentsOf: Unicode.Scalar(unit)!.utf8) }
            guard unit <= 0xDBFF, try reader.peek() == UInt8(ascii: "\\") else { return lone(unit) }
            _ = try reader.next()
            // Another escape after the high half: read on its own.
            guard try reader.peek() == UInt8(ascii: "u") else {
                lone(unit)
                return try readEscape(into: &bytes)
            }
            _ = try reader.next()
            let low = try readHex4()
            if 0xDC00...0xDFFF ~= low {
                let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
                return bytes.append(contentsOf: Unicode.Scalar(value)!.utf8)
            }
            lone(unit, " (followed by \\u\(JSONByte.hex4(low)))")
            if low == 0 {
                markText("contains a NUL character (\\u0000)", wholeRecord: true)
                return bytes.append(0)
            }
            unit = low
        }
    }

    private func readHex4() throws -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = try reader.next() else { throw error("unterminated string") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            case 0: throw error("NUL byte")
            default: throw error("invalid \\u escape (needs 4 hex digits)")
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }
}

import MovieDomain

/// JSON string escapes: `\n` and the like, `\uXXXX` with surrogate pairs; `\u0000` and lone
/// surrogates mark their record (`textProblem`).
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
    /// again rejects it again. A lone surrogate marks the record too and reads as U+FFFD.
    private func readUnicodeEscape(into bytes: inout [UInt8]) throws {
        let unit = try readHex4()
        if unit == 0 {
            textProblem = textProblem ?? "contains a NUL character (\\u0000)"
            bytes.append(0)
            return
        }
        guard 0xD800...0xDFFF ~= unit else { return bytes.append(contentsOf: Unicode.Scalar(unit)!.utf8) }
        func lone(_ detail: String = "") {
            textProblem = textProblem ?? "lone surrogate \\u\(JSONByte.hex4(unit))\(detail)"
            bytes.append(contentsOf: Unicode.Scalar(0xFFFD)!.utf8)
        }
        guard unit <= 0xDBFF, try reader.peek() == UInt8(ascii: "\\") else { return lone() }
        _ = try reader.next()
        // Another escape after the high half: read on its own.
        guard try reader.peek() == UInt8(ascii: "u") else {
            lone()
            return try readEscape(into: &bytes)
        }
        _ = try reader.next()
        let low = try readHex4()
        guard 0xDC00...0xDFFF ~= low else {
            lone(" (followed by \\u\(JSONByte.hex4(low)))")
            // The second escape stands for itself (a surrogate there is lone too).
            if low == 0 || 0xD800...0xDFFF ~= low { bytes.append(contentsOf: Unicode.Scalar(0xFFFD)!.utf8) } else { bytes.append(contentsOf: Unicode.Scalar(low)!.utf8) }
            return
        }
        let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        bytes.append(contentsOf: Unicode.Scalar(value)!.utf8)
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

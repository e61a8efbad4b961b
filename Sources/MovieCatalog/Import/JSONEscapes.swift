import MovieDomain

/// JSON string escapes: `\n` and the like, `\uXXXX` with surrogate pairs, `\u0000` marked.
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
            guard let scalar = try readUnicodeEscape() else {
                // NUL never goes into the catalog: the record is rejected, and its rejects row
                // keeps the NUL, so that importing it again rejects it again.
                escapedNUL = true
                bytes.append(0)
                return
            }
            bytes.append(contentsOf: scalar.utf8)
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

    /// Decodes `XXXX` after `\u`, joining a surrogate pair; nil for `\u0000`.
    private func readUnicodeEscape() throws -> Unicode.Scalar? {
        let unit = try readHex4()
        var value = UInt32(unit)
        if 0xDC00...0xDFFF ~= unit { throw error("lone surrogate \\u\(JSONByte.hex4(unit))") }
        if 0xD800...0xDBFF ~= unit {
            guard try reader.next() == UInt8(ascii: "\\"), try reader.next() == UInt8(ascii: "u") else {
                throw error("lone surrogate \\u\(JSONByte.hex4(unit))")
            }
            let low = try readHex4()
            guard 0xDC00...0xDFFF ~= low else {
                throw error("lone surrogate \\u\(JSONByte.hex4(unit)) (followed by \\u\(JSONByte.hex4(low)))")
            }
            value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        }
        return value == 0 ? nil : Unicode.Scalar(value)!
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

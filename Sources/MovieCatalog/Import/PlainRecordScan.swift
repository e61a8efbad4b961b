import MovieDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one-pass read of a plain record: most lines of a CSV or TSV file are read here instead of
/// byte by byte by `scan` (which keeps state for quotes, NULs and refills at every byte, and
/// copies every field on its own: some 2,400 instructions a row of a generated list, a quarter of
/// the parsing thread's work).
extension DelimitedReader {
    /// The class of each byte value for `scanPlain`: nothing to note, a separator, a line break,
    /// or one that may leave the record to `scan` (a quote in CSV, when it opens a field; a NUL).
    /// Nil when the separator is one of the others (`scan` alone reads such a file).
    static func byteClasses(separator: UInt8, quoting: Bool) -> [UInt8]? {
        let quote = UInt8(ascii: "\""), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        guard separator != lf, separator != cr, separator != 0, !(quoting && separator == quote) else { return nil }
        var classes = [UInt8](repeating: ByteClass.ordinary, count: 256)
        classes[0] = ByteClass.other
        if quoting { classes[Int(quote)] = ByteClass.other }
        classes[Int(lf)] = ByteClass.lineBreak
        classes[Int(cr)] = ByteClass.lineBreak
        classes[Int(separator)] = ByteClass.separator
        return classes
    }

    /// The classes `byteClasses` gives.
    enum ByteClass {
        static let ordinary: UInt8 = 0, separator: UInt8 = 1, lineBreak: UInt8 = 2, other: UInt8 = 3
    }

    /// Reads the next record as `scan` would when its line lies whole in the input's buffer and
    /// holds no NUL and no quote that opens a field (CSV): its bytes copied at once, then the
    /// separators squeezed out. Nil, having read and changed nothing, for any other record.
    func scanPlain(into storage: inout [UInt8], fieldEnds: inout [Int]) throws -> Bool? {
        guard let byteClasses, storage.isEmpty, fieldEnds.isEmpty else { return nil }
        let buf = UnsafePointer(input.buffer), start = input.position, end = input.end
        guard start < end else { return nil }
        var i = start, fieldStart = start
        var filteredOut = false, leftOutByKind = false
        var nextWatch = 0
        var watchColumn = conditions.first?.column ?? Int.max
        var breakClass = ByteClass.ordinary
        let found: Bool = byteClasses.withUnsafeBufferPointer { classes in
            while i < end {
                let byteClass = classes[Int(buf[i])]
                if byteClass == ByteClass.ordinary {
                    i += 1
                    continue
                }
                if byteClass == ByteClass.other {
                    // A quote that does not open a field is data, as `scan` reads it.
                    guard quoting, buf[i] == UInt8(ascii: "\""), i != fieldStart else { return false }
                    i += 1
                    continue
                }
                // A field ends at `i`: its end in `storage`, where the separators before it are not.
                let field = fieldEnds.count
                fieldEnds.append(i - start - field)
                if field == watchColumn {
                    let condition = conditions[nextWatch]
                    nextWatch += 1
                    watchColumn = nextWatch < conditions.count ? conditions[nextWatch].column : Int.max
                    if !condition.accepts(UnsafeBufferPointer(start: buf + fieldStart, count: i - fieldStart)) {
                        filteredOut = true
                        leftOutByKind = condition.excludes
                        watchColumn = Int.max
                        // TSV has no quoting: the record ends at the next line break, found by `skipLine`.
                        if !quoting && byteClass == ByteClass.separator {
                            breakClass = ByteClass.separator
                            return true
                        }
                    }
                }
                if byteClass == ByteClass.lineBreak {
                    breakClass = ByteClass.lineBreak
                    return true
                }
                i += 1
                fieldStart = i
            }
            return false
        }
        // A CR as the buffer's last byte: whether an LF follows needs the next read, left to `scan`.
        let crlf = breakClass == ByteClass.lineBreak && buf[i] == UInt8(ascii: "\r") && i + 1 < end && buf[i + 1] == UInt8(ascii: "\n")
        let waitsForRead = breakClass == ByteClass.lineBreak && buf[i] == UInt8(ascii: "\r") && i + 1 == end
        // Past the record limit `scan` names the error.
        guard found, !waitsForRead, (i - start - fieldEnds.count + 1) + 8 &* fieldEnds.count <= ByteReader.maxRecordBytes else {
            fieldEnds.removeAll(keepingCapacity: true)
            return nil
        }
        storage.append(contentsOf: UnsafeBufferPointer(start: buf + start, count: i - start))
        storage.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            // Field k sits k bytes (its separators) after where it belongs.
            for k in fieldEnds.indices.dropFirst() {
                let to = fieldEnds[k - 1], length = fieldEnds[k] - to
                if length > 0 { memmove(base + to, base + to + k, length) }
            }
        }
        storage.removeLast(fieldEnds.count - 1)
        isFilteredOut = filteredOut
        isLeftOutByKind = leftOutByKind
        hasNUL = false
        if breakClass == ByteClass.separator {
            input.position = i + 1
            try skipLine()
        } else {
            input.position = i + (crlf ? 2 : 1)
            line += 1
        }
        return true
    }
}

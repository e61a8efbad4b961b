import Foundation
import Testing
@testable import MovieCatalog

/// UTF-16 input (Excel's "Unicode Text", Windows PowerShell's files): told by its byte order mark or
/// its NUL bytes, and read as UTF-8 across reads that cut characters and pairs anywhere.
@Suite struct UTF16TextTests {
    static let text = "Title\tYear\r\nAm\u{E9}lie\t2001\r\n\u{1F3AC} Caf\u{E9} \u{201C}\u{4E03}\u{4EBA}\u{201D}\t1954\r\n"

    /// Decodes `bytes` through `UTF16Text` in reads of `size` bytes.
    static func decoded(_ bytes: [UInt8], bigEndian: Bool, size: Int) -> [UInt8] {
        var decoder = UTF16Text(bigEndian: bigEndian)
        var out: [UInt8] = []
        var start = 0
        repeat {
            let chunk = Array(bytes[start..<min(start + size, bytes.count)])
            start += chunk.count
            var room = [UInt8](repeating: 0, count: UTF16Text.room(for: chunk.count))
            let written = chunk.withUnsafeBufferPointer { input in
                room.withUnsafeMutableBufferPointer {
                    decoder.decode(input.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: chunk.count, into: $0.baseAddress!, atEnd: chunk.isEmpty)
                }
            }
            out += room.prefix(written)
            if chunk.isEmpty { break }
        } while true
        return out
    }

    @Test("text read in chunks of any size comes out as its UTF-8, either byte order", arguments: [1, 2, 3, 5, 7, 64], [false, true])
    func chunks(_ size: Int, _ bigEndian: Bool) {
        let bytes = [UInt8](Self.text.data(using: bigEndian ? .utf16BigEndian : .utf16LittleEndian)!)
        #expect(Self.decoded(bytes, bigEndian: bigEndian, size: size) == Array(Self.text.utf8))
    }

    @Test("a lone surrogate, and a last odd byte, come out as bytes no UTF-8 reader accepts", arguments: [1, 2, 3, 64])
    func broken(_ size: Int) {
        // "A", a lone high surrogate then "B", a lone low surrogate, a high one at the very end.
        let units: [UInt16] = [0x41, 0xD800, 0x42, 0xDC00, 0x43, 0xD83C]
        let bytes = units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let out = Self.decoded(bytes, bigEndian: false, size: size)
        #expect(out == [0x41, 0xED, 0xA0, 0x80, 0x42, 0xED, 0xB0, 0x80, 0x43, 0xED, 0xA0, 0xBC])
        #expect(String(validating: out, as: UTF8.self) == nil)
        let odd = Self.decoded(bytes.prefix(4) + [0x44], bigEndian: false, size: size)
        #expect(odd == [0x41, 0xED, 0xA0, 0x80, 0xFF])
    }

    static func little(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
    static func big(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    static let detectionCases: [([UInt8], String)] = [
        ([0xFF, 0xFE, 0x41, 0x00], "little"), ([0xFE, 0xFF, 0x00, 0x41], "big"),
        (little("title,year\n"), "little"), (big("title,year\n"), "big"),
        ([0xFF, 0xFE, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00], "none"), (Array("title,year\n".utf8), "none"),
        ([0x41, 0x00, 0x00, 0x00, 0x42, 0x00, 0x00, 0x00], "none"), ([0x41, 0x00, 0x42, 0x00, 0x00, 0x00, 0x43, 0x44, 0x45, 0x46], "none"),
        ([0x41], "none"),
        // Rows beyond ASCII after an ASCII header line.
        (little("title,year\n" + String(repeating: "千と千尋の神隠し,2001\n", count: 40)), "little"),
        (big("title,year\n" + String(repeating: "千と千尋の神隠し,2001\n", count: 40)), "big"),
        // A first line of ASCII units too short to be a header's, and rows beyond ASCII: not told.
        (little("ti\n" + String(repeating: "千と千尋の神隠し\n", count: 40)), "none"),
    ]

    @Test("told by its byte order mark, or by NUL bytes in every other place; UTF-8, UTF-32 and binary are not", arguments: detectionCases)
    func detection(_ bytes: [UInt8], _ order: String) {
        let found = bytes.withUnsafeBufferPointer(UTF16Text.detect)
        #expect((found.map { $0.bigEndian ? "big" : "little" } ?? "none") == order)
    }

    @Test("a file is read through ByteReader as UTF-8, in reads of any size", arguments: [1, 3, 64, 1 << 20])
    func reader(_ size: Int) throws {
        let lines = (0..<3000).map { "\u{1F3AC} Caf\u{E9} \($0)\t\(1900 + $0 % 200)\r\n" }.joined()
        let text = "\u{FEFF}" + Self.text + lines
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utf16-\(UUID().uuidString).txt").path
        _ = FileManager.default.createFile(atPath: path, contents: text.data(using: .utf16LittleEndian)!)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ByteReader(path: path, chunkSize: size)
        reader.encodingSniffed = false   // as the importer opens an input
        var out: [UInt8] = []
        while let byte = try reader.next() { out.append(byte) }
        #expect(reader.encodingNote == "UTF-16 (little-endian)")
        #expect(out == Array(text.utf8))
        #expect(reader.storedBytesConsumed == text.utf16.count * 2)
    }
}

import Foundation
import Testing
@testable import MovieCatalog

/// Windows-1252 input (Excel's "CSV" on Windows, IMDb's exports before 2017): told from UTF-8 by
/// its first bytes and read as UTF-8, across reads of any size.
@Suite struct Windows1252Tests {
    /// Every byte a file can hold, in Windows-1252, against Foundation's table (the five bytes it
    /// leaves undefined read as C1 controls, as Windows reads them).
    @Test("every byte turns into the UTF-8 of its Windows-1252 character")
    func everyByte() {
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        for byte in UInt8(0)...UInt8(255) {
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 3)
            defer { buffer.deallocate() }
            buffer[0] = byte
            let count = Windows1252.transcode(buffer, count: 1)
            let expected = undefined.contains(byte) ? String(Unicode.Scalar(byte)) : String(data: Data([byte]), encoding: .windowsCP1252)!
            #expect(Array(UnsafeBufferPointer(start: buffer, count: count)) == Array(expected.utf8), "byte \(byte)")
        }
    }

    @Test("told by its first bytes: not UTF-8, and no valid UTF-8 sequence among them", arguments: [
        ([0x41, 0xE9, 0x42] as [UInt8], true), ([0x93, 0x51, 0x94], true), ([0x41, 0x42], false),
        ([0x41, 0xC3, 0xA9], false), ([0xE9, 0x0A, 0xC3, 0xA9], false), ([0x41, 0xC3], false),
        ([0xED, 0xA0, 0x80], false), ([0xFF, 0xFE, 0x41, 0x00], false), ([0x41, 0xE9, 0x00], false),
    ])
    func detection(_ bytes: [UInt8], _ windows: Bool) {
        #expect(bytes.withUnsafeBufferPointer(Windows1252.looksLikeIt) == windows)
    }

    @Test("a file read in chunks of any size comes out as its UTF-8", arguments: [1, 2, 3, 5, 64, 1 << 20])
    func chunks(_ size: Int) throws {
        let text = "title,year\r\n" + (0..<400).map { "Caf\u{E9} \u{201C}n\u{B0}\($0)\u{201D} \u{20AC},\(1900 + $0 % 200)\r\n" }.joined()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cp1252-\(UUID().uuidString).csv").path
        _ = FileManager.default.createFile(atPath: path, contents: text.data(using: .windowsCP1252)!)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ByteReader(path: path, chunkSize: size)
        reader.encodingSniffed = false   // as the importer opens a CSV
        reader.mayBeWindows1252 = true
        var out: [UInt8] = []
        while let byte = try reader.next() { out.append(byte) }
        #expect(reader.isWindows1252)
        #expect(out == Array(text.utf8))
    }
}

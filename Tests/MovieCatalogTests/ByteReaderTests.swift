import Foundation
import Testing
@testable import MovieCatalog

@Suite("ByteReader: the text size known before reading")
struct ByteReaderTests {
    /// A gzip file's first two and last four bytes (ISIZE, little-endian), for `gzipTextBytes`.
    static func ends(modulo: UInt32) -> (head: [UInt8], tail: [UInt8]) {
        ([0x1F, 0x8B], (0..<4).map { UInt8(truncatingIfNeeded: modulo >> (8 * $0)) })
    }

    @Test("a gzip trailer's size, wrapped past 4 GiB only where the file could not hold less",
          arguments: [
              (modulo: UInt32(1_000), file: 500, text: 1_000),              // text larger than the file, as usual
              (modulo: 20, file: 40, text: 20),                             // a tiny file: its header outweighs the text
              (modulo: 0, file: 20, text: 0),                               // empty text
              (modulo: 10, file: 5_000_000_000, text: 10 + 2 << 32),        // over 8 GiB of text
              (modulo: 3_000_000_000, file: 1_000_000_000, text: 3_000_000_000),
          ])
    func trailer(modulo: UInt32, file: Int, text: Int) {
        let (head, tail) = Self.ends(modulo: modulo)
        #expect(ByteReader.gzipTextBytes(head: head, tail: tail, fileBytes: file) == text)
    }

    @Test("not gzip, or too short to be: no trailer size")
    func notGzip() {
        #expect(ByteReader.gzipTextBytes(head: Array("ti".utf8), tail: [1, 0, 0, 0], fileBytes: 100) == nil)
        let (head, tail) = Self.ends(modulo: 5)
        #expect(ByteReader.gzipTextBytes(head: head, tail: tail, fileBytes: 17) == nil)
    }

    @Test("a file's text size: its size when plain, the trailer's when gzipped", arguments: [false, true])
    func file(gzipped: Bool) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bytereader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = String(repeating: "tt0000001\t7.5\t1234\n", count: 5_000)
        var path = dir.appendingPathComponent("ratings.tsv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if gzipped {
            let gzip = try Process.run(URL(fileURLWithPath: "/bin/gzip"), arguments: [path])
            gzip.waitUntilExit()
            path += ".gz"
        }
        let reader = try ByteReader(path: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(reader.totalBytes == size)
        #expect(reader.textBytes == text.utf8.count)
        #expect(gzipped == (size < text.utf8.count / 10))
    }
}

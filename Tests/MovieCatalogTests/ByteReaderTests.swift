import Foundation
import Testing
@testable import MovieCatalog

@Suite("ByteReader: the text size known before reading")
struct ByteReaderTests {
    /// A gzip file's first two and last four bytes (ISIZE, little-endian), for `gzipTextBytes`.
    static func ends(modulo: UInt32) -> (head: [UInt8], tail: [UInt8]) {
        ([0x1F, 0x8B], (0..<4).map { UInt8(truncatingIfNeeded: modulo >> (8 * $0)) })
    }

    @Test("a gzip trailer's size, or a guess where it says less than the file could hold",
          arguments: [
              (modulo: UInt32(1_000), file: 500, text: 1_000),              // text larger than the file, as usual
              (modulo: 20, file: 40, text: 20),                             // a tiny file: its header outweighs the text
              (modulo: 0, file: 20, text: 0),                               // empty text
              (modulo: 10, file: 5_000_000_000, text: 10 + 2 << 32),        // over 8 GiB of text
              (modulo: 3_000_000_000, file: 1_000_000_000, text: 3_000_000_000),
              (modulo: 44, file: 60_456, text: 181_368),                    // members joined, a short last one: 3 times the file
              (modulo: 0, file: 1_000_000, text: 3_000_000),                // zeros after the stream
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

@Suite("ByteReader: a pipe read ahead")
struct ByteReaderPipeTests {
    /// A reader of a pipe that a thread fills with `bytes` and then closes.
    static func pipeReader(_ bytes: [UInt8]) throws -> ByteReader {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let writer = Thread {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if n <= 0 { break }
                    offset += n
                }
            }
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        return try ByteReader(path: "/dev/fd/\(readEnd)")
    }

    static func readAll(_ reader: ByteReader) throws -> [UInt8] {
        var all: [UInt8] = []
        while let byte = try reader.next() { all.append(byte) }
        return all
    }

    @Test("a pipe that trickles is read ahead for a second at most, and no byte is lost")
    func trickle() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let line = Array("A Movie,2001\n".utf8)
        let writer = Thread {
            for _ in 0..<30 {
                _ = line.withUnsafeBytes { write(writeEnd, $0.baseAddress!, $0.count) }
                usleep(100_000)
            }
            close(writeEnd)
        }
        writer.start()
        let reader = try ByteReader(path: "/dev/fd/\(readEnd)")
        close(readEnd)
        let started = Date()
        #expect(try !reader.readAhead(Importer.lookahead))
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(reader.textBytes == nil)
        #expect(try ByteReaderPipeTests.readAll(reader) == Array(repeating: line, count: 30).flatMap { $0 })
    }

    @Test("a pipe that ends within the bytes read ahead is sized; a longer one is not; no byte is lost either way",
          arguments: [100_000, 3 << 20])
    func readAhead(count: Int) throws {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let reader = try Self.pipeReader(bytes)
        #expect(reader.totalBytes == nil)
        let ended = try reader.readAhead(Importer.lookahead)
        #expect(ended == (count < Importer.lookahead))
        #expect(reader.textBytes == (ended ? count : nil))
        #expect(try Self.readAll(reader) == bytes)
    }
}

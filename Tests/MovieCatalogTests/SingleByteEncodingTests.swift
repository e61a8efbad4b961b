import Foundation
import Testing
@testable import MovieCatalog

/// One-byte encodings (Windows-1252: Excel's "CSV" on Windows, IMDb's exports before 2017; Mac
/// Roman: Excel for Mac's): told from UTF-8 and from each other by an input's first bytes, and
/// read as UTF-8 across reads of any size.
@Suite struct SingleByteEncodingTests {
    /// Every byte a file can hold in Windows-1252, against Foundation's table (the five bytes it
    /// leaves undefined read as C1 controls, as Windows reads them).
    @Test("every Windows-1252 byte turns into the UTF-8 of its character")
    func everyByte() {
        let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        for byte in UInt8(0)...UInt8(255) {
            let expected = undefined.contains(byte) ? String(Unicode.Scalar(byte)) : String(data: Data([byte]), encoding: .windowsCP1252)!
            #expect(Self.transcoded([byte], .windows1252) == Array(expected.utf8), "byte \(byte)")
        }
    }

    /// Mac Roman's bytes by Apple's table (Foundation on Linux reads .macOSRoman otherwise), a
    /// sample of each row: letters with accents, symbols, quotes, the euro sign and the Apple logo.
    @Test("Mac Roman bytes turn into the UTF-8 of their characters", arguments: [
        (0x41, "A"), (0x80, "\u{C4}"), (0x8D, "\u{E7}"), (0x8E, "\u{E9}"), (0x8F, "\u{E8}"), (0x9A, "\u{F6}"), (0x9F, "\u{FC}"),
        (0xA5, "\u{2022}"), (0xAA, "\u{2122}"), (0xB0, "\u{221E}"), (0xCA, "\u{A0}"), (0xD2, "\u{201C}"), (0xD3, "\u{201D}"),
        (0xD5, "\u{2019}"), (0xDB, "\u{20AC}"), (0xDE, "\u{FB01}"), (0xE7, "\u{C1}"), (0xF0, "\u{F8FF}"), (0xFF, "\u{2C7}"),
    ] as [(UInt8, String)])
    func macRoman(_ byte: UInt8, _ character: String) {
        #expect(Self.transcoded([byte], .macRoman) == Array(character.utf8))
    }

    static func transcoded(_ bytes: [UInt8], _ encoding: SingleByteEncoding) -> [UInt8] {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * bytes.count)
        defer { buffer.deallocate() }
        buffer.initialize(from: bytes, count: bytes.count)
        return Array(UnsafeBufferPointer(start: buffer, count: encoding.transcode(buffer, count: bytes.count)))
    }

    @Test("told by its first bytes: not UTF-8, no valid UTF-8 sequence among them; Mac Roman by lone CRs or bytes Windows-1252 lacks", arguments: [
        ([0x41, 0xE9, 0x42] as [UInt8], "windows1252"), ([0x93, 0x51, 0x94], "windows1252"), ([0x41, 0x42], "utf8"),
        ([0x41, 0xC3, 0xA9], "utf8"), ([0xE9, 0x0A, 0xC3, 0xA9], "utf8"), ([0x41, 0xC3], "utf8"),
        ([0xED, 0xA0, 0x80], "utf8"), ([0xFF, 0xFE, 0x41, 0x00], "utf8"), ([0x41, 0xE9, 0x00], "utf8"),
        ([0x41, 0x0D, 0x8E, 0x0D], "macRoman"), ([0x41, 0x0D, 0x0A, 0x8F], "macRoman"), ([0x41, 0x0D, 0x0A, 0xE9, 0x0D, 0x0A], "windows1252"),
        ([0x41, 0x0D, 0xE9, 0x0A], "windows1252"),
    ])
    func detection(_ bytes: [UInt8], _ expected: String) {
        let found = bytes.withUnsafeBufferPointer { SingleByteEncoding.detect($0) }
        #expect(found.map { "\($0)" } ?? "utf8" == expected)
    }

    @Test("a file read in chunks of any size comes out as its UTF-8", arguments: [1, 2, 3, 5, 64, 1 << 20], [false, true])
    func chunks(_ size: Int, _ mac: Bool) throws {
        let end = mac ? "\r" : "\r\n"
        let text = "title,year" + end + (0..<400).map { "Caf\u{E9} \u{201C}n\u{B0}\($0)\u{201D} \u{20AC},\(1900 + $0 % 200)" + end }.joined()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("single-byte-\(UUID().uuidString).csv").path
        // Mac Roman by hand: Foundation on Linux writes .macOSRoman otherwise.
        let macBytes: [Character: UInt8] = ["\u{E9}": 0x8E, "\u{201C}": 0xD2, "\u{B0}": 0xA1, "\u{201D}": 0xD3, "\u{20AC}": 0xDB]
        let bytes = mac ? text.flatMap { macBytes[$0].map { [$0] } ?? Array(String($0).utf8) } : [UInt8](text.data(using: .windowsCP1252)!)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ByteReader(path: path, chunkSize: size)
        reader.encodingSniffed = false   // as the importer opens a CSV
        reader.maySingleByte = true
        var out: [UInt8] = []
        while let byte = try reader.next() { out.append(byte) }
        #expect(reader.singleByte == (mac ? .macRoman : .windows1252))
        #expect(out == Array(text.utf8))
    }

    @Test("a first accent past the first 64 KiB still tells the encoding, from as many bytes as the first 64 KiB would: Windows-1252, Mac Roman (lines ending in CR), UTF-8, UTF-8 with a broken byte first, Windows-1252 at the very end",
          arguments: [1, 7, 64, 4096, 1 << 20], ["windows1252", "macRoman", "utf8", "brokenThenUTF8", "lastByte"])
    func lateAccent(_ size: Int, _ kind: String) throws {
        // 70,016 ASCII bytes (a multiple of 64: the accent begins a chunk), then accents.
        let end = kind == "macRoman" ? "\r" : "\n"
        let ascii = "title,year" + end + String(repeating: "A film of no accent at all,1999" + end, count: 2188).dropLast(10 + 1) + end
        let accents = (0..<50).map { "Caf\u{E9} \u{201C}\($0)\u{201D},2001" + end }.joined()
        let macBytes: [Character: UInt8] = ["\u{E9}": 0x8E, "\u{201C}": 0xD2, "\u{201D}": 0xD3]
        let bytes: [UInt8], expected: [UInt8], encoding: SingleByteEncoding?
        switch kind {
        case "windows1252":
            (bytes, expected, encoding) = ([UInt8]((ascii + accents).data(using: .windowsCP1252)!), Array((ascii + accents).utf8), .windows1252)
        case "macRoman":
            let mac = Array(ascii.utf8) + accents.flatMap { macBytes[$0].map { [$0] } ?? Array(String($0).utf8) }
            (bytes, expected, encoding) = (mac, Array((ascii + accents).utf8), .macRoman)
        case "brokenThenUTF8":
            // One broken byte, valid UTF-8 a little later: UTF-8, the broken row refused alone.
            let broken = Array(ascii.utf8) + Array("Bad ".utf8) + [0xE9] + Array(" one,2001\n".utf8) + Array(accents.utf8)
            (bytes, expected, encoding) = (broken, broken, nil)
        case "lastByte":
            // A lead byte cut by the end of the input begins no UTF-8.
            (bytes, expected, encoding) = (Array(ascii.utf8) + Array("2001,Caf".utf8) + [0xE9], Array((ascii + "2001,Caf\u{E9}").utf8), .windows1252)
        default:
            (bytes, expected, encoding) = (Array((ascii + accents).utf8), Array((ascii + accents).utf8), nil)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("late-accent-\(UUID().uuidString).csv").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ByteReader(path: path, chunkSize: size)
        reader.encodingSniffed = false
        reader.maySingleByte = true
        var out: [UInt8] = []
        while let byte = try reader.next() { out.append(byte) }
        #expect(reader.singleByte == encoding)
        let same = out == expected
        #expect(same, "\(String(decoding: out.suffix(40), as: UTF8.self))")
    }
}

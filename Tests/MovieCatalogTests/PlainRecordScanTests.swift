import Testing
import TestSupport
@testable import MovieCatalog

/// The one-pass read of plain CSV and TSV records (`DelimitedReader.scanPlain`) against the
/// byte-by-byte one (`scan`): the same records, lines, flags and errors.
@Suite struct PlainRecordScanTests {
    /// Inputs at the edges: line breaks of each kind (a CR as a chunk's last byte), quotes inside
    /// and around fields, NULs, blank and separator-only lines, a BOM, kinds left out mid-record.
    static let edges: [String] = [
        "a,b\r", "a,b\r\nc,d", "a,b\rc,d\n", "a,b\n\nc\n", ",,,\n,\n", "\u{FEFF}title,year\nx,1\n",
        "a\"b,c\n", "\"q\",x\n", "a,\"b\nc\",d\n", "a\u{0}b,c\n", "x,movie,z\ny,tvSeries,q\r\nw,movie,tv\n",
        "x\tmovie\tz\ny\ttvSeries\tq\r\nw\tmovie\ttv\n", "a\tb\tc\n\\N\t\\N\n", " \t \n", "é,日本語\r\nü\tø\n",
        "t,movie\n", "t,tvMovie,TV\n", "t,tvEpisode\n", "x,movie,tv,4\n",
    ]

    @Test("edge inputs read alike with and without the one-pass read", arguments: PlainRecordScanTests.edges, [1, 2, 3, 7, 64])
    func edgesAlike(_ text: String, chunkSize: Int) {
        // Even and odd lengths: with and without the TSV's and the kind's conditions.
        for bytes in [Array(text.utf8), Array(text.utf8) + [0x0A]] {
            for tsv in [false, true] {
                #expect(FuzzEntry.recordDifference(bytes, tsv: tsv, chunkSize: chunkSize) == nil, "\(bytes) \(tsv ? "TSV" : "CSV")")
            }
        }
    }

    @Test("other separators, and input read all at once, alike with and without the one-pass read",
          arguments: PlainRecordScanTests.edges, [UInt8(ascii: ";"), UInt8(ascii: "|"), UInt8(ascii: " ")])
    func separatorsAlike(_ text: String, separator: UInt8) {
        let bytes = Array(text.replacing(",", with: String(UnicodeScalar(separator))).utf8)
        for chunkSize in [nil, 3] as [Int?] {
            #expect(FuzzEntry.recordDifference(bytes, tsv: false, chunkSize: chunkSize, separator: separator) == nil, "\(bytes)")
            #expect(FuzzEntry.recordDifference(bytes + [0x0A], tsv: false, chunkSize: chunkSize, separator: separator) == nil, "\(bytes)")
        }
    }

    @Test("records at the record limit read alike with and without the one-pass read", arguments: [-8, 0, 1])
    func limitAlike(_ offset: Int) {
        // One field, and two (a separator's 8 bytes counted), about `ByteReader.maxRecordBytes` long.
        let long = [UInt8](repeating: 0x61, count: ByteReader.maxRecordBytes + offset)
        #expect(FuzzEntry.recordDifference(long + [0x0A, 0x62, 0x0A], tsv: false, chunkSize: nil) == nil)
        #expect(FuzzEntry.recordDifference(Array(long.dropLast(9)) + [0x09, 0x61, 0x0A], tsv: true, chunkSize: nil) == nil)
    }

    @Test("random inputs read alike with and without the one-pass read", arguments: 0..<48)
    func randomAlike(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let pieces = ["a", "movie", "tvMovie", "tvSeries", "TV", "é", "日", ",", ",", "\t", "\t", "\"", "\r", "\n", "\n", "\r\n",
                      "\u{0}", " ", "\\N", "12", "\u{FEFF}"]
        var bytes: [UInt8] = []
        for _ in 0..<(random.next() % 300) { bytes += Array(pieces[Int(random.next() % UInt64(pieces.count))].utf8) }
        for chunkSize in [1, 5, 64, 4096] {
            for tsv in [false, true] {
                #expect(FuzzEntry.recordDifference(bytes, tsv: tsv, chunkSize: chunkSize) == nil, "\(bytes) \(tsv ? "TSV" : "CSV")")
            }
        }
    }

    @Test("a plain record is read in one pass (a quote inside a field too); one with a quoted field is left to scan, nothing read")
    func takesPlainRecords() throws {
        let input = ByteReader(bytes: Array("a\"b,c,\r\n\"q\",d\n".utf8), name: "x.csv")
        let reader = DelimitedReader(input: input, dialect: .csv)
        var storage: [UInt8] = [], ends: [Int] = []
        #expect(try reader.scanPlain(into: &storage, fieldEnds: &ends) == true)
        #expect(storage == Array("a\"bc".utf8) && ends == [3, 4, 4])
        #expect(input.position == 8 && reader.line == 2)
        storage = []
        ends = []
        #expect(try reader.scanPlain(into: &storage, fieldEnds: &ends) == nil)
        #expect(storage.isEmpty && ends.isEmpty && input.position == 8 && reader.line == 2)
        #expect(try reader.next() && reader.strings() == ["q", "d"])
    }
}

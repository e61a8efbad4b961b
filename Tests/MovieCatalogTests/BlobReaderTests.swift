import Foundation
import Testing
@testable import SQLiteStore

/// `BlobReader`: the first bytes of a column's BLOBs, row after row, whatever rows are missing.
@Suite struct BlobReaderTests {
    @Test("the first bytes of each row's value and its length; a missing row, NULL or a number gives nil and the next row reads")
    func prefixes() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)")
        // Row 1 fills overflow pages (40,000 bytes on 4 KB pages); 2 is short; 3 empty; 4 NULL; 5 a number; 6 text.
        let long = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for (id, value): (Int64, SQLValue) in [(1, .blob(long)), (2, .blob([9, 8, 7])), (3, .blob([])), (4, .null), (5, .integer(12)), (6, .text("héllo"))] {
            try db.run("INSERT INTO t VALUES (?, ?)", [.integer(id), value])
        }
        let reader = BlobReader(db, table: "t", column: "b")
        let read = { (id: Int64, count: Int) -> ([UInt8], Int)? in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
            defer { buffer.deallocate() }
            return reader.readPrefix(id, into: buffer).map { (Array(buffer[0..<$0.read]), $0.length) }
        }
        try db.reading {
            for _ in 0..<2 {   // the second time round, every row is reached by reopening after a failure
                #expect(read(1, 5).map { $0.0 } == Array(long.prefix(5)) && read(1, 5)?.1 == 40_000)
                #expect(read(99, 5) == nil)
                #expect(read(2, 5).map { $0.0 } == [9, 8, 7] && read(2, 5)?.1 == 3)
                #expect(read(4, 5) == nil)
                #expect(read(3, 5).map { $0.0 } == [] && read(3, 5)?.1 == 0)
                #expect(read(5, 5) == nil)
                #expect(read(6, 2).map { $0.0 } == Array("héllo".utf8.prefix(2)) && read(6, 2)?.1 == 6)
                #expect(read(1, 100_000).map { $0.0 } == long)
            }
        }
    }
}

import Foundation
import Testing
@testable import SQLiteStore

/// `Database.withStepLimit`: a statement stopped after a budget of SQLite steps, and nothing else.
@Suite struct StepLimitTests {
    /// A statement of about `rows` rows' work (a recursive count).
    static let counting = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) SELECT count(*) FROM n"

    @Test("a statement past its budget is stopped and says so with nil; one within it answers; the read transaction stays open")
    func budget() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        try db.reading {
            let stopped = try db.withStepLimit(50_000) { _ in try db.intScalar(Self.counting, [.integer(1_000_000)]) }
            #expect(stopped == nil)
            #expect(db.inTransaction)
            let answered = try db.withStepLimit(50_000) { _ in try db.intScalar(Self.counting, [.integer(1_000)]) }
            #expect(answered == 1_000)
        }
        // The limit ends with the call: the same statement runs on after it.
        #expect(try db.intScalar(Self.counting, [.integer(1_000_000)]) == 1_000_000)
    }

    @Test("a page read from the file counts as its steps: a read of many pages runs out where its steps alone fit", arguments: [0, 1_000])
    func pageReads(readSteps: Int) throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        // Some 1,100 pages of 18 rows each, then read by a connection whose cache holds ten.
        try db.execute("CREATE TABLE t (b BLOB)")
        try db.execute("INSERT INTO t SELECT randomblob(200) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT i FROM n)")
        let reader = try Database(path: temp.path)
        try reader.execute("PRAGMA cache_size = 10")
        // Its steps: some 5 a row, 100,000 in all; its reads at 1,000 steps: five times the budget.
        let rows = try reader.withStepLimit(200_000, readSteps: readSteps) { _ in try reader.intScalar("SELECT count(*) FROM t WHERE length(b) > 0") }
        #expect(rows == (readSteps == 0 ? 20_000 : nil))
    }

    @Test("lifted on the first row, a statement runs to its end however long")
    func lifted() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let rows = try db.withStepLimit(50_000) { limit in
            try db.query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT i FROM n") { row in
                limit.lift()
                return try row.int64(0)
            }.count
        }
        #expect(rows == 200_000)
    }

    @Test("a limit inside another is refused, and the outer one still holds")
    func nested() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let outer = try db.withStepLimit(50_000) { _ in
            let error = #expect(throws: DatabaseError.self) { _ = try db.withStepLimit(Int.max / 2) { _ in 1 } }
            #expect(error?.code == .misuse)
            return try db.intScalar(Self.counting, [.integer(1_000_000)])
        }
        #expect(outer == nil)
    }

    @Test("an interrupt that is not the budget's is thrown, not taken for it")
    func otherInterrupt() throws {
        let temp = TempPath()
        let db = try Database(path: temp.path)
        let error = #expect(throws: DatabaseError.self) {
            _ = try db.withStepLimit(Int.max / 2) { _ in
                try db.forEachRow("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT i FROM n") { _ in
                    db.interrupt()
                }
            }
        }
        #expect(error?.code == .interrupt)
    }
}

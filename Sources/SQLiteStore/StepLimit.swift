import CSQLite

/// A budget of virtual-machine steps for the statements `Database.withStepLimit` runs.
public final class StepLimit {
    /// Steps left.
    fileprivate var remaining: Int
    /// Whether the limit still stops statements (`lift()` ends it).
    fileprivate var armed = true
    /// Whether the limit stopped a statement.
    public fileprivate(set) var ranOut = false
    /// The steps a page read from outside SQLite's cache counts as, and the connection's count of them.
    fileprivate let readSteps: Int, handle: OpaquePointer
    fileprivate var reads: Int32 = 0

    /// The budget the limit started with.
    private let steps: Int

    fileprivate init(steps: Int, readSteps: Int, handle: OpaquePointer) {
        remaining = steps
        self.steps = steps
        self.readSteps = readSteps
        self.handle = handle
        reads = pageReads()
    }

    /// The connection's page-cache misses so far: each a read from the file (a system call, and at
    /// random a page the file system may not hold either).
    fileprivate func pageReads() -> Int32 {
        var current: Int32 = 0, highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0)
        return current
    }

    /// The steps counted so far (reads included), to the last look at the budget.
    public var spent: Int { steps - remaining }

    /// Lets the statements run on, however long: once a first row has come, stopping would waste it.
    public func lift() { armed = false }
}

extension Database {
    /// How many steps pass between two looks at the budget (SQLite's progress handler).
    static let stepPeriod: Int32 = 1_000

    /// Runs `body`, whose statements fail once they have run `steps` virtual-machine steps in all
    /// (until it calls `lift()`), each page read from the file counted as `readSteps` more; nil
    /// when they did, so that the caller can run a surer plan.
    /// Any other failure (an interrupt of someone else's included) is thrown; so is a limit set
    /// inside another (SQLite keeps one progress handler a connection).
    public func withStepLimit<T>(_ steps: Int, readSteps: Int = 0, _ body: (StepLimit) throws -> T) throws -> T? {
        guard !stepLimited else { throw DatabaseError(code: SQLITE_MISUSE, message: "a step limit inside another") }
        stepLimited = true
        defer { stepLimited = false }
        let limit = StepLimit(steps: steps, readSteps: readSteps, handle: handle)
        sqlite3_progress_handler(handle, Database.stepPeriod, { context in
            let limit = Unmanaged<StepLimit>.fromOpaque(context!).takeUnretainedValue()
            guard limit.armed else { return 0 }
            limit.remaining -= Int(Database.stepPeriod)
            if limit.readSteps > 0 {
                let reads = limit.pageReads()
                // The count is an Int32 that SQLite may wrap, or mask to 31 bits: the difference, so masked.
                limit.remaining -= Int((reads &- limit.reads) & Int32.max) * limit.readSteps
                limit.reads = reads
            }
            guard limit.remaining <= 0 else { return 0 }
            limit.ranOut = true
            return 1
        }, Unmanaged.passUnretained(limit).toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        do {
            return try withExtendedLifetime(limit) { try body(limit) }
        } catch let error as DatabaseError where error.code == .interrupt && limit.ranOut {
            return nil
        }
    }
}

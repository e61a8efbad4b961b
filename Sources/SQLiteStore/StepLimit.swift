import CSQLite

/// A budget of virtual-machine steps for the statements `Database.withStepLimit` runs.
public final class StepLimit {
    /// Steps left.
    fileprivate var remaining: Int
    /// Whether the limit still stops statements (`lift()` ends it).
    fileprivate var armed = true
    /// Whether the limit stopped a statement.
    public fileprivate(set) var ranOut = false

    fileprivate init(steps: Int) { remaining = steps }

    /// Lets the statements run on, however long: once a first row has come, stopping would waste it.
    public func lift() { armed = false }
}

extension Database {
    /// How many steps pass between two looks at the budget (SQLite's progress handler).
    static let stepPeriod: Int32 = 1_000

    /// Runs `body`, whose statements fail once they have run `steps` virtual-machine steps in all
    /// (until it calls `lift()`); nil when they did, so that the caller can run a surer plan.
    /// Any other failure (an interrupt of someone else's included) is thrown; so is a limit set
    /// inside another (SQLite keeps one progress handler a connection).
    public func withStepLimit<T>(_ steps: Int, _ body: (StepLimit) throws -> T) throws -> T? {
        guard !stepLimited else { throw DatabaseError(code: SQLITE_MISUSE, message: "a step limit inside another") }
        stepLimited = true
        defer { stepLimited = false }
        let limit = StepLimit(steps: steps)
        sqlite3_progress_handler(handle, Database.stepPeriod, { context in
            let limit = Unmanaged<StepLimit>.fromOpaque(context!).takeUnretainedValue()
            guard limit.armed else { return 0 }
            limit.remaining -= Int(Database.stepPeriod)
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

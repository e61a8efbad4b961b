import MovieDomain
import SQLiteStore

/// A walk in sort order, given up past the rows the next cheapest plan would read: the walk's
/// estimate is the sample's guess at how densely matches lie along the order, which a set that
/// the sample barely sees can miss by any factor, while a plan from an index range reads a
/// range it knows. Run as `Catalog.running(_:)`: at worst twice the surer plan's work.
public final class WalkLimit: Sendable {
    /// The rows (the planner's cost units) the walk may read.
    public let rows: Double
    /// The plan run instead once it has.
    public let instead: QueryPlan

    init(rows: Double, instead: QueryPlan) {
        self.rows = rows
        self.instead = instead
    }

    /// SQLite's virtual-machine steps for a row walked: about 7 for a row read and tested
    /// (callgrind and `.stats` at 1M), more where a row passes tests or fills the page.
    static let stepsPerRow = 10.0
    /// Steps any page takes besides its walk (its movies' genre lists, the sort of its rows).
    static let pageSteps = 20_000.0

    /// The steps the walk may run.
    public var steps: Int {
        let steps = WalkLimit.pageSteps + rows * WalkLimit.stepsPerRow
        return steps < Double(Int.max / 2) ? Int(steps) : Int.max / 2
    }
}

extension Catalog {
    /// Runs `body` on `plan`; when the plan is a limited walk that reaches its limit before its
    /// first row, on the plan it names instead. `body` runs the plan's statement and calls
    /// `arrived()` on its first row (from then on the statement runs to its end).
    func running<T>(_ plan: QueryPlan, _ body: (_ plan: QueryPlan, _ arrived: () -> Void) throws -> T) throws -> T {
        guard let limit = plan.walkLimit else { return try body(plan) {} }
        if let result = try db.withStepLimit(limit.steps, { stepLimit in try body(plan) { stepLimit.lift() } }) {
            return result
        }
        return try running(limit.instead, body)
    }
}

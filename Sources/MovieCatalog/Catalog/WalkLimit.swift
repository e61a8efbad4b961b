import MovieDomain
import SQLiteStore

/// A walk in sort order, given up past the rows the next cheapest plan would read: the walk's
/// estimate is the sample's guess at how densely matches lie along the order, which a set that
/// the sample barely sees can miss by any factor, while a plan from an index range reads a
/// range it knows. Run as `Catalog.running(_:)`: at worst twice the surer plan's work.
public final class WalkLimit: Sendable {
    /// The next plan's estimated cost (the planner's rows: a row scanned counts 0.15).
    public let rows: Double
    /// The SQLite steps the walk may run before its first row.
    public let steps: Int
    /// The plan run instead once it has.
    public let instead: QueryPlan

    /// A walk given `steps` (`steps(rows:wanted:page:)` of the next plan's `rows`), then `instead`.
    init(rows: Double, steps: Int, instead: QueryPlan) {
        self.rows = rows
        self.steps = steps
        self.instead = instead
    }

    /// The steps of a walk for `wanted` rows from the first, `page` of them listed, given the work of `rows`.
    static func steps(rows: Double, wanted: Double, page: Double) -> Int {
        let steps = pageSteps + rows * stepsPerRow + wanted * wantedRowSteps + page * pageRowSteps
        return steps < Double(Int.max / 2) ? Int(steps) : Int.max / 2
    }

    /// SQLite's virtual-machine steps (`.stats`, a progress handler, at 1M movies): 5 to 8 for a
    /// row walked past (11 with three title tests); some 23 for a row kept and sorted; some 95
    /// for a row of the page (its movie, its genre list, the page's sort); 20,000 to start.
    static let stepsPerRow = 10.0, wantedRowSteps = 30.0, pageRowSteps = 120.0, pageSteps = 20_000.0
}

extension Catalog {
    /// Runs `body` on `plan`; when the plan is a limited walk that reaches its limit before its
    /// first row, on the plan it names instead. `body` runs the plan's statement and calls
    /// `arrived()` on its first row (from then on the statement runs to its end). Returns the
    /// result and the plan that gave it.
    func running<T>(_ plan: QueryPlan, _ body: (_ plan: QueryPlan, _ arrived: () -> Void) throws -> T) throws -> (T, ran: QueryPlan) {
        guard let limit = plan.walkLimit else { return (try body(plan) {}, plan) }
        // The first row comes only once the walk is done: its page is sorted again, by the
        // statement's outer ORDER BY, as it joins movies (`PlanEstimateTests.walkGivesUp`).
        if let result = try db.withStepLimit(limit.steps, { stepLimit in try body(plan) { stepLimit.lift() } }) {
            return (result, plan)
        }
        return try running(limit.instead, body)
    }
}

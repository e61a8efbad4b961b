import MovieDomain
import SQLiteStore

/// A walk in sort order, given up past the rows the next cheapest plan would read: the walk's
/// estimate is the sample's guess at how densely matches lie along the order, which a set that
/// the sample barely sees can miss by any factor, while a plan from an index range reads a
/// range it knows. Run as `Catalog.running(_:)`: at worst the walk's budget (at most the surer
/// plan's work, or twice what its look for the page's end spent) and then that plan.
public final class WalkLimit: Sendable {
    /// The next plan's estimated cost (the planner's rows: a row scanned counts 0.15).
    public let rows: Double
    /// The SQLite steps the walk may run before its first row.
    public let steps: Int
    /// The plan run instead once it has.
    public let instead: QueryPlan

    /// A walk given `steps` (`steps(rows:walk:seen:wanted:page:)` of the next plan's `rows`), then `instead`.
    init(rows: Double, steps: Int, instead: QueryPlan) {
        self.rows = rows
        self.steps = steps
        self.instead = instead
    }

    /// The steps of a walk estimated at `walk` rows, for `wanted` rows from the first, `page` of
    /// them listed, when the next plan's work is `rows`; `seen`: whether the sample saw a match.
    static func steps(rows: Double, walk: Double, seen: Bool, wanted: Double, page: Double) -> Int {
        let share = seen ? min(1, max(leastShare, 2 * walk / max(rows, 1))) : unseenShare
        let steps = pageSteps + rows * share * rowSteps + wanted * wantedRowSteps + page * pageRowSteps
        return steps < Double(Int.max / 2) ? Int(steps) : Int.max / 2
    }

    /// The steps of a walk whose look for its page's end spent `spent`: twice those, and its page's.
    static func steps(afterLook spent: Int, wanted: Double, page: Double) -> Int {
        let steps = 2 * Double(spent) + Double(Self.steps(rows: 0, walk: 0, seen: true, wanted: wanted, page: page))
        return steps < Double(Int.max / 2) ? Int(steps) : Int.max / 2
    }

    /// SQLite's virtual-machine steps, and page reads from the file counted as `readSteps` each
    /// (at 10M movies a read costs 32 to 75 steps: least squares over 12 walks that ran out, 44
    /// ns a step and 1.42 µs a read; the shell's `.stats` of a walk and a scan, 21 ns and 1.59
    /// µs; a walk of the title index, which reads few pages, 15 ns a step; at 1M a read is some
    /// 0.9 µs), so 32, the low end: a read weighed too high gives up walks that were right
    /// (`title:the year:1961.. --limit 20 --sort rating --offset 20000` at 1M, two reads a row:
    /// 0.19 -> 0.51 s at 64). A planner's row costs 0.67 µs in a scan and 0.75 to 0.8 µs from
    /// the genre index (a review's timings at 10M), so 36 steps. A row kept and sorted, 30; a row of the page (its movie, genre list
    /// and sort, two reads), 250; 20,000 to start. Counted in steps alone at ten a row, a walk
    /// that read a page a row (the sort index's order, each movie's title looked up) ran 3 s at
    /// 10M where the scan after it took 1.2 s.
    static let rowSteps = 36.0, wantedRowSteps = 30.0, pageRowSteps = 250.0, pageSteps = 20_000.0
    /// A walk gets twice its estimate, at least this share of the next plan's work and at most
    /// all of it: one past twice its estimate is misjudged, and costs at most 1.5 times the next
    /// plan when its estimate was low, twice when it was close.
    static let leastShare = 0.5
    /// A walk for a set the sample saw no match of gets this share: its estimate is a guess
    /// (half a sampled match), and such sets are the ones far rarer than guessed.
    static let unseenShare = 0.25
    /// The steps a page read counts as.
    public static let readSteps = 32

    /// `body` under a walk's budget of `steps` (reads counted); nil when it ran out.
    static func within<T>(_ db: Database, steps: Int, _ body: (StepLimit) throws -> T) throws -> T? {
        try db.withStepLimit(steps, readSteps: readSteps, body)
    }
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
        if let result = try WalkLimit.within(db, steps: limit.steps, { stepLimit in try body(plan) { stepLimit.lift() } }) {
            return (result, plan)
        }
        return try running(limit.instead, body)
    }
}

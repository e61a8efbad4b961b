import MovieDomain
import SQLiteStore
/// A piece of SQL together with the values of its `?` placeholders, in order.
public struct SQLFragment: Equatable, Sendable {
    /// The SQL text, with `?` placeholders.
    public var sql: String
    /// The values of the placeholders, in order.
    public var bindings: [SQLValue]

    /// Creates a fragment from SQL text and its bindings.
    public init(_ sql: String, _ bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    /// `?, ?, ?` with one binding per value, for `IN (...)`.
    public static func list(_ values: [SQLValue]) -> SQLFragment {
        SQLFragment(Array(repeating: "?", count: values.count).joined(separator: ", "), values)
    }

    /// Joins fragments with a separator (`" OR "`, `" AND "`), concatenating bindings in order.
    public static func join(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(parts.map(\.sql).joined(separator: separator), parts.flatMap(\.bindings))
    }

    /// The parts OR-ed, nested in halves past 32 of them: SQLite parses `a OR b OR c ...` into a
    /// tree as deep as the list, and refuses one deeper than 1,000; nesting keeps it shallow (the
    /// planner splits nested ORs as flat ones).
    public static func or(_ parts: [SQLFragment]) -> SQLFragment {
        if parts.count <= 32 { return join(parts, separator: " OR ") }
        let half = parts.count / 2
        return join([or(Array(parts[..<half])).parenthesized, or(Array(parts[half...])).parenthesized], separator: " OR ")
    }

    /// The fragment after fixed SQL text.
    public func prefixed(_ text: String) -> SQLFragment { SQLFragment(text + sql, bindings) }

    /// The fragment wrapped in parentheses.
    public var parenthesized: SQLFragment { SQLFragment("(" + sql + ")", bindings) }

    /// Appends another fragment.
    public static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.bindings + rhs.bindings)
    }
}

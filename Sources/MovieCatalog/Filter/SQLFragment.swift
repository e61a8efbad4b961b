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

    /// The fragment after fixed SQL text.
    public func prefixed(_ text: String) -> SQLFragment { SQLFragment(text + sql, bindings) }

    /// The fragment wrapped in parentheses.
    public var parenthesized: SQLFragment { SQLFragment("(" + sql + ")", bindings) }

    /// Appends another fragment.
    public static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.bindings + rhs.bindings)
    }
}

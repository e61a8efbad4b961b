/// A value bound to a `?` parameter or read from a column.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value as it would appear in SQL, for `--explain` output only (never executed).
    public var description: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .text(let value): return "'" + value.replacing("'", with: "''") + "'"
        case .blob(let bytes): return "x'" + bytes.map { String($0 >> 4, radix: 16) + String($0 & 15, radix: 16) }.joined() + "'"
        }
    }
}

/// Types that convert to a bound SQL value.
public protocol SQLValueConvertible {
    /// The value to bind.
    var sqlValue: SQLValue { get }
}

extension String: SQLValueConvertible { public var sqlValue: SQLValue { .text(self) } }
extension Int: SQLValueConvertible { public var sqlValue: SQLValue { .integer(Int64(self)) } }
extension Int64: SQLValueConvertible { public var sqlValue: SQLValue { .integer(self) } }
extension Double: SQLValueConvertible { public var sqlValue: SQLValue { .real(self) } }
extension SQLValue: SQLValueConvertible { public var sqlValue: SQLValue { self } }
extension Optional: SQLValueConvertible where Wrapped: SQLValueConvertible {
    /// The wrapped value's SQL value, or NULL when nil.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

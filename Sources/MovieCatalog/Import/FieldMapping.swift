/// Which column (or key) feeds which field, decided from a header and the `--map` overrides.
public struct FieldMapping: Sendable {
    /// `--map` overrides: field -> column name.
    public let overrides: [MovieField: String]
    private let fieldByKey: [String: MovieField]

    /// Creates a mapping from the built-in aliases plus `--map` overrides.
    public init(overrides: [MovieField: String] = [:]) {
        self.overrides = overrides
        var byKey: [String: MovieField] = [:]
        for field in MovieField.allCases where overrides[field] == nil {
            for alias in field.aliases { byKey[alias.lowercased()] = field }
        }
        // An override wins over every alias, including another field's.
        for (field, column) in overrides { byKey[column.lowercased()] = field }
        fieldByKey = byKey
    }

    /// Parses `--map field=column` values; a bad one is a usage error naming it.
    public static func parseOverrides(_ values: [String]) throws -> [MovieField: String] {
        var result: [MovieField: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="),
                  let field = MovieField(named: String(value[..<equals])),
                  !value[value.index(after: equals)...].isEmpty else {
                let fields = MovieField.allCases.map(\.name).joined(separator: ", ")
                throw CatalogError(.usage, "invalid --map '\(value)': expected field=column with field one of \(fields)")
            }
            let column = String(value[value.index(after: equals)...])
            if let other = result.first(where: { $0.value.lowercased() == column.lowercased() && $0.key != field }) {
                throw CatalogError(.usage, "invalid --map '\(value)': column '\(column)' already feeds \(other.key.name)")
            }
            result[field] = column
        }
        return result
    }

    /// The field a column or key feeds, if any.
    public func field(for key: String) -> MovieField? { fieldByKey[key.lowercased()] }

    /// Resolves a header: the column index of each field, and the ignored columns.
    /// A missing title column, or a `--map` column the header lacks, is a data error.
    public func resolve(header: [String], source: String) throws -> (columns: [MovieField: Int], ignored: [String]) {
        var columns: [MovieField: Int] = [:]
        var ignored: [String] = []
        for (index, name) in header.enumerated() {
            let key = name.trimmingWhitespace()
            if let field = field(for: key), columns[field] == nil {
                columns[field] = index
            } else {
                ignored.append(key)
            }
        }
        let found = header.map { "'\($0)'" }.joined(separator: ", ")
        for (field, column) in overrides where columns[field] == nil {
            throw CatalogError(.dataError, "\(source): --map \(field.name)=\(column): no column '\(column)'; the columns are \(found)")
        }
        guard columns[.title] != nil else {
            throw CatalogError(.dataError, "\(source): no title column (title or primaryTitle, or use --map title=COLUMN); the columns are \(found)")
        }
        return (columns, ignored)
    }
}

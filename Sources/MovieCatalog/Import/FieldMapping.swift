/// The movie fields an import can fill.
public enum ImportField: String, CaseIterable, Sendable {
    case title, year, genres, rating, duration, certification

    /// Column names and JSON keys that mean this field (compared ignoring case).
    public var aliases: [String] {
        switch self {
        case .title: return ["title", "primaryTitle"]
        case .year: return ["year", "startYear", "release_year"]
        case .genres: return ["genres", "genre"]
        case .rating: return ["rating", "averageRating", "imdb_rating", "score"]
        case .duration: return ["duration", "runtime", "runtimeMinutes", "length", "duration_minutes"]
        case .certification: return ["certification", "mpaa", "certificate", "rated"]
        }
    }
}

/// Which column (or key) feeds which field, decided from a header and the `--map` overrides.
public struct FieldMapping: Sendable {
    /// `--map` overrides: field -> column name.
    public let overrides: [ImportField: String]
    private let fieldByKey: [String: ImportField]

    /// Creates a mapping from the built-in aliases plus `--map` overrides.
    public init(overrides: [ImportField: String] = [:]) {
        self.overrides = overrides
        var byKey: [String: ImportField] = [:]
        for field in ImportField.allCases where overrides[field] == nil {
            for alias in field.aliases { byKey[alias.lowercased()] = field }
        }
        // An override wins over every alias, including another field's.
        for (field, column) in overrides { byKey[column.lowercased()] = field }
        fieldByKey = byKey
    }

    /// Parses `--map field=column` values; a bad one is a usage error naming it.
    public static func parseOverrides(_ values: [String]) throws -> [ImportField: String] {
        var result: [ImportField: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="),
                  let field = ImportField(rawValue: value[..<equals].lowercased()),
                  !value[value.index(after: equals)...].isEmpty else {
                let fields = ImportField.allCases.map(\.rawValue).joined(separator: ", ")
                throw CatalogError(.usage, "invalid --map '\(value)': expected field=column with field one of \(fields)")
            }
            let column = String(value[value.index(after: equals)...])
            if let other = result.first(where: { $0.value.lowercased() == column.lowercased() && $0.key != field }) {
                throw CatalogError(.usage, "invalid --map '\(value)': column '\(column)' already feeds \(other.key.rawValue)")
            }
            result[field] = column
        }
        return result
    }

    /// The field a column or key feeds, if any.
    public func field(for key: String) -> ImportField? { fieldByKey[key.lowercased()] }

    /// Resolves a header: the column index of each field, and the ignored columns.
    /// A missing title column, or a `--map` column the header lacks, is a data error.
    public func resolve(header: [String], source: String) throws -> (columns: [ImportField: Int], ignored: [String]) {
        var columns: [ImportField: Int] = [:]
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
            throw CatalogError(.dataError, "\(source): --map \(field.rawValue)=\(column): no column '\(column)'; the columns are \(found)")
        }
        guard columns[.title] != nil else {
            throw CatalogError(.dataError, "\(source): no title column (title or primaryTitle, or use --map title=COLUMN); the columns are \(found)")
        }
        return (columns, ignored)
    }
}

import MovieDomain
import SQLiteStore
/// Which column (or key) feeds which field, decided from a header and the `--map` overrides.
public struct FieldMapping: Sendable {
    /// `--map` overrides: field -> column name (empty: the field is read from no column).
    public let overrides: [MovieField: String]
    private let fieldByKey: [String: MovieField]
    /// How close a key is to its field (lower wins when two columns feed one field): the order of
    /// the layout's columns, else the field's name first and then its aliases in order.
    private let rankByKey: [String: Int]
    /// A layout's columns as it spells them: of two keys differing in case alone, the one so
    /// spelled is read (Plex's `Guid` list of ids over its `guid`, a `plex://` address).
    private let spelled: Set<String>

    /// Creates a mapping from a layout's columns (else the built-in aliases) plus `--map` overrides.
    public init(overrides: [MovieField: String] = [:], layout: ImportLayout? = nil) {
        self.overrides = overrides
        var byKey: [String: MovieField] = [:]
        var rank: [String: Int] = [:]
        if let layout {
            for (index, (column, field)) in layout.mapping.enumerated() where overrides[field] == nil {
                byKey[Self.folded(column)] = field
                rank[Self.folded(column)] = index
            }
        } else {
            for field in MovieField.allCases where overrides[field] == nil {
                for (index, alias) in field.aliases.enumerated() {
                    byKey[Self.folded(alias)] = field
                    rank[Self.folded(alias)] = index
                }
            }
        }
        // An override wins over every alias, including another field's.
        for (field, column) in overrides where !column.isEmpty {
            byKey[Self.folded(column)] = field
            rank[Self.folded(column)] = -1
        }
        fieldByKey = byKey
        rankByKey = rank
        spelled = Set(layout?.mapping.map(\.column) ?? [])
    }

    /// Parses `--map field=column` values; a bad one is a usage error naming it.
    public static func parseOverrides(_ values: [String]) throws -> [MovieField: String] {
        var result: [MovieField: String] = [:]
        for value in values {
            guard let equals = value.firstIndex(of: "="),
                  let field = MovieField(named: String(value[..<equals])) else {
                let fields = MovieField.allCases.map(\.name).joined(separator: ", ")
                throw CatalogError(.usage, "invalid --map \(value.quotedForMessage): expected field=column with field one of \(fields) (field= reads it from no column)")
            }
            // `rating=`: no column feeds the field (a list's own `Rating` is the user's stars).
            let column = String(value[value.index(after: equals)...])
            if column.isEmpty && field == .title {
                throw CatalogError(.usage, "invalid --map \(value.quotedForMessage): every row needs a title, so some column must feed it")
            }
            if !column.isEmpty, let other = result.first(where: { $0.value.lowercased() == column.lowercased() && $0.key != field }) {
                throw CatalogError(.usage, "invalid --map \(value.quotedForMessage): column \(column.quotedForMessage) already feeds \(other.key.name)")
            }
            result[field] = column
        }
        return result
    }

    /// A column or key as names are compared: any case, `_` as a space (`movie_title`, `Movie
    /// Title` and `MOVIE TITLE` are one name, as datasets and sheets write it).
    static func folded(_ name: String) -> String {
        let lower = name.lowercased()
        guard lower.utf8.contains(0x5F) else { return lower }
        return String(decoding: lower.utf8.map { $0 == 0x5F ? 0x20 : $0 }, as: UTF8.self)
    }

    /// The field a column or key feeds, if any.
    public func field(for key: String) -> MovieField? { fieldByKey[Self.folded(key)] }

    /// The field a JSON object feeds: only one named for it, as itself or by `--map` (an object
    /// under an alias, Trakt's `movie`, holds the record's fields, not one).
    func field(forObject key: String) -> MovieField? {
        // Rank 0: the field's own name (or a layout's first column); -1: a `--map` column.
        guard let field = field(for: key), rankByKey[Self.folded(key), default: .max] <= 0 else { return nil }
        return field
    }

    /// Whether `key` feeds `field` rather than `other`, a key read for it so far: a `--map`
    /// column named exactly so, else the field's own name over an alias (`genres` over
    /// `genre`), else the first.
    func prefers(_ key: String, over other: String, for field: MovieField) -> Bool {
        if let column = overrides[field], other == column || key == column { return key == column && other != column }
        let rank = rankByKey[Self.folded(key), default: .max], otherRank = rankByKey[Self.folded(other), default: .max]
        if rank == otherRank && key != other { return spelled.contains(key) && !spelled.contains(other) }
        return rank < otherRank
    }
}

import MovieDomain
import SQLiteStore
/// `--layout`: recognise known layouts from the header, force one, or use plain aliases only.
public enum LayoutChoice: Sendable, Equatable {
    case automatic
    case none
    case forced(ImportLayout)
}

/// One `--where COLUMN=VALUE[,VALUE...]`: the column keeps one of the values (`*`: any).
public struct WhereClause: Sendable, Equatable {
    /// The column (header name or JSON key), any case.
    public let column: String
    /// The values it may hold (ASCII case ignored), or nil for `*` (every value).
    public let values: [String]?

    /// Parses `--where` values; a bad one is a usage error naming it.
    public static func parse(_ texts: [String]) throws -> [WhereClause] {
        try texts.map { text in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
                  !text[text.index(after: equals)...].isEmpty else {
                throw CatalogError(.usage, "invalid --where \(text.quotedForMessage): expected COLUMN=VALUE[,VALUE...] or COLUMN=*")
            }
            let column = String(text[..<equals]).trimmingWhitespace()
            let rest = String(text[text.index(after: equals)...])
            return WhereClause(column: column, values: rest == "*" ? nil : rest.split(separator: ",").map(String.init))
        }
    }
}

/// A condition on one input column: its value is one of `values`, ASCII case ignored (or, when
/// `excludes`, none of them).
struct RowCondition: Sendable {
    /// The column's index in the header (delimited input).
    let column: Int
    /// The column's name as the input writes it (or the JSON key).
    let name: String
    /// The allowed values as given.
    let values: [String]
    /// The allowed values' bytes, ASCII lower-cased.
    private let lowered: [[UInt8]]
    /// Whether `--where` gave it (else it is a layout's default, or `RowKinds`').
    let given: Bool
    /// Whether the values are those left out (`RowKinds`: a list's shows and episodes).
    let excludes: Bool

    init(column: Int, name: String, values: [String], given: Bool = true, excludes: Bool = false) {
        self.column = column
        self.name = name
        self.values = values
        self.given = given
        self.excludes = excludes
        lowered = values.map { Array($0.utf8).map(RowCondition.lower) }
    }

    /// Whether a cell's bytes are one of the values (none of them, spaces around ignored, when
    /// `excludes`).
    @inline(__always)
    func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bytes = bytes
        if excludes {
            while let first = bytes.first, first == 0x20 { bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst()) }
            while let last = bytes.last, last == 0x20 { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        }
        return excludes != lowered.contains { value in
            value.count == bytes.count && zip(value, bytes).allSatisfy { $0 == RowCondition.lower($1) }
        }
    }

    /// Whether a text is one of the values.
    func accepts(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { accepts($0) }
    }

    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}

/// How one input is read: the layout, which column feeds which field, which rows are kept.
struct ImportPlan {
    /// The recognised or forced layout, if any.
    let layout: ImportLayout?
    /// Column (or key) -> field.
    let mapping: FieldMapping
    /// The rows kept: all conditions hold.
    var conditions: [RowCondition]
    /// An input with IMDb ids and no titles only updates stored movies.
    let updateOnly: Bool
    /// Whether no column or key (of the first record's) feeds the year, and neither a layout
    /// was forced or turned off (`--layout none` reads the cells as they are) nor `--map year=`
    /// said there is none.
    var noYear = false
    /// A `name` column or key, which is no title (SPEC 4) but which a message offers to read as one.
    var nameColumn: String? = nil

    /// The layout's value rules; without a layout or a year, a title's trailing `(1995)` gives it.
    var rules: [ImportLayout.ValueRule] { layout?.rules ?? (noYear && !updateOnly ? [.yearAfterTitle] : []) }
    /// The rules that need the whole row (a delimited row reads the others cell by cell).
    var rowRules: [ImportLayout.ValueRule] { rules.filter { if case .zeroIsUnknown = $0 { false } else { true } } }
    /// The fields whose `0` means none known, a bit each by `MovieField.rawValue`.
    var zeroIsUnknown: Int { rules.reduce(0) { if case .zeroIsUnknown(let field) = $1 { $0 | 1 << field.rawValue } else { $0 } } }

    /// The field every row needs: the title, or the IMDb id of an update-only input.
    var required: MovieField { updateOnly ? .imdbID : .title }

    /// `IMDb title.basics layout; where titleType=movie,tvMovie isAdult=0`, or nil when neither applies.
    var note: String? {
        var parts: [String] = []
        if let layout { parts.append(layout.title) }
        // A list of ids and values: said, since a title column under an unknown name looks alike.
        if updateOnly && layout == nil { parts.append("no title column: updates the movies the catalog has by IMDb id (--map title=\(nameColumn ?? "COLUMN") adds movies)") }
        let kept = conditions.filter { !$0.excludes }
        if !kept.isEmpty {
            parts.append("where " + kept.map { "\($0.name)=\($0.values.map { $0.isEmpty ? "(empty)" : $0 }.joined(separator: ","))" }.joined(separator: " "))
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// The layout for `header` (the column names, or the keys of a JSON input's first record).
    static func layout(for header: [String], choice: LayoutChoice) -> ImportLayout? {
        switch choice {
        case .none: return nil
        case .forced(let layout): return layout
        case .automatic: return ImportLayout.recognise(header)
        }
    }

    /// The conditions in force: the layout's defaults, each column's replaced by `--where`, `*` lifting it.
    static func clauses(layout: ImportLayout?, wheres: [WhereClause]) -> [(column: String, values: [String], given: Bool)] {
        var result: [(column: String, values: [String], given: Bool)] = []
        // Columns compare as everywhere: any case, `_` as a space (`title_type` is `Title Type`).
        for (column, values) in layout?.defaultWhere ?? [] where !wheres.contains(where: { FieldMapping.folded($0.column) == FieldMapping.folded(column) }) {
            result.append((column, values, false))
        }
        // Repeating a column adds values to it; `*` anywhere lifts it.
        var order: [String] = []
        var byColumn: [String: (name: String, values: [String]?)] = [:]
        for clause in wheres {
            let key = FieldMapping.folded(clause.column)
            if byColumn[key] == nil { order.append(key); byColumn[key] = (clause.column, []) }
            if let values = clause.values, let existing = byColumn[key]?.values {
                byColumn[key] = (byColumn[key]!.name, existing + values)
            } else {
                byColumn[key] = (byColumn[key]!.name, nil)
            }
        }
        for key in order { if let values = byColumn[key]!.values { result.append((byColumn[key]!.name, values, true)) } }
        return result
    }

    /// Names for a message, quoted: the first 20, then how many more.
    static func quotedList(_ names: [String]) -> String { ImportReport.names(names, shown: \.quotedForMessage) }

    /// The plan for a delimited input's header; `source` is `file:line` for messages.
    static func make(header rawHeader: [String], source: String, options: ImportOptions) throws -> (plan: ImportPlan, columns: [MovieField: Int], ignored: [String]) {
        let header = rawHeader.map { $0.trimmingWhitespace() }
        let found = ImportPlan.quotedList(rawHeader)
        var layout = Self.layout(for: header, choice: options.layout)
        // links.csv's ids, read by movieId, for a movies.csv with no IMDb id of its own.
        if layout?.name == "movielens", !options.movieLensLinks.isEmpty, options.mapping.overrides[.imdbID] == nil,
           !header.contains(where: { FieldMapping(overrides: options.mapping.overrides, layout: layout).field(for: $0) == .imdbID }) {
            layout = layout?.linked(options.movieLensLinks)
        }
        let mapping = FieldMapping(overrides: options.mapping.overrides, layout: layout)
        var conditions: [RowCondition] = []
        for (column, values, given) in clauses(layout: layout, wheres: options.wheres) {
            // A column named exactly as given, else one differing in case.
            // (Names compare as for fields: any case, `_` as a space.)
            guard let index = header.firstIndex(of: column) ?? header.firstIndex(where: { FieldMapping.folded($0) == FieldMapping.folded(column) }) else {
                // A layout's default for a column this file lacks cannot apply; a --where must.
                if !given { continue }
                throw CatalogError(.dataError, "\(source): --where \(column): no column \(column.quotedForMessage); the columns are \(found)")
            }
            conditions.append(RowCondition(column: index, name: header[index], values: values))
        }
        // `COLUMN=*` names a column too: one the input lacks (a typo) would lift nothing unsaid.
        for clause in options.wheres where clause.values == nil && !header.contains(where: { FieldMapping.folded($0) == FieldMapping.folded(clause.column) }) {
            throw CatalogError(.dataError, "\(source): --where \(clause.column)=*: no column \(clause.column.quotedForMessage); the columns are \(found)")
        }
        if let index = RowKinds.column(in: header, layout: layout, options: options) {
            conditions.append(RowKinds.condition(column: index, name: header[index]))
        }
        // Each field's column: `--map year=YEAR` reads the column named exactly so, though `year`
        // comes before it; `genres` is read over `genre`; else the first.
        var columns: [MovieField: Int] = [:]
        for (index, name) in header.enumerated() {
            guard let field = mapping.field(for: name) else { continue }
            if let read = columns[field], !mapping.prefers(name, over: header[read], for: field) { continue }
            columns[field] = index
        }
        var ignored: [String] = []
        for (index, name) in header.enumerated() {
            let field = mapping.field(for: name)
            if let field, columns[field] == index {
                continue
            } else if !conditions.contains(where: { $0.column == index }) {
                // Named so that it can be found: an empty name by its place, a second column
                // of a field (`title,year,title`) beside the one read.
                if name.isEmpty {
                    ignored.append("column \(index + 1) (no name)")
                } else if let field, let read = columns[field] {
                    ignored.append("\(name) (column \(index + 1); column \(read + 1) is read)")
                } else {
                    ignored.append(name)
                }
            }
        }
        for (field, column) in options.mapping.overrides where columns[field] == nil && !column.isEmpty {
            throw CatalogError(.dataError, "\(source): --map \(field.name)=\(column): no column \(column.quotedForMessage); the columns are \(found)")
        }
        let updateOnly = columns[.title] == nil && columns[.imdbID] != nil
        let nameColumn = Self.nameColumn(in: header, layout: layout)
        guard columns[.title] != nil || updateOnly else {
            // A forced layout reads its own columns: name those the input lacks.
            if case .forced(let forced) = options.layout {
                let missing = forced.keyColumns.filter { key in !header.contains { $0.lowercased() == key.lowercased() } }
                if !missing.isEmpty {
                    let named = missing.map { "\($0.quotedForMessage)" }.joined(separator: ", ")
                    throw CatalogError(.dataError, "\(source): --layout \(forced.name) reads the column\(missing.count == 1 ? "" : "s") \(named), which this input lacks; the columns are \(found)")
                }
            }
            // One column whose name holds semicolons: a spreadsheet's CSV of another locale.
            let separated = header.count == 1 && header[0].contains(";")
                ? "; the header is one column holding ';': save the file with commas (or tabs, as .tsv)" : ""
            throw CatalogError(.dataError, "\(source): no title column (title, primaryTitle, film or movie, or use --map title=\(nameColumn ?? "COLUMN")); the columns are \(found)\(separated)")
        }
        return (ImportPlan(layout: layout, mapping: mapping, conditions: conditions, updateOnly: updateOnly,
                            noYear: columns[.year] == nil && options.layout == .automatic && options.mapping.overrides[.year] == nil,
                            nameColumn: nameColumn),
                columns, ignored)
    }

    /// A column or key named `name` outside a layout: not read unasked (SPEC 4: as often a
    /// person's or a list's), but offered as the title.
    static func nameColumn(in names: [String], layout: ImportLayout?) -> String? {
        layout == nil ? names.first { FieldMapping.folded($0) == "name" } : nil
    }

    /// The plan for a JSON input, from its first record's keys (JSON has no header): the layout
    /// those keys have, conditions by key, update-only when it has IMDb ids and no titles.
    static func make(keys: [String], options: ImportOptions) -> ImportPlan {
        let layout = Self.layout(for: keys, choice: options.layout)
        let mapping = FieldMapping(overrides: options.mapping.overrides, layout: layout)
        var conditions = clauses(layout: layout, wheres: options.wheres).map {
            RowCondition(column: -1, name: $0.column, values: $0.values, given: $0.given)
        }
        if let index = RowKinds.column(in: keys, layout: layout, options: options) {
            conditions.append(RowKinds.condition(column: -1, name: keys[index]))
        }
        let fields = Set(keys.compactMap(mapping.field(for:)))
        return ImportPlan(layout: layout, mapping: mapping, conditions: conditions,
                          updateOnly: !fields.contains(.title) && fields.contains(.imdbID), noYear: !fields.contains(.year) && options.layout == .automatic && options.mapping.overrides[.year] == nil,
                          nameColumn: Self.nameColumn(in: keys, layout: layout))
    }
}

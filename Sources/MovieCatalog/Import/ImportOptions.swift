import MovieDomain
import SQLiteStore
/// The input formats `import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    case csv, tsv, json, jsonl

    /// The format a file name's extension implies, if any; `.gz` is looked through
    /// (`title.basics.tsv.gz` is TSV).
    public static func from(path: String) -> ImportFormat? {
        var lower = path.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        guard let dot = lower.lastIndex(of: "."), !lower[dot...].contains("/") else { return nil }
        switch lower[lower.index(after: dot)...] {
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "json": return .json
        case "jsonl", "ndjson": return .jsonl
        default: return nil
        }
    }

    /// Whether a file name says only "text" (`.txt`, as Excel's "Unicode Text" and "Text
    /// (Tab delimited)" save): CSV or TSV, told by `delimited(firstLine:)`.
    static func isPlainText(path: String) -> Bool {
        var lower = path.lowercased()
        if lower.hasSuffix(".gz") { lower.removeLast(3) }
        return lower.hasSuffix(".txt")
    }

    /// TSV when a text file's first line holds a tab, else CSV (which tells `;` from `,` itself);
    /// a `sep=` or PowerShell's `#TYPE` line first says nothing of it, and is looked past.
    static func delimited(firstLine bytes: [UInt8]) -> ImportFormat {
        var lines = bytes.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)[...]
        while let line = lines.first, lines.count > 1, line.starts(with: Array("#TYPE ".utf8)) || line.starts(with: Array("sep=".utf8)) {
            lines = lines.dropFirst()
        }
        return lines.first?.contains(0x09) == true ? .tsv : .csv
    }
}

/// When `import` appends rows in bulk and merges repeats afterwards, rather than row by row.
public enum BulkLoad: Sendable {
    /// Into an empty catalog, or when the input is large beside the catalog.
    case auto
    /// Whenever the duplicate policy allows (tests use it to compare both paths).
    case always
    /// As `always`, with every row set aside as a possible repeat and merged at the end (tests
    /// use it to compare the merge with row by row on every row).
    case alwaysMergingEveryRow
    /// As `always`, with every key's hash cut to two bits, so that keys share hashes (tests use
    /// it for the merge's grouping in SQL).
    case alwaysWithSharedHashes
    /// As `always`, holding back only two new rows beyond a write batch, so that repeats are
    /// both folded into held rows and set aside for the merge (tests use it for their mix).
    case alwaysHoldingFewRows
    /// Never.
    case never
}

/// How `import` reads, validates and stores.
public struct ImportOptions: Sendable {
    /// The input format, or nil to tell it from each file's extension.
    public var format: ImportFormat?
    /// Which columns or keys feed which fields (`--map`).
    public var mapping = FieldMapping()
    /// Known layouts: recognised from the header, forced, or off (`--layout`).
    public var layout = LayoutChoice.automatic
    /// Rows to keep (`--where`), over a layout's defaults.
    public var wheres: [WhereClause] = []
    /// What to do with a movie already in the catalog.
    public var onDuplicate = DuplicatePolicy.update
    /// Whether to import the valid rows and skip invalid ones.
    public var skipInvalid = false
    /// Where to write rejected rows, if anywhere.
    public var rejectsPath: String?
    /// Whether to validate and count without writing anything.
    public var dryRun = false
    /// Bulk or row-by-row storing; the result is the same, only the speed differs.
    public var bulkLoad = BulkLoad.auto
    /// For tests: the most pages the title index built alongside may use (`PRAGMA
    /// max_page_count` of its scratch database), so that building it fails as a full disk would.
    var titleScratchPages: Int?
    /// MovieLens's links.csv read ahead of the inputs (movieId -> imdbId), for its movies.csv.
    var movieLensLinks: [String: String] = [:]

    /// Creates the default options.
    public init() {}
}

/// Counts for one input file (or the total).
public struct ImportCounts: Sendable, Equatable {
    /// Rows read, inserted, updated, skipped as duplicates, rejected as invalid, and repeated within the input.
    public var read = 0, inserted = 0, updated = 0, skipped = 0, rejected = 0, repeated = 0
    /// Update-only rows whose movie the catalog does not have.
    public var notInCatalog = 0
    /// Rows left out by `--where` (or a layout's default).
    public var filtered = 0

    /// Creates zero counts.
    public init() {}

    static func + (a: ImportCounts, b: ImportCounts) -> ImportCounts {
        var sum = ImportCounts()
        sum.read = a.read + b.read
        sum.inserted = a.inserted + b.inserted
        sum.updated = a.updated + b.updated
        sum.skipped = a.skipped + b.skipped
        sum.rejected = a.rejected + b.rejected
        sum.repeated = a.repeated + b.repeated
        sum.notInCatalog = a.notInCatalog + b.notInCatalog
        sum.filtered = a.filtered + b.filtered
        return sum
    }
}

/// What an import did, per file.
public struct ImportReport: Sendable {
    /// What the import did with one input file.
    public struct File: Sendable {
        /// The input's name (`movies.csv`, or `-` for stdin).
        public let name: String
        /// The file's row counts.
        public var counts = ImportCounts()
        /// Input columns (or JSON keys) that feed no field.
        public var ignoredColumns: [String] = []
        /// Whether more keys than `ignoredColumns` fed no field (JSON keys beyond those remembered).
        public var moreIgnoredColumns = false
        /// The layout and `--where` in force (`IMDb title.basics layout; where titleType=movie`).
        public var note: String?
        /// Wall time spent on the file.
        public var seconds = 0.0
    }

    /// One entry per input file, in order.
    public var files: [File] = []
    /// Whether the import was a dry run (nothing written).
    public var dryRun = false
    /// Wall time of the whole import, index builds and commit included.
    public var totalSeconds = 0.0
    /// Every problem found (only the first few are printed).
    public var problemCount = 0
    /// Rows appended in bulk rather than stored one by one (the result is the same).
    public var appendedRows = 0
    /// The keys the last bulk load's sieve was sized for (tests check the input's estimate).
    public var sieveKeys = 0
    /// Genres the import added to the catalog.
    public var addedGenres: [Genre] = []
    /// Seconds each phase of storing took (for `MOVIECAT_TIMINGS=1`).
    public var timings: [(name: String, seconds: Double)] = []
    /// The genre codes the catalog knew before (for "did you mean" hints).
    public var genresBefore: [String] = []
    /// The first problems found, printed before the error.
    public var firstProblems: [ImportProblem] = []

    /// The totals over all files.
    public var total: ImportCounts { files.reduce(ImportCounts()) { $0 + $1.counts } }

    /// The report lines for stderr.
    public var lines: [String] {
        var lines: [String] = []
        for file in files {
            // One input: its line carries the whole time, commit included.
            lines.append(Self.line(file.name, file.counts, seconds: files.count == 1 ? totalSeconds : file.seconds))
            if let note = file.note { lines.append("\(file.name): \(note)") }
            if !file.ignoredColumns.isEmpty {
                lines.append("\(file.name): ignored columns: \(Self.names(file.ignoredColumns, more: file.moreIgnoredColumns))")
            }
        }
        if files.count > 1 { lines.append(Self.line("total", total, seconds: totalSeconds)) }
        if dryRun { lines.append("dry run: nothing was imported") }
        return lines
    }

    /// Names listed in a report line or message: the first 20 (each as `shown` writes it), then
    /// how many more (`more`: more than that, uncounted). A file of thousands of columns, or
    /// JSON records each with a key of its own, would make one line of megabytes.
    static func names(_ names: [String], more: Bool = false, shown: (String) -> String = \.cutForMessage) -> String {
        let listed = names.prefix(20).map(shown).joined(separator: ", ")
        let rest = names.count - min(names.count, 20)
        if more { return listed + " and over \(NumberText.grouped(rest)) more" }
        return rest == 0 ? listed : listed + " and \(NumberText.grouped(rest)) more"
    }

    /// One report line: `name: N rows read, N inserted, ... [, N repeated in the input (last one kept)] in X s (N rows/s)`.
    static func line(_ name: String, _ c: ImportCounts, seconds: Double) -> String {
        var text = "\(name): \(count(c.read, "row")) read, \(NumberText.grouped(c.inserted)) inserted, "
            + "\(NumberText.grouped(c.updated)) updated, \(NumberText.grouped(c.skipped)) skipped, \(NumberText.grouped(c.rejected)) rejected"
        if c.filtered > 0 { text += ", \(NumberText.grouped(c.filtered)) filtered" }
        if c.notInCatalog > 0 { text += ", \(NumberText.grouped(c.notInCatalog)) not in catalog" }
        if c.repeated > 0 { text += ", \(NumberText.grouped(c.repeated)) repeated in the input (last one kept)" }
        return text + " in \(Self.seconds(seconds)) (\(NumberText.grouped(rate(c.read, seconds))) rows/s)"
    }

    /// "1 row", "58,788 rows".
    static func count(_ n: Int, _ noun: String) -> String { "\(NumberText.grouped(n)) \(noun)\(n == 1 ? "" : "s")" }

    static func rate(_ rows: Int, _ seconds: Double) -> Int {
        seconds > 0 ? Int(Double(rows) / seconds) : rows
    }

    static func seconds(_ s: Double) -> String {
        let tenths = Int((s * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

/// The input formats `import` reads.
public enum ImportFormat: String, CaseIterable, Sendable {
    case csv, tsv, json, jsonl

    /// The format a file name's extension implies, if any.
    public static func from(path: String) -> ImportFormat? {
        let lower = path.lowercased()
        guard let dot = lower.lastIndex(of: "."), !lower[dot...].contains("/") else { return nil }
        switch lower[lower.index(after: dot)...] {
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "json": return .json
        case "jsonl", "ndjson": return .jsonl
        default: return nil
        }
    }
}

/// How `import` reads, validates and stores.
public struct ImportOptions: Sendable {
    public var format: ImportFormat?
    public var mapping = FieldMapping()
    public var onDuplicate = DuplicatePolicy.update
    public var skipInvalid = false
    public var rejectsPath: String?
    public var dryRun = false

    public init() {}
}

/// Counts for one input file (or the total).
public struct ImportCounts: Sendable, Equatable {
    public var read = 0, inserted = 0, updated = 0, skipped = 0, rejected = 0, repeated = 0

    public init() {}

    static func + (a: ImportCounts, b: ImportCounts) -> ImportCounts {
        var sum = ImportCounts()
        sum.read = a.read + b.read
        sum.inserted = a.inserted + b.inserted
        sum.updated = a.updated + b.updated
        sum.skipped = a.skipped + b.skipped
        sum.rejected = a.rejected + b.rejected
        sum.repeated = a.repeated + b.repeated
        return sum
    }
}

/// What an import did, per file.
public struct ImportReport: Sendable {
    public struct File: Sendable {
        public let name: String
        public var counts = ImportCounts()
        public var ignoredColumns: [String] = []
        public var seconds = 0.0
    }

    public var files: [File] = []
    public var dryRun = false
    /// Wall time of the whole import, index builds and commit included.
    public var totalSeconds = 0.0
    /// Every problem found (only the first few are printed).
    public var problemCount = 0
    public var firstProblems: [ImportProblem] = []

    /// The totals over all files.
    public var total: ImportCounts { files.reduce(ImportCounts()) { $0 + $1.counts } }

    /// The report lines for stderr.
    public var lines: [String] {
        var lines: [String] = []
        for file in files {
            let c = file.counts
            // One input: its line carries the whole time, commit included.
            let seconds = files.count == 1 ? totalSeconds : file.seconds
            var text = "\(file.name): \(Self.count(c.read, "row")) read, \(Self.grouped(c.inserted)) inserted, "
                + "\(Self.grouped(c.updated)) updated, \(Self.grouped(c.skipped)) skipped, \(Self.grouped(c.rejected)) rejected"
            if c.repeated > 0 { text += ", \(Self.grouped(c.repeated)) repeated in the input (last one kept)" }
            text += " in \(Self.seconds(seconds)) (\(Self.grouped(Self.rate(c.read, seconds))) rows/s)"
            lines.append(text)
            if !file.ignoredColumns.isEmpty {
                lines.append("\(file.name): ignored columns: \(file.ignoredColumns.joined(separator: ", "))")
            }
        }
        if files.count > 1 {
            let t = total
            lines.append("total: \(Self.count(t.read, "row")) read, \(Self.grouped(t.inserted)) inserted, "
                + "\(Self.grouped(t.updated)) updated, \(Self.grouped(t.skipped)) skipped, \(Self.grouped(t.rejected)) rejected "
                + "in \(Self.seconds(totalSeconds)) (\(Self.grouped(Self.rate(t.read, totalSeconds))) rows/s)")
        }
        if dryRun { lines.append("dry run: nothing was written") }
        return lines
    }

    /// 58788 -> "58,788".
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return n < 0 ? "-" + out : out
    }

    /// "1 row", "58,788 rows".
    static func count(_ n: Int, _ noun: String) -> String { "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")" }

    static func rate(_ rows: Int, _ seconds: Double) -> Int {
        seconds > 0 ? Int(Double(rows) / seconds) : rows
    }

    static func seconds(_ s: Double) -> String {
        let tenths = Int((s * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

import MovieDomain
import SQLiteStore

/// Imports movie lists into a catalog: one transaction for all files, streamed, validated, de-duplicated.
public final class Importer {
    private let catalog: Catalog
    private(set) var options: ImportOptions
    /// Whether a MovieLens movies.csv took the ids of a links.csv read first.
    private var linksUsed = false
    private let progress: Progress
    /// What erases the progress line before a message of an interruption's (nothing without one).
    private let clearLine: String
    var report = ImportReport()
    private var writer: ImportWriter?
    private var rejects: RejectsWriter?
    /// Rows stop being written at the first invalid one unless `--skip-invalid`; validation goes on.
    private var writing = true
    /// When the current input began (monotonic seconds), for the rows/s of the progress line.
    private var fileStarted = 0.0
    /// The current input's records with fewer fields than its header, for its report.
    private var shortRows = 0
    /// The current input's valid rows handed to the writer so far (for `projectRows`).
    private var rowsRead = 0
    /// The current input's rows left out by conditions, by `RowKinds`' among them, and its column.
    private var leftOut = (byConditions: 0, byKind: 0, kindColumn: "")
    /// Summary rows left out of the current input: how many, and the first one's line.
    private var summaryRows: (count: Int, first: Int)?
    private static let problemsShown = 20

    /// `progressOutput` is where a live progress line goes (a terminal), or nil for none.
    public init(catalog: Catalog, options: ImportOptions, progressOutput: TextOutput?) {
        self.catalog = catalog
        self.options = options
        self.progress = Progress(out: progressOutput)
        clearLine = progressOutput == nil ? "" : "\r\u{1B}[K"
        report.dryRun = options.dryRun
    }

    /// Refuses a rejects file that could not be put in place (a directory, an unwritable
    /// directory), before any catalog is opened.
    public static func checkRejects(_ path: String) throws {
        try RejectsWriter.check(path)
    }

    /// Imports every file (`-` is stdin) in one transaction; throws and writes nothing on failure.
    public func run(paths: [String]) throws -> ImportReport {
        try run(try Importer.open(paths, format: options.format))
    }

    /// Imports opened inputs in one transaction; throws and writes nothing on failure.
    public func run(_ opened: [ImportInput]) throws -> ImportReport {
        var inputs = opened.map { ($0.reader, $0.format) }
        let db = catalog.db
        let started = monotonicSeconds()
        var committing = started
        // Index builds sort with helper threads (measured: a third less time on two cores).
        try? db.execute("PRAGMA threads = 4")
        do {
            // MovieLens's links.csv is read first: its movies.csv, wherever it comes, takes the ids.
            // (Not where layouts are off, or another is forced: links.csv is then read as such.)
            let readsLinks = options.layout == .automatic || options.layout == .forced(ImportLayout.named("movielens")!)
            // Its rows that are no links are invalid rows as any: listed, and the import stops at
            // the end, or with --skip-invalid they are rejected (into `--rejects` too).
            if readsLinks, let path = options.rejectsPath { rejects = try RejectsWriter(path: path) }
            var linkRejects: [Int: ImportCounts] = [:]
            let (links, linkCounts) = readsLinks
                ? try MovieLensLinks.read(inputs) { index, problem, header, fields in
                    try self.reject([problem], counts: &linkRejects[index, default: ImportCounts()]) { (header, fields) }
                }
                : ([:], [:])
            for (index, read) in linkCounts.sorted(by: { $0.key < $1.key }) {
                var file = ImportReport.File(name: inputs[index].0.name)
                file.counts.read = read.rows
                file.counts.rejected = linkRejects[index]?.rejected ?? 0
                file.note = "MovieLens links.csv layout: \(NumberText.grouped(read.linked)) IMDb id\(read.linked == 1 ? "" : "s"), "
                    + "read first for the films of the MovieLens movies.csv imported with it"
                report.files.append(file)
            }
            if !linkCounts.isEmpty {
                options.movieLensLinks = links
                inputs = inputs.enumerated().filter { linkCounts[$0.offset] == nil }.map(\.element)
            }
            // Each input is bulk-loaded when large beside the catalog as the inputs before it
            // leave it (estimated from their sizes). Counted before the transaction, as foreign
            // keys (off for a bulk load) are set outside it; the count only steers speed.
            let stored = try db.intScalar("SELECT count(*) FROM movies")
            // Into a stored catalog a pipe's first bytes are read ahead: one that ends within them
            // is sized as a file, a longer one as at least that (nil: bulk-loaded, see `bulkLoads`),
            // and one that brought little in its second (typed, pasted, a slow upstream) by what
            // it brought: row by row keeps up with it. Into an empty catalog every input is
            // bulk-loaded: nothing is waited for.
            let readsAhead = stored > 0 && options.bulkLoad == .auto
            let sizes = try inputs.map { input -> Int? in
                if let size = input.0.textBytes { return size }
                guard readsAhead else { return nil }
                if try input.0.readAhead(Self.lookahead) { return input.0.textBytes }
                return input.0.ahead.count < Self.slowPipe ? input.0.ahead.count : nil
            }
            let inputBytes = sizes.first.map { $0 ?? Self.lookahead } ?? 0
            var storedBefore = stored
            let bulkInputs = sizes.map { size in
                defer { storedBefore += Importer.estimatedRows(size ?? Self.lookahead) }
                return Importer.bulkLoads(options, stored: storedBefore, inputBytes: size)
            }
            let bulkLoad = bulkInputs.contains(true)
            let load = {
                try db.transaction(commit: !self.options.dryRun) {
                    // An input large beside a stored catalog rewrites many facet rows: they are
                    // written at the end in one pass, and their sort indexes rebuilt (DeferredFacets).
                    let deferFacets = stored > 0 && Importer.estimatedRows(inputBytes) >= stored / 4
                    if self.rejects == nil, let path = self.options.rejectsPath { self.rejects = try RejectsWriter(path: path) }
                    self.writer = try ImportWriter(db: db, policy: self.options.onDuplicate, bulkLoad: bulkInputs.first ?? false,
                                                   mergingEveryRow: self.options.bulkLoad == .alwaysMergingEveryRow,
                                                   sharedHashes: self.options.bulkLoad == .alwaysWithSharedHashes,
                                                   heldRows: self.options.bulkLoad == .alwaysHoldingFewRows ? 2 : BulkAppender.heldRows,
                                                   titleScratchPages: self.options.titleScratchPages,
                                                   deferFacets: deferFacets)
                    self.writer?.storedMovies = stored
                    self.writer?.timings.announce = { [progress = self.progress] in progress.step($0) }
                    for (index, (input, format)) in inputs.enumerated() {
                        if index > 0 { try self.writer?.beginInput(bulk: bulkInputs[index]) }
                        try self.importInput(input, format: format)
                    }
                    if !linkCounts.isEmpty && !self.linksUsed {
                        // The links files' report lines come first, as they were read first.
                        for index in 0..<linkCounts.count { self.report.files[index].note? += " (none was: import them together)" }
                    }
                    if self.report.problemCount > 0 && !self.options.skipInvalid { throw self.invalidRowsError() }
                    try self.writer?.finish()
                    self.report.appendedRows = self.writer?.appendedRows ?? 0
                    self.report.sieveKeys = self.writer?.sieveKeys ?? 0
                    self.report.addedGenres = self.writer?.addedGenres ?? []
                    self.report.genresBefore = self.writer?.genresBefore ?? []
                    // Written out now, so that a write error still rolls the import back; put in
                    // place only once the import has committed (a signal or a failed commit
                    // before that leaves no rejects file for rows never imported).
                    try self.rejects?.flush()
                    committing = monotonicSeconds()
                    self.progress.step(self.options.dryRun ? "rolling back (a dry run)" : "committing")
                    if !self.options.dryRun {
                        Interruption.say(self.clearLine + "moviecat: interrupted while committing: the import landed whole or not at all (moviecat info counts the movies)\n")
                    }
                }
            }
            // A bulk load checks no foreign keys: its genre links name movie ids it has just
            // numbered and genre ids it has read or added, and it deletes links itself (no
            // cascades). The checks were a third of the time of appending a million movies.
            // A failed bulk append may leave SQLite's CHECKs off (see ImportWriter): back on.
            defer { try? db.execute("PRAGMA ignore_check_constraints = OFF") }
            // Ctrl-C, TERM or a closed terminal end the process (SQLite rolls back); it says so.
            Interruption.say(clearLine + "moviecat: interrupted: nothing was imported; the catalog is as it was\n")
            defer { Interruption.say(nil) }
            // The line's seconds go on through long steps (an index build, the commit).
            try progress.ticking { if bulkLoad { try db.withoutForeignKeys(load) } else { try load() } }
            progress.finish()
            try rejects?.close()
            rejects = nil
            report.totalSeconds = monotonicSeconds() - started
            report.timings = writer?.timings.phases ?? []
            report.timings.append(("commit", monotonicSeconds() - committing))
        } catch {
            progress.finish()
            rejects?.discard()   // nothing was imported: a rejects file would mislead
            throw CatalogError.from(error, catalogPath: catalog.path)
        }
        return report
    }

    /// Reads, stores and counts one input.
    private func importInput(_ input: ByteReader, format: ImportFormat) throws {
        fileStarted = monotonicSeconds()
        rowsRead = 0
        writer?.rowsBySize = input.textBytes.map(Importer.estimatedRows)
        report.files.append(ImportReport.File(name: input.name))
        // UTF-32 (UTF-16 is read as such) reads as garbage byte by byte; its byte order mark says what it is.
        try Importer.refuseForeign(input)
        let head = try input.peek(4)
        if head == [0xFF, 0xFE, 0, 0] || head == [0, 0, 0xFE, 0xFF] {
            let order = head[0] == 0xFF ? "little" : "big"
            throw CatalogError(.dataError, "\(input.name):1: the input is UTF-32 (\(order)-endian, by its byte order mark); save it as UTF-8")
        }
        switch format {
        case .csv: try importDelimited(input, dialect: .csv)
        case .tsv: try importDelimited(input, dialect: .tsv)
        case .json: try importJSON(input, mode: .array)
        case .jsonl: try importJSON(input, mode: .lines)
        }
        let last = report.files.count - 1
        if let encoding = input.encodingNote { addNote("read as \(encoding)") }
        if let (count, first) = summaryRows {
            let more = count > 1 ? " and \(NumberText.grouped(count - 1)) more" : ""
            addNote("a sheet's summary or note row\(count == 1 ? "" : "s") left out (line \(first)\(more): no year, a title like TOTAL, Average or Notes:)")
            summaryRows = nil
        }
        if shortRows > 0 {
            addNote("\(NumberText.grouped(shortRows)) row\(shortRows == 1 ? "" : "s") with fewer fields than the header, the missing last ones read as empty")
            shortRows = 0
        }
        if leftOut.byKind > 0 { addNote(RowKinds.note(leftOut.kindColumn, count: leftOut.byKind)) }
        let read = report.files[last].counts.read
        if read > 0 && leftOut.byConditions == read && leftOut.byKind < read {
            // An export in another language (`Film`, not `movie`) or of shows alone looks alike.
            addNote("every row left out by these conditions (--where COLUMN=* keeps a column's every row)")
        }
        leftOut = (0, 0, "")
        if let folded = try writer?.endOfInput(), folded.notInserted > 0 {
            report.files[last].counts.inserted -= folded.notInserted
            report.files[last].counts.repeated += folded.repeated
            report.files[last].counts.updated += folded.updated
            report.files[last].counts.skipped += folded.skipped
        }
        progress.finish()
        report.files[last].seconds = monotonicSeconds() - fileStarted
    }

    /// The rows a list of `bytes` holds, roughly: a movie line is some 60 bytes.
    static func estimatedRows(_ bytes: Int) -> Int { bytes / 60 }

    /// The most bytes of a pipe (or stdin) read ahead, for a second at most, before the import
    /// decides how to write it: some 35,000 rows, past which bulk loading pays on all but the
    /// largest catalogs.
    static let lookahead = 2 << 20
    /// Fewer bytes than this in a pipe's first second: some 1,000 rows a second, no faster than
    /// rows stored one by one.
    static let slowPipe = 64 << 10

    /// Whether to bulk-load: always into an empty catalog; into a stored one unless the input is
    /// small beside it (a bulk load first reads every stored movie's key, some 0.6 us a movie,
    /// where a row written by itself costs 100 us as an update and up to 850 us as a new movie).
    /// A dry run takes the same path as the import would (then rolls back), so it counts alike
    /// and takes as long, not the five times longer of a million rows one by one.
    /// A pipe longer than `lookahead` (`inputBytes` nil) is bulk-loaded: into 7M movies or fewer
    /// the rule would say so, and into more, reading their keys (6 s at 10M) costs at most the
    /// time of 60,000 rows one by one, where a long pipe may hold millions.
    static func bulkLoads(_ options: ImportOptions, stored: Int, inputBytes: Int?) -> Bool {
        switch options.bulkLoad {
        case .never: return false
        case .always, .alwaysMergingEveryRow, .alwaysWithSharedHashes, .alwaysHoldingFewRows: return true
        case .auto:
            guard let inputBytes else { return true }
            let estimatedRows = Importer.estimatedRows(inputBytes)
            // Measured on 500k stored movies: bulk wins for updates from some 3,000 rows and for
            // new movies from some 400 (row by row, 250k updates took 18 s, bulk 1.7 s).
            return stored == 0 || estimatedRows >= max(1_000, stored / 200)
        }
    }

    private func invalidRowsError() -> CatalogError {
        let rows = report.total.rejected
        var details = report.firstProblems.map(\.description)
        if report.problemCount > details.count {
            details.append("... and \(report.problemCount - details.count) more problems")
        }
        // Many rows wrong in one field alone: most likely a column read for the wrong field
        // (a dataset's `rating` holding certifications), which --map can read from none.
        var hint = ""
        // (Not for a field every row needs, a key left blank, nor bytes that are not UTF-8.)
        if let field = report.firstProblems.first?.field, report.firstProblems.count >= 3,
           report.firstProblems.allSatisfy({ $0.field == field && !["is blank", "is missing", "invalid UTF-8"].contains($0.reason) }),
           let named = MovieField(named: field), named != .title {
            hint = "; every problem shown is in \(field): --map \(field)= reads it from no column, --map \(field)=COLUMN from another"
        }
        return CatalogError(.dataError,
            "\(rows) invalid row\(rows == 1 ? "" : "s") (\(report.problemCount) problem\(report.problemCount == 1 ? "" : "s")); nothing was imported. Fix them, or import the valid rows with --skip-invalid\(hint)",
            details: details)
    }

    /// Counts and stores a valid row, counting into `counts`; returns the problem when it is
    /// rejected after all (ambiguous), for the caller to report with its fields as read.
    func store(_ row: ImportRow, file: String, counts: inout ImportCounts) throws -> ImportProblem? {
        guard writing, let writer else {
            // Not stored (the import will fail), but rejected as it would be when stored.
            if let reason = try writer?.rejection(of: row) {
                return ImportProblem(file: file, line: row.line, field: MovieField.title.name, reason: reason)
            }
            counts.read += 1
            return nil
        }
        let outcome: ImportWriter.Outcome
        do {
            outcome = try writer.write(row, file: file).outcome
        } catch let error as DatabaseError where error.code == .constraint {
            // A sqlite3 user's constraint or trigger refused this row: named by its line.
            throw CatalogError(.dataError, "\(file):\(row.line): the catalog refused the row: \(error.message) (a constraint or trigger added to the catalog's tables, not moviecat's); nothing was imported")
        }
        switch outcome {
        case .inserted: counts.inserted += 1
        case .updated: counts.updated += 1
        case .skipped: counts.skipped += 1
        case .repeated: counts.repeated += 1
        case .notInCatalog: counts.notInCatalog += 1
        case .rejected(let reason): return ImportProblem(file: file, line: row.line, field: MovieField.title.name, reason: reason)
        }
        counts.read += 1
        return nil
    }

    /// Counts and reports an invalid row (writing stops unless `--skip-invalid`), counting into `counts`.
    func reject(_ problems: [ImportProblem], counts: inout ImportCounts, raw: () -> (header: [String], fields: [[UInt8]])) throws {
        counts.read += 1
        counts.rejected += 1
        report.problemCount += problems.count
        for problem in problems where report.firstProblems.count < Importer.problemsShown {
            report.firstProblems.append(problem)
        }
        if !options.skipInvalid { writing = false }
        if let rejects {
            let (header, fields) = raw()
            try rejects.write(header: header, fields: fields, error: problems.map(\.description).joined(separator: "; "))
        }
    }

    /// Called after each batch; redraws progress now and then.
    func tick(_ input: ByteReader, bytesConsumed: Int) {
        progress.update(file: input.name, rows: report.files[report.files.count - 1].counts.read,
                        bytes: bytesConsumed, totalBytes: input.totalBytes, started: fileStarted)
    }

    /// Stores a batch parsed ahead: each row in order, then progress.
    func handle(_ batch: ParsedBatch, from input: ByteReader, header: [String]) throws {
        // Counted locally and added once: the report is not touched per row.
        var counts = ImportCounts()
        counts.read = batch.filtered
        counts.filtered = batch.filtered
        shortRows += batch.shortRows
        leftOut.byConditions += batch.leftOutByConditions
        leftOut.byKind += batch.leftOutByKind
        if let column = batch.kindColumn { leftOut.kindColumn = column }
        if let first = batch.summaryRows.first {
            summaryRows = ((summaryRows?.count ?? 0) + batch.summaryRows.count, summaryRows?.first ?? first)
        }
        defer {
            report.files[report.files.count - 1].counts = report.files[report.files.count - 1].counts + counts
            tick(input, bytesConsumed: batch.bytesConsumed)   // with this batch's rows counted
        }
        let file = input.name
        projectRows(batch)
        for entry in batch.entries {
            switch entry {
            case .valid(let index):
                // Only a rejected row's closure captures the batch (a copy of it, retaining its arrays).
                if let problem = try store(batch.valid[index], file: file, counts: &counts) {
                    try reject([problem], counts: &counts) { (header, batch.raw(ofValid: index)) }
                }
            case .invalid(let problems, let raw): try reject(problems, counts: &counts) { (header, raw) }
            }
        }
    }

    /// Tells the writer the rows still to come: this batch's, and those the rest of the input
    /// holds at the rows a byte it has had so far (a bulk load's sieve is sized by them: estimated
    /// from the size alone, rows of 500 bytes took eight times the memory they needed, and rows of
    /// 20 bytes a sieve in many layers, each with its false "maybe"s).
    private func projectRows(_ batch: ParsedBatch) {
        rowsRead += batch.valid.count
        guard let left = batch.bytesLeft, batch.bytesParsed > 0 else {
            writer?.rowsToCome = nil
            return
        }
        let rest = Double(rowsRead) * Double(left) / Double(batch.bytesParsed)
        writer?.rowsToCome = batch.valid.count + Int(min(rest, Double(Int32.max)))
    }

    /// Records the ignored columns of the current file (`more`: others too many to name).
    func ignore(_ columns: [String], more: Bool = false) {
        report.files[report.files.count - 1].ignoredColumns = columns
        report.files[report.files.count - 1].moreIgnoredColumns = more
    }

    /// Adds to what the report says of how the current file is read (after its layout and `--where`).
    func addNote(_ said: String) {
        let last = report.files.count - 1
        report.files[last].note = report.files[last].note.map { $0 + "; " + said } ?? said
    }

    /// Records how the current file is read: its layout, `--where` and ignored columns.
    func describe(_ plan: ImportPlan, ignored: [String]) {
        report.files[report.files.count - 1].note = plan.note
        if plan.layout?.name == "movielens" && !options.movieLensLinks.isEmpty {
            linksUsed = true
            if plan.layout?.readsLinks != true { addNote("its own IMDb ids read, not links.csv's") }
        }
        ignore(ignored)
    }
}

import MovieDomain
import SQLiteStore
/// Rows parsed and validated ahead of the writer, in input order.
struct ParsedBatch: Sendable {
    /// One record of the input: a valid row (by its index in `valid`) or its problems.
    enum Entry: Sendable {
        case valid(Int)
        case invalid([ImportProblem], raw: [[UInt8]])
    }

    /// The records in input order.
    var entries: [Entry] = []
    /// The valid rows, apart: the writer reads them in place, and an enum payload could only
    /// be read by copying it (retaining its strings) per row.
    var valid: [ImportRow] = []
    /// Input bytes consumed when the batch was cut, for the progress line.
    var bytesConsumed = 0
    /// Bytes handed to the parser, and those still to come (`ByteReader.bytesLeft`), when the
    /// batch was cut: the rows still to come are projected from them.
    var bytesParsed = 0, bytesLeft: Int?
    /// JSON keys first seen in this batch that feed no field.
    var ignored: [String] = []
    /// Whether more keys fed no field than are remembered to be named.
    var moreIgnored = false
    /// Records left out by `--where` (counted, never validated).
    var filtered = 0
    /// Of those, the ones left out by a condition (a layout's default, `--where`), and by
    /// `RowKinds`' (shows, episodes) among them: not a Netflix episode's or a sheet's summary row.
    var leftOutByConditions = 0
    var leftOutByKind = 0
    /// The column `RowKinds` left rows out by, once it did.
    var kindColumn: String?
    /// Records with fewer fields than the header (Excel leaves out empty last ones), read with
    /// the missing ones empty.
    var shortRows = 0
    /// Lines of a sheet's summary and note rows (`TOTAL`), left out; counted as filtered.
    var summaryRows: [Int] = []
    /// The layout and `--where` in force, once known (JSON: from the first record).
    var note: String?
    /// The fields of each valid row as read, kept only for `--rejects` (a valid row may still be
    /// rejected when stored: an ambiguous title and year).
    private var validRaw: [[[UInt8]]]?
    /// Whether rows' fields as read are kept (for a rejects file); an invalid row's are used for nothing else.
    private let keepRaw: Bool

    /// A batch; `keepRaw` keeps rows' fields as read (for a rejects file).
    init(keepRaw: Bool = false) {
        self.keepRaw = keepRaw
        validRaw = keepRaw ? [] : nil
    }

    /// Notes where in `input` the batch ends.
    mutating func cut(at input: ByteReader) {
        bytesConsumed = input.storedBytesConsumed
        bytesParsed = input.bytesConsumed
        bytesLeft = input.bytesLeft
    }

    /// The fields of valid row `index` as read (empty when not kept).
    func raw(ofValid index: Int) -> [[UInt8]] { validRaw?[index] ?? [] }

    /// Rows a batch holds at most, and input bytes it spans at most (rows of a few megabytes
    /// each, kept as read for a rejects file, would otherwise fill memory).
    static let size = 512, maxBytes = 4 << 20

    /// Takes the row (consumed: moved in, not copied); `fields` are kept for an invalid one (`--rejects`).
    mutating func append(_ row: consuming DecodedRow, raw fields: @autoclosure () -> [[UInt8]]) {
        switch consume row {
        case .valid(let row):
            entries.append(.valid(valid.count))
            valid.append(row)
            if validRaw != nil { validRaw!.append(fields()) }
        case .invalid(let problems):
            entries.append(.invalid(problems, raw: keepRaw ? fields() : []))
        }
    }
}

/// The importer's pipeline: a parsing thread hands batches of rows to the writing thread.
extension Importer {
    /// Parses rows on a second thread while this one stores them, in order.
    ///
    /// `makeProducer` runs on the parsing thread (which alone touches `input` from then on) and
    /// returns a function that appends the next row to a batch, or returns false at the end.
    @discardableResult
    func streamRows(from input: ByteReader, header: [String],
                    makeProducer: @escaping @Sendable (ByteReader) -> (inout ParsedBatch) throws -> Bool) throws -> (ignored: [String], more: Bool) {
        let handoff = Handoff(value: input)
        let stop = StopFlag()
        let keepRaw = options.rejectsPath != nil
        let ahead = ParseAhead<ParsedBatch>.start { emit in
            let input = handoff.value
            input.shouldStop = { stop.isRaised }
            let produce = makeProducer(input)
            var batch = ParsedBatch(keepRaw: keepRaw)
            var batchStart = input.bytesConsumed
            while try produce(&batch) {
                if batch.entries.count == ParsedBatch.size || input.bytesConsumed - batchStart >= ParsedBatch.maxBytes {
                    batch.cut(at: input)
                    guard emit(batch) else { return }
                    batch = ParsedBatch(keepRaw: keepRaw)
                    batchStart = input.bytesConsumed
                }
            }
            batch.cut(at: input)
            _ = emit(batch)
        }
        defer {
            stop.raise()   // ends a read stalled on a pipe, so the thread can be joined at once
            ahead.cancel()
        }
        var ignored: [String] = []
        var more = false
        while let batch = try ahead.next() {
            ignored += batch.ignored
            more = more || batch.moreIgnored
            if let note = batch.note { report.files[report.files.count - 1].note = note }
            try handle(batch, from: input, header: header)
            ahead.recycle(batch)
        }
        return (ignored, more)
    }
}

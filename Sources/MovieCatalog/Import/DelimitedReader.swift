import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads CSV (RFC 4180) or TSV records from a `ByteReader`, one record at a time.
///
/// Field bytes are copied into one reusable buffer per record, so memory stays flat
/// whatever the file size, and no `String` is made until a field is used.
public final class DelimitedReader {
    /// Comma-separated with RFC 4180 quoting, or tab-separated without quoting (IMDb style).
    public enum Dialect: Sendable { case csv, tsv }

    let input: ByteReader
    private let separator: UInt8
    let quoting: Bool
    /// Byte classes for `scanPlain` (nil: every record is read by `scan`).
    let byteClasses: [UInt8]?
    /// The current record's field bytes, concatenated.
    private(set) var storage: [UInt8] = []
    /// End offset in `storage` of each field of the current record.
    private(set) var fieldEnds: [Int] = []
    /// Physical line where the current record starts (1-based).
    public private(set) var recordLine = 0
    /// True when the current record holds a NUL byte.
    public internal(set) var hasNUL = false
    /// True when the current record fails a condition (`--where`): it is left out unread.
    public internal(set) var isFilteredOut = false
    /// True when the condition it fails is `RowKinds`' (a show, an episode), not a `--where`.
    public internal(set) var isLeftOutByKind = false
    /// Conditions on columns, by column: a TSV record failing one is skipped to its line end at
    /// once, so rows left out cost little more than finding their end.
    var conditions: [RowCondition] = [] {
        didSet { conditions.sort { $0.column < $1.column } }
    }
    var line = 1
    private var started = false

    /// Creates a reader of `input` in the given dialect (`separator`: a CSV's other than `,`);
    /// without `plainScan` every record is read byte by byte (for tests of the one-pass read).
    public init(input: ByteReader, dialect: Dialect, separator: UInt8? = nil, plainScan: Bool = true) {
        self.input = input
        self.separator = separator ?? (dialect == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t"))
        quoting = dialect == .csv
        byteClasses = plainScan ? Self.byteClasses(separator: self.separator, quoting: quoting) : nil
        storage.reserveCapacity(4096)
        fieldEnds.reserveCapacity(32)
    }

    /// Number of fields in the current record.
    public var fieldCount: Int { fieldEnds.count }

    /// The fields of the current record, borrowed: valid only inside `withRecord`.
    struct Record {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>

        /// Number of fields.
        var count: Int { ends.count }

        /// The bytes of field `index`.
        func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            let start = index == 0 ? 0 : ends[index - 1]
            return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: ends[index] - start)
        }

        /// Field `index` as text, or nil when it is not valid UTF-8.
        func string(_ index: Int) -> String? {
            let bytes = field(index)
            // ASCII needs no validation; only other text pays for it.
            var ascii = true
            for byte in bytes where byte >= 0x80 { ascii = false; break }
            return ascii ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }
    }

    /// Lends the current record's fields to `body`: one access to the buffers for all fields,
    /// instead of one per field (which the hot loop would pay for in checks and retains).
    func withRecord<R>(_ body: (Record) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { bytes in
            try fieldEnds.withUnsafeBufferPointer { ends in try body(Record(bytes: bytes, ends: ends)) }
        }
    }

    /// Field `index` as text, or nil when it is not valid UTF-8 or the record has no such field
    /// (a row cut short).
    public func string(_ index: Int) -> String? { withRecord { index < $0.count ? $0.string(index) : nil } }

    /// All fields of the current record as text, for headers and rejects: a byte that is not
    /// UTF-8 is written `\xFF`, so messages quoting it show it and cannot be driven by it.
    public func strings() -> [String] {
        withRecord { record in (0..<record.count).map { TextEscaping.visible(bytes: record.field($0)) } }
    }

    /// All fields of the current record as read, byte for byte (for a rejects file: a byte that
    /// is not UTF-8 stays that byte).
    public func fieldBytes() -> [[UInt8]] {
        withRecord { record in (0..<record.count).map { Array(record.field($0)) } }
    }

    /// Reads the next record; false at the end of input. Blank lines are skipped.
    public func next() throws -> Bool {
        if !started {
            started = true
            try skipBOM()
        }
        while true {
            storage.removeAll(keepingCapacity: true)
            fieldEnds.removeAll(keepingCapacity: true)
            hasNUL = false
            isFilteredOut = false
            isLeftOutByKind = false
            recordLine = line
            guard try readRecord() else { return false }
            // A blank line (one empty field, or spaces and tabs alone) and a row of empty fields
            // alone (`,,,`: a spreadsheet's empty row) hold nothing: skipped, not reported.
            if storage.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) || !quoting && allNull { continue }
            return true
        }
    }

    /// Whether every field of a TSV record is `\N` (null) or empty: a row that holds nothing.
    private var allNull: Bool {
        var start = 0
        for end in fieldEnds {
            let length = end - start
            if length != 0 && !(length == 2 && storage[start] == 0x5C && storage[start + 1] == 0x4E) { return false }
            start = end
        }
        return true
    }

    private func skipBOM() throws {
        // A pipe may deliver the three BOM bytes in separate reads.
        while input.end - input.position < 3, try input.refill() {}
        if input.end - input.position >= 3,
           input.buffer[input.position] == 0xEF, input.buffer[input.position + 1] == 0xBB,
           input.buffer[input.position + 2] == 0xBF {
            input.position += 3
        }
    }

    /// Scans one record into `storage`/`fieldEnds`; false when the input is already exhausted.
    private func readRecord() throws -> Bool {
        // Work on local arrays: appending to stored properties byte by byte pays for
        // dynamic exclusivity checks on every access.
        var storage: [UInt8] = []
        var fieldEnds: [Int] = []
        swap(&storage, &self.storage)
        swap(&fieldEnds, &self.fieldEnds)
        defer {
            swap(&storage, &self.storage)
            swap(&fieldEnds, &self.fieldEnds)
        }
        if let read = try scanPlain(into: &storage, fieldEnds: &fieldEnds) { return read }
        return try scan(into: &storage, fieldEnds: &fieldEnds)
    }

    private func scan(into storage: inout [UInt8], fieldEnds: inout [Int]) throws -> Bool {
        let quote = UInt8(ascii: "\""), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var buf = input.buffer, pos = input.position, end = input.end
        var fieldStart = true
        var inQuotes = false
        var afterQuote = false      // just read the closing quote of a quoted field
        var quoteLine = 0
        var quotedCR = false        // the last byte copied inside quotes was a CR (a CRLF is one line break)
        var sawAny = false
        var sawNUL = false
        var filteredOut = false
        var leftOutByKind = false
        let watch = conditions
        var nextWatch = 0
        var watchColumn = watch.first?.column ?? Int.max
        defer {
            input.position = pos
            hasNUL = sawNUL
            isFilteredOut = filteredOut
            isLeftOutByKind = leftOutByKind
        }
        /// Checks the field just ended against its condition, if it has one; false when it fails.
        func fieldPasses() -> Bool {
            let index = fieldEnds.count - 1
            guard index == watchColumn else { return true }
            let start = index == 0 ? 0 : fieldEnds[index - 1]
            let passes = storage.withUnsafeBufferPointer { watch[nextWatch].accepts(UnsafeBufferPointer(rebasing: $0[start...])) }
            if !passes { leftOutByKind = watch[nextWatch].excludes }
            nextWatch += 1
            watchColumn = nextWatch < watch.count ? watch[nextWatch].column : Int.max
            if !passes { watchColumn = Int.max }
            return passes
        }

        while true {
            if pos == end {
                input.position = pos
                // refill() may move the unread bytes to the front even when it finds no more.
                let more = try input.refill()
                buf = input.buffer; pos = input.position; end = input.end
                guard more else {
                    if inQuotes {
                        throw CatalogError(.dataError, "\(input.name):\(quoteLine): unterminated quoted field (its quote opens on line \(quoteLine) and never closes)")
                    }
                    if !sawAny { return false }
                    fieldEnds.append(storage.count)
                    if !fieldPasses() { filteredOut = true }
                    return true
                }
            }
            sawAny = true
            if inQuotes {
                // Copy the run up to the closing quote at once, counting its line breaks.
                var runEnd = pos
                while runEnd < end {
                    let b = buf[runEnd]
                    if b == quote { break }
                    // LF, CRLF and a lone CR each end a line, as they do between records.
                    if b == lf { if !quotedCR { line += 1 } } else if b == cr { line += 1 } else if b == 0 { sawNUL = true }
                    quotedCR = b == cr
                    runEnd += 1
                }
                if runEnd > pos {
                    storage.append(contentsOf: UnsafeBufferPointer(start: buf + pos, count: runEnd - pos))
                    pos = runEnd
                    if storage.count > ByteReader.maxRecordBytes { throw tooLong(quoteLine: quoteLine) }
                    continue
                }
                pos += 1   // the quote
                quotedCR = false
                inQuotes = false
                afterQuote = true
                continue
            }
            let byte = buf[pos]
            pos += 1
            if byte == 0 { sawNUL = true }
            if afterQuote && byte == quote {
                // A doubled quote inside a quoted field.
                storage.append(quote)
                if storage.count > ByteReader.maxRecordBytes { throw tooLong(quoteLine: quoteLine) }
                inQuotes = true
                afterQuote = false
                continue
            }
            if byte == separator {
                fieldEnds.append(storage.count)
                // A field's end is an Int: a line of separators alone counts too.
                if storage.count + 8 &* fieldEnds.count > ByteReader.maxRecordBytes { throw tooLong(quoteLine: nil, fields: fieldEnds.count, bytes: storage.count) }
                fieldStart = true
                afterQuote = false
                if !fieldPasses() {
                    filteredOut = true
                    if !quoting {
                        // TSV has no quoting: the record ends at the next line break.
                        input.position = pos
                        try skipLine()
                        buf = input.buffer; pos = input.position; end = input.end
                        return true
                    }
                }
                continue
            }
            if byte == lf || byte == cr {
                if byte == cr {
                    // CRLF ends the record as one break; a lone CR is kept as data-free break too.
                    if pos == end {
                        input.position = pos
                        try input.refill()
                        buf = input.buffer; pos = input.position; end = input.end
                    }
                    if pos < end && buf[pos] == lf { pos += 1 }
                }
                line += 1
                fieldEnds.append(storage.count)
                if !fieldPasses() { filteredOut = true }
                return true
            }
            if afterQuote {
                throw CatalogError(.dataError, "\(input.name):\(line): unexpected character after a closing quote; quotes inside a quoted field must be doubled (\"\")")
            }
            if quoting && fieldStart && byte == quote {
                inQuotes = true
                quoteLine = line
                fieldStart = false
                continue
            }
            fieldStart = false
            // Copy the rest of the unquoted run at once (a quote inside it is data).
            var runEnd = pos
            while runEnd < end {
                let b = buf[runEnd]
                if b == separator || b == lf || b == cr { break }
                if b == 0 { sawNUL = true }
                runEnd += 1
            }
            storage.append(contentsOf: UnsafeBufferPointer(start: buf + pos - 1, count: runEnd - pos + 1))
            pos = runEnd
            if storage.count + 8 &* fieldEnds.count > ByteReader.maxRecordBytes { throw tooLong(quoteLine: nil, fields: fieldEnds.count, bytes: storage.count) }
        }
    }

    /// The error for a record past `ByteReader.maxRecordBytes`, naming the quote that may never close.
    private func tooLong(quoteLine: Int?, fields: Int = 0, bytes: Int = 0) -> CatalogError {
        let limit = ByteReader.maxRecordText
        if let quoteLine {
            return CatalogError(.dataError, "\(input.name):\(quoteLine): a quoted field runs past \(limit) (its quote opens on line \(quoteLine)); is its closing quote missing?")
        }
        let kind = quoting ? "CSV" : "TSV"
        // Each field costs 8 bytes beside its text: a line of millions of empty fields ends here too.
        if 8 &* fields > bytes {
            return CatalogError(.dataError, "\(input.name):\(recordLine): a record of more than \(NumberText.grouped(fields)) fields; is this a \(kind) file?")
        }
        return CatalogError(.dataError, "\(input.name):\(recordLine): a record longer than \(limit) (no line end); is this a \(kind) file?")
    }

    /// Moves past the rest of the current line (LF, CRLF or a lone CR), counting it.
    func skipLine() throws {
        while true {
            let start = input.buffer + input.position
            let count = input.end - input.position
            let lf = memchr(start, 0x0A, count).map { $0.assumingMemoryBound(to: UInt8.self) - start }
            // A lone CR before the LF also ends the line (the reader takes CR-only files).
            if let cr = memchr(start, 0x0D, lf ?? count).map({ $0.assumingMemoryBound(to: UInt8.self) - start }) {
                if cr + 1 < count || lf != nil {
                    input.position += cr + 1
                    if cr + 1 < count && start[cr + 1] == 0x0A { input.position += 1 }
                    line += 1
                    return
                }
                // The CR is the last byte read: whether an LF follows needs the next read.
                input.position += cr + 1
                line += 1
                if try input.refill(), input.position < input.end, input.buffer[input.position] == 0x0A { input.position += 1 }
                return
            }
            if let lf {
                input.position += lf + 1
                line += 1
                return
            }
            input.position = input.end
            guard try input.refill() else { return }
        }
    }
}

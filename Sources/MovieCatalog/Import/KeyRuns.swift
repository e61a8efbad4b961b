import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An external sort of small records, each an unsigned key, an id and a few bytes: kept in memory
/// up to a budget, then written as sorted runs to a temporary file (unlinked at once, so nothing
/// outlives the process) and merged as they are read back. Memory stays flat whatever the count.
///
/// A bulk load sorts its rows' key hashes with it to find the repeats it set aside (`RepeatGroups`):
/// SQLite's own sorter, grouping half a million rows by title, took 2 s where this takes a tenth.
final class KeyRuns {
    /// One record as read back: `bytes` is valid only during the call that lends it.
    struct Record {
        let key: UInt64
        let id: Int64
        let bytes: UnsafeBufferPointer<UInt8>
    }

    private struct Entry {
        var key: UInt64
        var id: Int64
        var start: Int32
        var count: Int32
    }

    /// The file could not be written or read (a full temporary directory, say).
    struct Failure: Error {
        let reason: String
    }

    private var entries: [Entry] = []
    private var arena: [UInt8] = []
    private let budget: Int
    private var file: UnsafeMutablePointer<FILE>?
    /// Where each run starts and ends in the file.
    private var runs: [Range<Int>] = []
    private var written = 0
    /// Records added so far.
    private(set) var count = 0

    /// Where the runs may go, in order of preference (SQLite's own choice for its temporary files).
    private let directories: [String]

    /// A sorter that keeps up to `budget` bytes of records in memory, its runs in the first
    /// writable directory of `directories` (SQLite's choice: `SQLITE_TMPDIR`, `TMPDIR`, /var/tmp,
    /// /usr/tmp, /tmp).
    init(budget: Int = 2 << 20, directories: [String]? = nil) {
        self.budget = budget
        self.directories = directories ?? FilePaths.temporaryDirectories
    }

    deinit {
        if let file { fclose(file) }
    }

    /// Adds a record; its bytes are copied.
    func add(key: UInt64, id: Int64, bytes: UnsafeBufferPointer<UInt8>) throws {
        entries.append(Entry(key: key, id: id, start: Int32(arena.count), count: Int32(bytes.count)))
        arena.append(contentsOf: bytes)
        count += 1
        if entries.count * MemoryLayout<Entry>.stride + arena.count >= budget { try spill() }
    }

    /// Adds a record without bytes.
    func add(key: UInt64, id: Int64) throws {
        try add(key: key, id: id, bytes: UnsafeBufferPointer(start: nil, count: 0))
    }

    private func sortEntries() {
        entries.sort { $0.key < $1.key || ($0.key == $1.key && $0.id < $1.id) }
    }

    /// Writes the records in memory as one sorted run.
    private func spill() throws {
        guard !entries.isEmpty else { return }
        if file == nil { file = try temporaryFile() }
        sortEntries()
        var out: [UInt8] = []
        out.reserveCapacity(1 << 18)
        let start = written
        for entry in entries {
            Self.put(entry.key, UInt64(bitPattern: entry.id), UInt64(entry.count), into: &out)
            out.append(contentsOf: arena[Int(entry.start)..<Int(entry.start + entry.count)])
            if out.count >= 1 << 18 { try flush(&out) }
        }
        try flush(&out)
        runs.append(start..<written)
        entries.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    private func flush(_ out: inout [UInt8]) throws {
        let done = out.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard done == out.count else { throw Failure(reason: "cannot write a temporary file: \(String(cString: strerror(errno)))") }
        written += out.count
        out.removeAll(keepingCapacity: true)
    }

    /// Appends a record's head: three little-endian words, in one append.
    private static func put(_ key: UInt64, _ id: UInt64, _ count: UInt64, into out: inout [UInt8]) {
        withUnsafeBytes(of: (key.littleEndian, id.littleEndian, count.littleEndian)) { out.append(contentsOf: $0) }
    }

    /// A file in the first writable directory, unlinked at once.
    private func temporaryFile() throws -> UnsafeMutablePointer<FILE> {
        guard let directory = directories.first(where: { access($0, W_OK | X_OK) == 0 }) else {
            throw Failure(reason: "no writable temporary directory among \(directories.joined(separator: ", "))")
        }
        guard let (fd, _) = TemporaryFiles.make(directory + "/moviecat-keys-XXXXXX", remembered: false) else {
            throw Failure(reason: "cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        guard let file = fdopen(fd, "w+") else {
            close(fd)
            throw Failure(reason: "cannot open a temporary file: \(String(cString: strerror(errno)))")
        }
        return file
    }

    /// Calls `body` with every record, by key, then id; the records are gone after.
    func drain(_ body: (Record) throws -> Void) throws {
        defer {
            entries = []
            arena = []
            runs = []
        }
        if runs.isEmpty {
            sortEntries()
            try arena.withUnsafeBufferPointer { arena in
                for entry in entries {
                    try body(Record(key: entry.key, id: entry.id,
                                    bytes: UnsafeBufferPointer(rebasing: arena[Int(entry.start)..<Int(entry.start + entry.count)])))
                }
            }
            return
        }
        try spill()
        guard fflush(file) == 0 else { throw Failure(reason: "cannot write a temporary file: \(String(cString: strerror(errno)))") }
        var merger = RunMerger(readers: try runs.map { try RunReader(file: file!, range: $0) })
        while let top = merger.top {
            let head = merger.readers[top].current!
            try merger.readers[top].withBytes { try body(Record(key: head.key, id: head.id, bytes: $0)) }
            try merger.advanceTop()
        }
    }
}

/// The runs' readers in a binary heap by their current records (a struct: no captured state,
/// so no dynamic exclusivity checks in the loop).
private struct RunMerger {
    var readers: [RunReader]
    private var heap: [Int]

    init(readers: [RunReader]) {
        self.readers = readers
        heap = readers.indices.filter { readers[$0].current != nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    /// The reader with the smallest record.
    var top: Int? { heap.first }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let x = readers[a].current!, y = readers[b].current!
        return x.key < y.key || (x.key == y.key && x.id < y.id)
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Moves the top reader on and restores the heap.
    mutating func advanceTop() throws {
        try readers[heap[0]].advance()
        if readers[heap[0]].current == nil {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
    }
}

/// Reads one sorted run of a `KeyRuns` file back, a block at a time.
private struct RunReader {
    private let file: UnsafeMutablePointer<FILE>
    private var offset: Int
    private let end: Int
    private var buffer: [UInt8] = []
    private var position = 0
    /// The record under the reader; nil at the run's end.
    private(set) var current: (key: UInt64, id: Int64, count: Int)?

    init(file: UnsafeMutablePointer<FILE>, range: Range<Int>) throws {
        self.file = file
        offset = range.lowerBound
        end = range.upperBound
        try advance()
    }

    /// Makes sure `count` bytes from `position` are in the buffer (false at the run's end).
    private mutating func fill(_ count: Int) throws -> Bool {
        if buffer.count - position >= count { return true }
        let left = end - offset
        if left == 0 { return false }
        buffer.removeFirst(position)
        position = 0
        let take = min(left, max(1 << 15, count - buffer.count))
        let old = buffer.count
        buffer += [UInt8](repeating: 0, count: take)
        guard fseeko(file, off_t(offset), SEEK_SET) == 0,
              buffer.withUnsafeMutableBytes({ fread($0.baseAddress! + old, 1, take, file) }) == take else {
            throw KeyRuns.Failure(reason: "cannot read a temporary file back")
        }
        offset += take
        return buffer.count - position >= count
    }

    private func word(at index: Int) -> UInt64 {
        buffer.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: index, as: UInt64.self)) }
    }

    /// Moves past the current record.
    mutating func advance() throws {
        if let current { position += 24 + current.count }
        guard try fill(24) else {
            current = nil
            return
        }
        let count = Int(word(at: position + 16))
        guard try fill(24 + count) else { throw KeyRuns.Failure(reason: "a temporary file ends inside a record") }
        current = (word(at: position), Int64(bitPattern: word(at: position + 8)), count)
    }

    /// Lends the current record's bytes.
    func withBytes(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[(position + 24)..<(position + 24 + current!.count)])) }
    }
}

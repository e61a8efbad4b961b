import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or stdin in large chunks and hands out bytes, so parsers never hold the whole input.
///
/// Input that starts with the gzip magic bytes (a `.gz` file, or gzip piped in) is inflated
/// as it is read: parsers see the plain text, and memory stays flat.
public final class ByteReader {
    let fd: Int32
    private let ownsDescriptor: Bool
    /// The name used in messages (`movies.csv`, or `-` for stdin).
    public let name: String
    var buffer: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// Index of the next unread byte in `buffer`.
    var position = 0
    /// End of the valid bytes in `buffer`.
    var end = 0
    private(set) var atEOF = false
    /// Bytes handed out or skipped so far (for progress).
    public var bytesConsumed: Int { consumedBeforeBuffer + position }
    private var consumedBeforeBuffer = 0
    /// Total size when known (regular files), for progress percentages.
    public let totalBytes: Int?
    /// The size of the text the file holds, when known: `totalBytes`, or for a gzip file the
    /// size its trailer gives, or for a pipe that `readAhead` saw end, what it held. The importer
    /// sizes its work by it before parsing a row (a compressed size would count a third to a
    /// tenth of the rows).
    public internal(set) var textBytes: Int?
    /// A pipe's first bytes as read (`readAhead`), before any are inflated or decoded: handed
    /// out first.
    var ahead: [UInt8] = []
    var aheadOffset = 0
    /// The most bytes one record (a CSV or TSV line, a JSON object) may take: a line that never
    /// ends (a binary file, an unclosed quote) stops here with an error, not when memory runs out.
    /// A movie's record is a few hundred bytes; a long review a few thousand.
    public static let maxRecordBytes = 16 << 20
    /// `maxRecordBytes` as people read it, for messages.
    static let maxRecordText = "16 MiB"
    /// Asked while waiting on a pipe: true ends the read (the importer gave up on this input).
    var shouldStop: (@Sendable () -> Bool)?
    /// Inflates gzip input; nil for plain input.
    private var inflater: GzipInflater?
    /// Whether the first bytes were looked at for the gzip magic number yet.
    private var sniffed = false

    /// The one-byte encoding the input is read in (its first bytes were not UTF-8), turned into UTF-8.
    private(set) var singleByte: SingleByteEncoding?
    /// The input's UTF-16, when it is that (by its byte order mark, or its NUL bytes), turned into UTF-8.
    private var utf16: UTF16Text?
    /// The input's encoding when it is not UTF-8, for the import's report (`UTF-16, little-endian`).
    public var encodingNote: String? {
        if let singleByte { return singleByte.note }
        guard let utf16 else { return nil }
        return "UTF-16 (\(utf16.bigEndian ? "big" : "little")-endian)"
    }
    /// Whether the first plain bytes were looked at for their encoding yet (set before the first
    /// read: the importer's inputs are, the tests' byte buffers are not).
    var encodingSniffed = true
    /// Whether a one-byte encoding is told too (CSV and TSV: JSON is UTF-8 or UTF-16 by its
    /// standard, and no tool writes it otherwise); UTF-16 is told in every format.
    var maySingleByte = false
    /// Whether every byte handed out so far was ASCII, after a first 64 KiB that told no encoding:
    /// the first byte of 0x80 and above still tells one (a long list whose first accent comes late).
    private var asciiSoFar = false
    /// How the first 64 KiB's lines ended, for an encoding told later (Mac Roman ends them in CR).
    private var headLineEnds = (loneCR: false, lineFeed: false)
    /// Bytes read before UTF-16 was turned into UTF-8 (progress is against the file's size).
    private var utf16BytesRead = 0
    /// UTF-16 bytes as read, 64 KiB at a time (allocated when the input is UTF-16).
    private lazy var utf16Input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
    /// Their UTF-8, and how much of it was handed out.
    private var decoded: [UInt8] = []
    private var decodedOffset = 0
    /// Whether the UTF-16 input has ended (its last bytes decoded).
    private var utf16Ended = false

    /// Whether the input is gzip data being inflated.
    public var isCompressed: Bool { inflater != nil }

    /// The bytes still to be handed out, when the input's size is known: for gzip and UTF-16,
    /// those in the buffer and the rest of the file at the ratio of bytes made to bytes read so far.
    public var bytesLeft: Int? {
        guard let totalBytes else { return nil }
        guard inflater != nil || utf16 != nil else { return max(0, totalBytes - bytesConsumed) }
        let made = consumedBeforeBuffer + end, read = storedBytesConsumed
        guard read > 0 else { return nil }
        return max(0, made - bytesConsumed) + Int(min(Double(Int32.max), Double(max(0, totalBytes - read)) * Double(made) / Double(read)))
    }

    /// Input bytes read so far as stored (compressed bytes for gzip), for progress against `totalBytes`.
    public var storedBytesConsumed: Int { inflater?.compressedBytesRead ?? (utf16 == nil ? bytesConsumed : utf16BytesRead) }

    /// Opens a file, or stdin for `-`; a missing or unreadable file exits 66.
    public init(path: String, chunkSize: Int = 1 << 20) throws {
        if path == "-" {
            // Standard input redirected from a directory (`< .`) cannot be read (66, as a file).
            var info = stat()
            if fstat(0, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                throw CatalogError(.noInput, "cannot read standard input: it is a directory")
            }
            fd = 0
            ownsDescriptor = false
            name = "-"
            totalBytes = nil
            textBytes = nil
        } else {
            let opened = open(path, O_RDONLY)
            guard opened >= 0 else {
                throw CatalogError(.noInput, "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            var info = stat()
            if fstat(opened, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                close(opened)
                throw CatalogError(.noInput, "cannot read \(path): it is a directory")
            }
            fd = opened
            ownsDescriptor = true
            name = path
            totalBytes = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
            textBytes = totalBytes.map { Self.gzipTextBytes(opened, fileBytes: $0) ?? $0 }
        }
        capacity = chunkSize
        buffer = .allocate(capacity: chunkSize)
    }

    /// Bytes in memory that `readRaw` hands out as a file would, chunk by chunk (gzip sniffed too).
    private var memory: [UInt8]?
    private var memoryOffset = 0

    /// Whether `path` names the regular file this reads (same device and inode): `/dev/stdin`
    /// when standard input is a file, or a file opened where standard output would be. (A
    /// terminal, `/dev/null` or a socket may be both read and written.)
    public func reads(_ path: String) -> Bool {
        var mine = stat(), other = stat()
        guard fd >= 0, fstat(fd, &mine) == 0, stat(path, &other) == 0, (mine.st_mode & S_IFMT) == S_IFREG else { return false }
        return mine.st_dev == other.st_dev && mine.st_ino == other.st_ino
    }

    /// Reads bytes in memory through the same path as a file, `chunkSize` at a time: gzip data
    /// is inflated (fuzzing and tests).
    public init(streaming bytes: [UInt8], name: String = "<memory>", chunkSize: Int = 1 << 16) {
        fd = -1
        ownsDescriptor = false
        self.name = name
        capacity = max(chunkSize, 1)
        buffer = .allocate(capacity: capacity)
        totalBytes = bytes.count
        textBytes = Self.gzipTextBytes(head: bytes.prefix(2), tail: bytes.suffix(4), fileBytes: bytes.count) ?? bytes.count
        memory = bytes
    }

    /// Reads from bytes in memory (tests).
    public init(bytes: [UInt8], name: String = "<memory>") {
        fd = -1
        ownsDescriptor = false
        self.name = name
        capacity = max(bytes.count, 1)
        buffer = .allocate(capacity: capacity)
        buffer.initialize(from: bytes, count: bytes.count)
        end = bytes.count
        atEOF = true
        totalBytes = bytes.count
        textBytes = bytes.count
    }

    deinit {
        buffer.deallocate()
        if utf16 != nil { utf16Input.deallocate() }
        if ownsDescriptor { close(fd) }
    }

    /// Makes more bytes available, keeping unread ones; false at end of input.
    @discardableResult
    func refill() throws -> Bool {
        if atEOF { return false }
        let keep = position
        let unread = end - keep
        if keep > 0 {
            if unread > 0 { memmove(buffer, buffer + keep, unread) }   // the regions overlap
            consumedBeforeBuffer += keep
            position -= keep
            end = unread
        }
        if end == capacity {
            // A single record larger than the buffer: grow it.
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.initialize(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        let n = try readSome(into: buffer + end, count: capacity - end)
        if n == 0 { atEOF = true; return false }
        end += n
        return true
    }

    /// Reads text as UTF-8: Windows-1252 or UTF-16 turned into it when the input's first bytes are that.
    private func readSome(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if !encodingSniffed { try sniffEncoding() }
        // A byte of a one-byte encoding may take three of UTF-8: read a third of the room.
        if let singleByte { return singleByte.transcode(destination, count: try readPlain(into: destination, count: max(1, count / 3))) }
        if utf16 != nil { return try readUTF16(into: destination, count: count) }
        let n = try readPlain(into: destination, count: count)
        guard asciiSoFar else { return n }
        let handedOut = try tellLateEncoding(destination, count: n)
        // Nothing before the first byte told (it began what was read): read it again, told.
        return handedOut > 0 || n == 0 ? handedOut : try readSome(into: destination, count: count)
    }

    /// Looks for the first byte of 0x80 and above in what was just read (all ASCII before it),
    /// and tells the encoding from there as the first 64 KiB would have: UTF-8, or a one-byte
    /// encoding, read from that byte on (the same as reading the whole input so, the bytes before
    /// being ASCII). Returns how many of the bytes read to hand out now: the rest is read again.
    private func tellLateEncoding(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        // Eight bytes at a time: a list of millions of ASCII rows is scanned whole.
        var i = 0
        while i + 8 <= count {
            if UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
        while i < count && bytes[i] < 0x80 { i += 1 }
        guard i < count else { return count }
        asciiSoFar = false
        // Told from as many bytes as the first 64 KiB would have been: what was read from the
        // first byte of 0x80 and above on, read on to 64 KiB (a read may end just after it).
        var rest = Array(UnsafeBufferPointer(start: bytes + i, count: count - i))
        var more = [UInt8](repeating: 0, count: 1 << 16)
        var atEnd = false
        while rest.count < 1 << 16 {
            let n = try more.withUnsafeMutableBufferPointer { try readPlain(into: $0.baseAddress!, count: (1 << 16) - rest.count) }
            if n == 0 { atEnd = true; break }
            rest += more[..<n]
        }
        singleByte = rest.withUnsafeBufferPointer { SingleByteEncoding.detect($0, atEnd: atEnd, linesBefore: headLineEnds) }
        // Read again from its first byte, through the one-byte encoding if any (it may grow threefold).
        pushBack = rest + pushBack
        return i
    }

    /// Reads UTF-16 and writes it as UTF-8: at least one byte, or none at the end of the input.
    private func readUTF16(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        while decoded.isEmpty && !utf16Ended {
            let n = try readPlain(into: utf16Input.baseAddress!, count: utf16Input.count)
            utf16BytesRead += n
            utf16Ended = n == 0
            decoded.reserveCapacity(UTF16Text.room(for: utf16Input.count))
            let room = UTF16Text.room(for: n)
            decoded.append(contentsOf: repeatElement(0, count: room))
            let written = decoded.withUnsafeMutableBufferPointer {
                utf16!.decode(utf16Input.baseAddress!, count: n, into: $0.baseAddress!, atEnd: utf16Ended)
            }
            decoded.removeLast(room - written)
        }
        let n = min(count, decoded.count - decodedOffset)
        decoded.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + decodedOffset, count: n) }
        decodedOffset += n
        if decodedOffset == decoded.count { decoded.removeAll(keepingCapacity: true); decodedOffset = 0 }
        return n
    }

    /// Reads the first 64 KiB (or all there is) ahead, tells their encoding, and keeps them to be
    /// handed out first.
    private func sniffEncoding() throws {
        encodingSniffed = true
        let sniffStarted = monotonicSeconds()
        var head = [UInt8](repeating: 0, count: 1 << 16)
        var filled = 0
        var ended = false
        while filled < head.count {
            let n = try head.withUnsafeMutableBufferPointer { try readPlain(into: $0.baseAddress! + filled, count: $0.count - filled) }
            filled += n
            if n == 0 { ended = true; break }
            // A pipe: more while it is all ASCII so far and more comes within a second in all
            // (a stalled pipe must not hold up an import that may already fail on what came).
            if totalBytes == nil {
                guard maySingleByte, fd >= 0, !head[..<filled].contains(where: { $0 >= 0x80 }) else { break }
                let waited = Int32(((monotonicSeconds() - sniffStarted) * 1000).rounded())
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard waited < 1000, poll(&ready, 1, 1000 - waited) > 0 else { break }
            }
        }
        head.removeSubrange(filled...)
        utf16 = head.withUnsafeBufferPointer(UTF16Text.detect)
        singleByte = maySingleByte && utf16 == nil ? head.withUnsafeBufferPointer { SingleByteEncoding.detect($0, atEnd: ended) } : nil
        asciiSoFar = maySingleByte && utf16 == nil && singleByte == nil && !head.contains { $0 >= 0x80 }
        if asciiSoFar { headLineEnds = SingleByteEncoding.lineEnds(head) }
        pushBack = head
    }

    /// Bytes read ahead and not yet handed out (the first 64 KiB, read to tell the encoding).
    private var pushBack: [UInt8] = []

    /// Reads plain bytes: inflated when the input is gzip (told by its first two bytes).
    private func readPlain(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if !pushBack.isEmpty {
            let n = min(count, pushBack.count)
            pushBack.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: n) }
            pushBack.removeFirst(n)
            return n
        }
        if let inflater { return try inflater.inflate(into: destination, count: count, readRaw: readRaw) }
        guard !sniffed else { return try readRaw(into: destination, count: count) }
        sniffed = true
        // A pipe may hand out a single byte first: gather two before deciding.
        var n = try readRaw(into: destination, count: count)
        while n == 1 {
            let more = try readRaw(into: destination + 1, count: count - 1)
            if more == 0 { break }
            n += more
        }
        guard n >= 2, destination[0] == 0x1F, destination[1] == 0x8B else { return n }
        let started = try GzipInflater(name: name, prefix: UnsafeBufferPointer(start: destination, count: n))
        inflater = started
        return try started.inflate(into: destination, count: count, readRaw: readRaw)
    }

    /// Reads bytes as stored; 0 at the end of the input.
    private func readRaw(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if aheadOffset < ahead.count {
            let n = min(count, ahead.count - aheadOffset)
            ahead.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + aheadOffset, count: n) }
            aheadOffset += n
            if aheadOffset == ahead.count { (ahead, aheadOffset) = ([], 0) }
            return n
        }
        if let memory {
            let n = min(count, memory.count - memoryOffset)
            memory.withUnsafeBufferPointer { destination.update(from: $0.baseAddress! + memoryOffset, count: n) }
            memoryOffset += n
            return n
        }
        while true {
            if let shouldStop, totalBytes == nil {
                // A pipe may stall for long: wait in short slices so an abandoned read can end.
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let polled = poll(&ready, 1, 100)
                if shouldStop() { throw CatalogError(.ioError, "\(name): reading stopped") }
                if polled == 0 || (polled < 0 && errno == EINTR) { continue }
            }
            let n = read(fd, destination, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw CatalogError(.ioError, "cannot read \(name): \(String(cString: strerror(errno)))")
        }
    }

    /// The next byte without consuming it, or nil at end of input.
    @inline(__always)
    public func peek() throws -> UInt8? {
        if position == end, try !refill() { return nil }
        return buffer[position]
    }

    /// Up to `count` of the next bytes without consuming them: fewer when the input ends, or
    /// when what was read so far holds fewer (a pipe may deliver its first bytes one by one).
    public func peek(_ count: Int) throws -> [UInt8] {
        if position == end, try !refill() { return [] }
        return Array(UnsafeBufferPointer(start: buffer + position, count: min(count, end - position)))
    }

    /// The next byte, consumed, or nil at end of input.
    @inline(__always)
    public func next() throws -> UInt8? {
        if position == end, try !refill() { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    /// Appends bytes to `output` up to the first one for which `isStop` is true and returns
    /// that byte unconsumed, or nil at end of input or once `output` holds more than `limit`
    /// bytes. Copies whole runs, which is much faster than byte-by-byte `next()` for long
    /// tokens such as string bodies.
    @inline(__always)
    func scan(into output: inout [UInt8], limit: Int, until isStop: (UInt8) -> Bool) throws -> UInt8? {
        while true {
            var index = position
            while index < end, !isStop(buffer[index]) { index += 1 }
            if index > position {
                output.append(contentsOf: UnsafeBufferPointer(start: buffer + position, count: index - position))
                position = index
            }
            if index < end { return buffer[index] }
            if output.count > limit { return nil }
            if try !refill() { return nil }
        }
    }
}

import MovieDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an input's size is before it is parsed (`ByteReader.textBytes`): how an import writes
/// (bulk load or row by row, facet rows deferred, the repeat sieve's size) is chosen from it.
extension ByteReader {
    /// Reads a pipe's first bytes, up to `limit`, as they come (nothing is inflated or decoded
    /// yet, so nothing else waits), for at most `seconds` and `patience` milliseconds a delivery:
    /// a stalled or slow upstream is not waited for, and an error in its first rows is met at once.
    /// True when the input ended within them; its size is then in `textBytes`.
    func readAhead(_ limit: Int, within seconds: Double = 1, patience: Int32 = 250) throws -> Bool {
        guard fd >= 0, totalBytes == nil, ahead.isEmpty else { return false }
        let deadline = monotonicSeconds() + seconds
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var ended = false
        while ahead.count < limit {
            let left = Int32(max(0, (deadline - monotonicSeconds()) * 1000))
            guard left > 0 else { break }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, min(patience, left))
            if polled < 0 && errno == EINTR { continue }
            guard polled > 0 else { break }
            let n = read(fd, &chunk, min(chunk.count, limit - ahead.count))
            if n < 0 {
                if errno == EINTR { continue }
                throw CatalogError(.ioError, "cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { ended = true; break }
            ahead.append(contentsOf: chunk[0..<n])
        }
        if ended { textBytes = Self.gzipTextBytes(head: ahead.prefix(2), tail: ahead.suffix(4), fileBytes: ahead.count) ?? ahead.count }
        return ended
    }

    /// The text size a gzip file holds, from its trailer (its last four bytes, little-endian: the
    /// size modulo 2^32); nil when the file does not start as gzip. A trailer that says less than
    /// the file could hold (several members joined and a short last one, padding after the
    /// stream, over 4 GiB of text) is not taken as it is: past 256 MiB as the smallest size of
    /// those modulo 2^32 that could, and below as three times the file (lists compress three to
    /// six times).
    static func gzipTextBytes(_ fd: Int32, fileBytes: Int) -> Int? {
        var head = [UInt8](repeating: 0, count: 2), tail = [UInt8](repeating: 0, count: 4)
        guard fileBytes >= 18, pread(fd, &head, 2, 0) == 2, pread(fd, &tail, 4, off_t(fileBytes - 4)) == 4 else { return nil }
        return gzipTextBytes(head: head, tail: tail, fileBytes: fileBytes)
    }

    /// `gzipTextBytes` of a file's first two and last four bytes.
    static func gzipTextBytes(head: some Collection<UInt8>, tail: some Collection<UInt8>, fileBytes: Int) -> Int? {
        guard fileBytes >= 18, head.elementsEqual([0x1F, 0x8B]), tail.count == 4 else { return nil }
        let modulo = tail.reversed().reduce(0) { $0 << 8 | Int($1) }
        // Deflate's stored blocks and the header (a name, a comment) make a file at most this much larger.
        let least = fileBytes - fileBytes / 1024 - (1 << 10)
        if modulo >= least { return modulo }
        guard fileBytes >= 1 << 28 else { return fileBytes * 3 }
        return modulo + ((least - modulo + (1 << 32) - 1) >> 32) << 32
    }
}

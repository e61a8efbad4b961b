import MovieDomain
import SQLiteStore
import CZlib

/// Inflates a gzip stream read through a function, into the caller's buffer.
///
/// Concatenated gzip members (as `cat a.gz b.gz` makes) are read one after another. A stream
/// that ends early, or bytes that are not gzip data, are data errors naming the input.
final class GzipInflater {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)   // zlib keeps its address
    private let input: UnsafeMutablePointer<UInt8>
    private let inputCapacity = 1 << 18
    private let name: String
    /// True once the compressed input is exhausted.
    private var inputEnded = false
    /// True between a member's end and the next member's first byte.
    private var betweenMembers = false

    /// Starts inflating; `prefix` holds compressed bytes already read (the magic number sniffed).
    init(name: String, prefix: UnsafeBufferPointer<UInt8>) throws {
        self.name = name
        input = .allocate(capacity: max(inputCapacity, prefix.count))
        if let base = prefix.baseAddress { input.initialize(from: base, count: prefix.count) }
        stream.initialize(to: z_stream())
        stream.pointee.next_in = input
        stream.pointee.avail_in = UInt32(prefix.count)
        guard moviecat_inflate_init_gzip(stream) == Z_OK else {
            input.deallocate()
            stream.deallocate()
            throw CatalogError(.ioError, "\(name): cannot start reading gzip data")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// Compressed bytes consumed so far (for progress against the file's size).
    var compressedBytesRead: Int { Int(stream.pointee.total_in) }

    /// Inflates up to `count` bytes into `destination`; 0 at the end of the stream.
    /// `readRaw` reads compressed bytes, returning 0 at the end of the input.
    func inflate(into destination: UnsafeMutablePointer<UInt8>, count: Int,
                 readRaw: (UnsafeMutablePointer<UInt8>, Int) throws -> Int) throws -> Int {
        let s = stream
        s.pointee.next_out = destination
        s.pointee.avail_out = UInt32(min(count, Int(UInt32.max)))
        while s.pointee.avail_out == UInt32(min(count, Int(UInt32.max))) {
            if s.pointee.avail_in == 0 && !inputEnded {
                let n = try readRaw(input, inputCapacity)
                if n == 0 { inputEnded = true } else {
                    s.pointee.next_in = input
                    s.pointee.avail_in = UInt32(n)
                }
            }
            if betweenMembers {
                // Another member follows only if more bytes do; trailing zero padding ends the file too.
                if s.pointee.avail_in == 0 { return 0 }
                if s.pointee.next_in.pointee != 0x1F {
                    if UnsafeBufferPointer(start: s.pointee.next_in, count: Int(s.pointee.avail_in)).allSatisfy({ $0 == 0 }) {
                        s.pointee.avail_in = 0
                        continue
                    }
                    throw CatalogError(.dataError, "\(name): corrupt gzip data: unexpected bytes after the end of the stream")
                }
                inflateReset(s)
                betweenMembers = false
            }
            if s.pointee.avail_in == 0 && inputEnded {
                throw CatalogError(.dataError, "\(name): truncated gzip data: the file ends inside the compressed stream")
            }
            let rc = CZlib.inflate(s, Z_NO_FLUSH)
            switch rc {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                betweenMembers = true
            default:
                let reason = s.pointee.msg.map { String(cString: $0) } ?? "error \(rc)"
                throw CatalogError(.dataError, "\(name): corrupt gzip data: \(reason)")
            }
        }
        return count - Int(s.pointee.avail_out)
    }
}

import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
/// write(2), named apart from `TextOutput.write`.
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Buffered writing to a file descriptor (stdout, stderr or a file), flushed in large blocks.
public final class TextOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 16
    private let ownsDescriptor: Bool
    /// What messages call this output ("standard output", or the file's path).
    private let name: String
    /// The first write error, kept until `flush()` reports it.
    private var failure: CatalogError?

    /// Standard output.
    public static func standardOutput() -> TextOutput { TextOutput(fd: 1, name: "standard output") }

    /// Standard error.
    public static func standardError() -> TextOutput { TextOutput(fd: 2, name: "standard error") }

    init(fd: Int32, name: String, ownsDescriptor: Bool = false) {
        self.fd = fd
        self.name = name
        self.ownsDescriptor = ownsDescriptor
        buffer.reserveCapacity(flushThreshold + 1024)
    }

    /// Creates (or truncates) a file for writing; failure is an I/O error naming the path.
    public convenience init(creatingFile path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw CatalogError(.ioError, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.init(fd: fd, name: path, ownsDescriptor: true)
    }

    deinit {
        try? flush()
        if ownsDescriptor { close(fd) }
    }

    /// True when this descriptor is a terminal.
    public var isTerminal: Bool { isatty(fd) == 1 }

    /// Appends text; a write error surfaces at the next `flush()`.
    public func write(_ text: String) {
        write(bytes: text.utf8)
    }

    /// Appends bytes as they are (a rejects file's fields as read).
    public func write<Bytes: Sequence<UInt8>>(bytes: Bytes) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushThreshold { drain() }
    }

    private func drain() {
        do { try flush() } catch let error as CatalogError { failure = failure ?? error } catch {}
    }

    /// Writes everything buffered; throws the first write error, naming this output.
    public func flush() throws {
        if let failure { throw failure }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                failure = CatalogError(.ioError, "cannot write \(name): \(String(cString: strerror(errno)))")
                throw failure!
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// The terminal's width in columns: `$COLUMNS`, else the terminal's size, else nil (not a terminal).
    public func terminalColumns(environment: [String: String]) -> Int? {
        guard isTerminal else { return nil }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Room for the texts of one batch of binds, so that SQLite reads them where they are instead of
/// copying each into memory of its own (`SQLITE_STATIC`): a bulk insert binds some three texts a
/// row, and the copies (a malloc, a memcpy and a free each) were a fifth of its binding work.
///
/// Texts copied in stay until `clear(reserving:)`, which the caller calls only once the
/// statements that bound them have been stepped and are rebound before their next step.
public final class TextArena {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var used = 0

    /// An arena of `capacity` bytes to start with.
    public init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Forgets the texts held and makes room for `bytes` more.
    public func clear(reserving bytes: Int) {
        used = 0
        guard bytes > capacity else { return }
        base.deallocate()
        capacity = max(bytes, 2 * capacity)
        base = .allocate(capacity: capacity)
    }

    /// A copy of `text`'s UTF-8 bytes, valid until `clear`; nil when they do not fit.
    func copy(_ text: String) -> UnsafeBufferPointer<UInt8>? {
        let count = text.utf8.count
        guard capacity - used >= count else { return nil }
        let start = base + used
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            if let source = bytes.baseAddress { start.update(from: source, count: bytes.count) }
            return true
        }
        guard copied != nil else { return nil }
        used += count
        return UnsafeBufferPointer(start: start, count: count)
    }
}

extension String {
    /// Calls `body` with the text's UTF-8 bytes read in place (a bridged string's copied). Tests
    /// of bytes run on every cell of an import, and the standard library's `utf8` view steps
    /// through its indexes several times slower than a buffer's loop.
    @inlinable
    public func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try Array(utf8).withUnsafeBufferPointer(body)
    }
}

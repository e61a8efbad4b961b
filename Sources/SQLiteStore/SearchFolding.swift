import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The title test's folding and search beyond ASCII, in bytes (`moviecat_contains_any`).
extension Database {
    /// UTF-8 text's bytes `searchFolded`, as String's `lowercased()` makes them (each scalar's
    /// lower-case mapping) but with ASCII lowered byte by byte: a title with one `é` sent every
    /// letter through Unicode's tables (`filter title:é --count` over 9.5M titles: 5.0 s, then 1.9 s).
    static func searchFolded(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        withSearchFolded(bytes) { Array($0) }
    }

    /// Lends `body` the bytes `searchFolded`, made in scratch storage (a new array for each title
    /// cost some 500 instructions, most of them looking up its generic type): a byte folds to at
    /// most three (one that is no UTF-8 becomes U+FFFD), and a run lowered as a String is
    /// checked to fit all the same.
    static func withSearchFolded<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, 3 * bytes.count)) { out in
            var index = 0, end = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    out[end] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    end += 1
                    index += 1
                    continue
                }
                // Latin-1's letters (U+00C0 to U+00FF, lead byte 0xC3), the most common beyond ASCII,
                // by their table: the capitals but U+00D7 are their small letter less 0x20.
                if byte == 0xC3, index + 1 < bytes.count, bytes[index + 1] & 0xC0 == 0x80 {
                    let next = bytes[index + 1]
                    out[end] = byte
                    out[end + 1] = next <= 0x9E && next != 0x97 ? next + 0x20 : next
                    end += 2
                    index += 2
                    continue
                }
                // The run of bytes up to the next ASCII one or Latin-1 lead byte (a lead byte ends
                // any sequence before it), lowered as a String (bytes that are no UTF-8 decode as
                // U+FFFD, as String(decoding:) makes them).
                var runEnd = index + 1
                while runEnd < bytes.count && bytes[runEnd] >= 0x80 && bytes[runEnd] != 0xC3 { runEnd += 1 }
                let run = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<runEnd]), as: UTF8.self).searchFolded.utf8
                guard end + run.count <= out.count else {
                    return Array(String(decoding: bytes, as: UTF8.self).searchFolded.utf8).withUnsafeBufferPointer { body($0) }
                }
                for folded in run {
                    out[end] = folded
                    end += 1
                }
                index = runEnd
            }
            return body(UnsafeBufferPointer(rebasing: out[0..<end]))
        }
    }

    /// Whether every byte is ASCII, tested eight at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// Whether an ASCII title of `length` bytes cannot hold a (lower-cased) text value: it is
    /// longer, or has a byte beyond ASCII.
    static func cannotHold(_ length: Int, _ value: OpaquePointer?) -> Bool {
        guard let value, let text = sqlite3_value_text(value) else { return false }
        let count = Int(sqlite3_value_bytes(value))
        return count > length || UnsafeBufferPointer(start: text, count: count).contains { $0 >= 0x80 }
    }

    /// Whether `needle`'s bytes occur in `haystack`: each place of its first byte found by
    /// `memchr`, the rest compared there.
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
        let base = haystack.baseAddress!, last = haystack.count - needle.count
        var start = 0
        while start <= last, let found = memchr(base + start, Int32(first), last - start + 1) {
            let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + at, needle.baseAddress!, needle.count) == 0 { return true }
            start = at + 1
        }
        return false
    }
}

extension String {
    /// The text as the title test compares it (a title in `moviecat_contains_any`, and the text
    /// searched for): in Unicode lower case, with Greek final sigma as sigma, since lower case
    /// makes a final capital sigma `σ` where the word written in lower case ends in `ς`
    /// (`ΣΊΣΥΦΟΣ`, `σίσυφος`).
    public var searchFolded: String {
        let lower = lowercased()
        guard lower.utf8.contains(0xCF) else { return lower }
        // Scalar by scalar: `replacing` compares characters, and missed a final sigma that a
        // combining mark follows (`ς̇`).
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: lower.unicodeScalars.lazy.map { $0 == "\u{3C2}" ? "\u{3C3}" : $0 })
        return String(scalars)
    }
}

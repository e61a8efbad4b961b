import MovieDomain

/// Spots, while a bulk load appends, the keys that may repeat, in memory that does not grow
/// with the rows' size: a blocked Bloom filter of key hashes. A row whose hash the filter has
/// seen makes that hash a candidate; at the end only the movies with a candidate hash are
/// folded (`RepeatFolder` compares their keys exactly, so a false candidate, from a hash
/// collision or the filter's 1 % false positives, only costs a little time).
struct RepeatSieve {
    /// Bits in one layer of the filter: 512-bit blocks (one cache line), 10 bits a key.
    private struct Layer {
        var words: [UInt64]
        let capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            words = [UInt64](repeating: 0, count: max(8, capacity * 10 / 512 * 8))
        }

        /// The first word of the hash's block; its 7 probe bits come from `probeBits`.
        @inline(__always)
        private func block(of hash: UInt64) -> Int { Int((hash >> 32) % UInt64(words.count / 8)) * 8 }

        /// Seven 9-bit positions within a block, from the hash mixed again.
        @inline(__always)
        private static func probeBits(_ hash: UInt64) -> UInt64 { hash &* 0x9E37_79B9_7F4A_7C15 }

        func contains(_ hash: UInt64) -> Bool {
            let block = block(of: hash)
            var bits = Self.probeBits(hash)
            for _ in 0..<7 {
                let bit = Int(bits & 511)
                if words[block + (bit >> 6)] & (1 << UInt64(bit & 63)) == 0 { return false }
                bits >>= 9
            }
            return true
        }

        mutating func insert(_ hash: UInt64) {
            let block = block(of: hash)
            var bits = Self.probeBits(hash)
            for _ in 0..<7 {
                let bit = Int(bits & 511)
                words[block + (bit >> 6)] |= 1 << UInt64(bit & 63)
                bits >>= 9
            }
            count += 1
        }
    }

    private var layers: [Layer]
    /// Hashes seen again (with repeats), at most `candidateLimit` of them.
    private var candidates: [UInt64] = []
    private let candidateLimit: Int
    /// More keys repeat than `candidateLimit`: every movie is a candidate.
    private(set) var overflowed = false

    /// A sieve whose first layer holds `capacity` keys (it grows in layers past that), that
    /// gives up on narrowing beyond `candidateLimit` repeats (8 bytes each).
    init(capacity: Int = 1 << 22, candidateLimit: Int = 1 << 20) {
        layers = [Layer(capacity: capacity)]
        self.candidateLimit = candidateLimit
    }

    /// Whether any key may have repeated so far.
    var mayRepeat: Bool { overflowed || !candidates.isEmpty }

    /// Records a key's hash; notes it as a candidate when it may have been seen before.
    mutating func add(_ hash: UInt64) {
        if contains(hash) {
            addCandidate(hash)
            return
        }
        if layers[layers.count - 1].count >= layers[layers.count - 1].capacity {
            layers.append(Layer(capacity: layers[layers.count - 1].capacity * 2))
        }
        layers[layers.count - 1].insert(hash)
    }

    /// Whether the filter may have seen `hash` (never false for one it has).
    func contains(_ hash: UInt64) -> Bool {
        layers.contains { $0.contains(hash) }
    }

    /// Makes `hash` a candidate (for a stored movie whose key an appended row may repeat).
    mutating func addCandidate(_ hash: UInt64) {
        guard !overflowed else { return }
        if candidates.count == candidateLimit {
            // Duplicates first: a key repeated many times is one candidate.
            Self.sortDistinct(&candidates)
            if candidates.count * 2 > candidateLimit {
                overflowed = true
                candidates = []
                return
            }
        }
        candidates.append(hash)
    }

    /// Frees the filter and the candidates, once the fold will look at every movie instead
    /// (their 1.25 bytes a key are then the largest part of the import's memory).
    mutating func release() {
        layers = []
        candidates = []
    }

    /// The candidate hashes, sorted and distinct, for `isCandidate`; frees the filter.
    mutating func finish() -> [UInt64] {
        layers = []
        var sorted = candidates
        candidates = []
        Self.sortDistinct(&sorted)
        return sorted
    }

    /// Sorts `hashes` and drops repeats, in place (a Set would take twice the memory).
    private static func sortDistinct(_ hashes: inout [UInt64]) {
        hashes.sort()
        var kept = 0
        for i in hashes.indices where kept == 0 || hashes[kept - 1] != hashes[i] {
            hashes[kept] = hashes[i]
            kept += 1
        }
        hashes.removeLast(hashes.count - kept)
    }

    /// Whether a hash is one of `sorted` (binary search).
    static func isCandidate(_ hash: UInt64, in sorted: [UInt64]) -> Bool {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < hash { lo = mid + 1 } else { hi = mid }
        }
        return lo < sorted.count && sorted[lo] == hash
    }

    /// The hash of a movie's key as the natural-key index compares it: the title with ASCII
    /// letters folded (NOCASE folds no others), the year (0 when missing) and the IMDb id
    /// (none when missing). FNV-1a, then mixed so that every bit depends on every byte.
    private static func mix(title: UnsafeBufferPointer<UInt8>?, year: Int?, imdbID: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in title ?? UnsafeBufferPointer(start: nil, count: 0) {
            h = (h ^ UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)) &* 0x100_0000_01B3
        }
        // A separator no UTF-8 text holds, so ("ab", 1) and ("a", ...) cannot run together.
        h = (h ^ 0xFF) &* 0x100_0000_01B3
        var y = UInt64(bitPattern: Int64(year ?? 0))
        for _ in 0..<8 {
            h = (h ^ (y & 0xFF)) &* 0x100_0000_01B3
            y >>= 8
        }
        for byte in imdbID ?? UnsafeBufferPointer(start: nil, count: 0) { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        // SplitMix64's finaliser: FNV's high bits alone are weak.
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }

    /// The hash of a movie's key, from its stored bytes: the IMDb id alone when `byIMDbID`, else
    /// the title and year (the one place that says which fields a key is).
    static func hash(title: UnsafeBufferPointer<UInt8>?, year: Int?, imdbID: UnsafeBufferPointer<UInt8>?, byIMDbID: Bool) -> UInt64 {
        byIMDbID ? mix(title: nil, year: nil, imdbID: imdbID) : mix(title: title, year: year, imdbID: nil)
    }

    /// The key hash of a movie's values (see `hash(title:year:imdbID:byIMDbID:)`).
    static func hash(of movie: Movie, byIMDbID: Bool) -> UInt64 {
        var title = movie.title, id = movie.imdbID ?? ""
        return title.withUTF8 { t in id.withUTF8 { hash(title: t, year: movie.year, imdbID: $0, byIMDbID: byIMDbID) } }
    }
}

import MovieDomain

/// Tells, while a bulk load appends, the rows whose key may repeat an earlier one from those
/// whose key surely does not, in memory that does not grow with the rows' size: a blocked Bloom
/// filter of key hashes. A row it has surely not seen is appended at once; one it may have seen
/// is set aside and merged by key at the end (`RepeatMerger` compares keys exactly, so a false
/// "maybe", from a hash collision or the filter's 1 % false positives, only costs a little time).
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
    /// The fewest keys a sieve sized for an input holds (80 KB).
    static let smallest = 1 << 16
    /// The first layer of a sieve for an input of unknown size (stdin): 4M keys.
    static let unknownCapacity = 1 << 22
    /// The most keys one layer holds (16M, 20 MB): a larger input adds layers.
    static let largestLayer = 1 << 24
    /// The keys each layer holds before another is added.
    var capacities: [Int] { layers.map(\.capacity) }
    /// The keys still to come as the loader projects them from the rows read so far and the
    /// input's size (nil: unknown, as on stdin); the next layer is sized by it.
    var keysToCome: Int?
    /// Says "maybe seen" of every key: for tests of the merge, which then gets every row.
    private let seesEverything: Bool

    /// A sieve whose first layer holds `capacity` keys, else the `expectedKeys` (at least 65,536,
    /// at most `largestLayer`), else 4M. Past a full layer one is added for the keys still to come
    /// (`keysToCome`), or as many as the layers so far hold when that is more (the projection was
    /// short, as when the rows a layout keeps come late in the file: the sieve at least doubles),
    /// or twice the last one with no projection: each layer is one more lookup a row and one more
    /// chance of a false "maybe", and only as much as the input needs is taken. With
    /// `seesEverything`, one that takes every key for a possible repeat.
    init(capacity: Int? = nil, expectedKeys: Int? = nil, seesEverything: Bool = false) {
        let first = capacity ?? expectedKeys.map { min(Self.largestLayer, max(Self.smallest, $0)) } ?? Self.unknownCapacity
        layers = [Layer(capacity: first)]
        self.seesEverything = seesEverything
    }

    /// The rows a first layer is made for: those the first batch projects, but at least those
    /// the input's size suggests up to 4M (a file whose kept rows come late, a layout's movies
    /// after its shorts, projects few at first) and at most 4M unless the size suggests more (a
    /// file of a few short rows and then long ones projects too many): one batch says little.
    static func firstLayerRows(projected: Int, bySize: Int) -> Int {
        min(max(projected, min(unknownCapacity, bySize)), max(unknownCapacity, bySize))
    }

    /// The keys the next layer holds after layers of `capacities` (see `init`).
    static func nextCapacity(after capacities: [Int], keysToCome: Int?) -> Int {
        guard let keysToCome else { return min(largestLayer, (capacities.last ?? smallest) * 2) }
        return min(largestLayer, max(keysToCome, capacities.reduce(0, +)))
    }

    /// Frees the filter (1.25 bytes a key) once the append is over, so the index builds and the
    /// merge run without it; the sieve is not asked again.
    mutating func release() {
        layers = [Layer(capacity: 0)]
    }

    /// Records a key's hash; true when the key may have been seen before (never false for one
    /// that has).
    mutating func insert(_ hash: UInt64) -> Bool {
        if seesEverything || layers.contains(where: { $0.contains(hash) }) { return true }
        if layers[layers.count - 1].count >= layers[layers.count - 1].capacity {
            layers.append(Layer(capacity: Self.nextCapacity(after: capacities, keysToCome: keysToCome)))
        }
        layers[layers.count - 1].insert(hash)
        return false
    }

    /// Writes into `key` a movie's key as the natural-key index compares it: the IMDb id alone
    /// when `byIMDbID`, else the title with ASCII letters folded (NOCASE folds no others), a
    /// separator no UTF-8 text holds (so ("ab", 1) and ("a", ...) cannot run together), and the
    /// year's eight bytes (0 when missing). Equal keys have equal bytes, and only they: the one
    /// place that says which fields a key is.
    static func key(title: UnsafeBufferPointer<UInt8>?, year: Int?, imdbID: UnsafeBufferPointer<UInt8>?, byIMDbID: Bool,
                    into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        if byIMDbID {
            key.append(contentsOf: imdbID ?? UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        key.append(contentsOf: title ?? UnsafeBufferPointer(start: nil, count: 0))
        finishTitleKey(year: year, &key)
    }

    /// The key of a movie's values (see `key(title:year:imdbID:byIMDbID:into:)`), copied from
    /// its strings' bytes in one go (a load computes one a row).
    static func key(of movie: Movie, byIMDbID: Bool, into key: inout [UInt8]) {
        key.removeAll(keepingCapacity: true)
        if byIMDbID {
            key.append(contentsOf: (movie.imdbID ?? "").utf8)
            return
        }
        key.append(contentsOf: movie.title.utf8)
        finishTitleKey(year: movie.year, &key)
    }

    /// Whether two movies have the same key (`key(of:)`'s bytes equal), compared in place: a row
    /// that may repeat a held one is compared without building either key.
    static func sameKey(_ a: Movie, _ b: Movie, byIMDbID: Bool) -> Bool {
        if byIMDbID { return (a.imdbID ?? "").withUTF8Bytes { x in (b.imdbID ?? "").withUTF8Bytes { x.elementsEqual($0) } } }
        guard (a.year ?? 0) == (b.year ?? 0) else { return false }
        return a.title.withUTF8Bytes { x in
            b.title.withUTF8Bytes { y in
                guard x.count == y.count else { return false }
                // Bytes that differ must be one ASCII letter in two cases.
                for i in 0..<x.count where x[i] != y[i] {
                    let lower = x[i] | 0x20
                    guard lower == y[i] | 0x20, lower &- 0x61 < 26 else { return false }
                }
                return true
            }
        }
    }

    /// Folds the title in `key` (all of it) and appends the separator and the year.
    private static func finishTitleKey(year: Int?, _ key: inout [UInt8]) {
        key.withUnsafeMutableBufferPointer { bytes in
            for i in bytes.indices where bytes[i] &- 0x41 < 26 { bytes[i] |= 0x20 }
        }
        key.append(0xFF)
        var year = UInt64(bitPattern: Int64(year ?? 0))
        for _ in 0..<8 {
            key.append(UInt8(truncatingIfNeeded: year))
            year >>= 8
        }
    }

    /// The hash of a key's bytes: FNV-1a, then mixed so that every bit depends on every byte.
    static func hash(_ key: [UInt8]) -> UInt64 {
        var h = hashStart
        for byte in key { h = hashStep(h, byte) }
        return hashEnd(h)
    }

    private static let hashStart: UInt64 = 0xCBF2_9CE4_8422_2325

    @inline(__always)
    private static func hashStep(_ h: UInt64, _ byte: UInt8) -> UInt64 { (h ^ UInt64(byte)) &* 0x100_0000_01B3 }

    /// SplitMix64's finaliser: FNV's high bits alone are weak.
    @inline(__always)
    private static func hashEnd(_ h: UInt64) -> UInt64 {
        var h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h >> 31)
    }

    /// The hash of a movie's key, `hash` of `key(of:)`'s bytes, computed from its strings without
    /// building the key: rows get theirs where they are parsed, off the writer's thread.
    static func hash(of movie: Movie, byIMDbID: Bool) -> UInt64 {
        var h = hashStart
        func step(_ text: String, folding: Bool) {
            var text = text
            text.withUTF8 { bytes in
                for byte in bytes { h = hashStep(h, folding && byte &- 0x41 < 26 ? byte | 0x20 : byte) }
            }
        }
        if byIMDbID {
            step(movie.imdbID ?? "", folding: false)
            return hashEnd(h)
        }
        step(movie.title, folding: true)
        h = hashStep(h, 0xFF)
        var year = UInt64(bitPattern: Int64(movie.year ?? 0))
        for _ in 0..<8 {
            h = hashStep(h, UInt8(truncatingIfNeeded: year))
            year >>= 8
        }
        return hashEnd(h)
    }
}

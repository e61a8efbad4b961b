/// The stored movies an import has updated, so a second row for one counts as a repeat: a
/// sparse bit set of ids (64 to an entry), a few MB for a catalog of millions, no SQL per row.
struct TouchedIDs {
    private var words: [Int64: UInt64] = [:]

    /// Records `id`; true when it was not recorded before.
    mutating func insert(_ id: Int64) -> Bool {
        let bit: UInt64 = 1 << UInt64(id & 63)
        let key = id >> 6
        let word = words[key, default: 0]
        guard word & bit == 0 else { return false }
        words[key] = word | bit
        return true
    }
}

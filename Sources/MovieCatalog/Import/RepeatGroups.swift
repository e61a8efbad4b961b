import SQLiteStore

/// Finds which movie each repeat a bulk load set aside belongs to, from the key hashes of every
/// row and stored movie sorted in Swift (`KeyRuns`), and writes the groups to
/// `temp.import_groups` in id order, for `RepeatMerger`.
///
/// Rows with one key have one hash, so a key's rows are neighbours in the sorted hashes: its
/// owner (the stored movie or the row appended first, which carry only their hash and id) and
/// its set-aside rows (which carry their key's bytes too). Two keys that share a hash are told
/// apart exactly: set-aside rows by their bytes, an owner by comparing its movie's key with the
/// group's last row in SQL. When that happens (about once in 2^64 pairs), nothing is written and
/// the merge groups by SQL instead. Unlike SQL's GROUP BY title, this needs no natural-key index
/// during the merge (it is built once, after) and sorts integers rather than folded titles.
enum RepeatGroups {
    private static let rowsPerInsert = 64

    /// Writes the groups of `keys` (drained); false, with none written, when two keys share a hash.
    static func write(_ db: Database, keys: KeyRuns, key: RepeatMerger.Key, maxIDBefore: Int64) throws -> Bool {
        var scan = Scan(maxIDBefore: maxIDBefore)
        try keys.drain { try scan.add($0) }
        try scan.close()
        if scan.shared { return false }
        try insert(db, scan.byKeep)
        // An owner whose hash a group's key shares without being its key: no group is trusted.
        let wrong = try db.intScalar("""
            SELECT count(*) FROM temp.import_groups g CROSS JOIN movies m ON m.id = g.keep
                   CROSS JOIN temp.import_later l ON l.id = g.last
             WHERE g.kind <> \(RepeatMerger.Kind.new.rawValue) AND NOT (\(key.match("l")))
            """)
        if wrong > 0 {
            try db.execute("DELETE FROM temp.import_groups")
            return false
        }
        return true
    }

    /// The sorted records of one hash at a time, closed into a group when set-aside rows are among them.
    private struct Scan {
        let maxIDBefore: Int64
        /// The groups, by the movie they keep.
        let byKeep = KeyRuns()
        /// Whether two keys share a hash.
        private(set) var shared = false
        private var hash: UInt64 = 0, started = false
        /// The owners (stored movies and appended rows) of the hash, and the smallest one.
        private var owners = 0, owner: Int64 = 0
        /// The set-aside rows of the hash: how many, the first and last, the first one's key.
        private var count: Int64 = 0, first: Int64 = 0, last: Int64 = 0
        private var bytes: [UInt8] = []

        init(maxIDBefore: Int64) {
            self.maxIDBefore = maxIDBefore
        }

        mutating func add(_ record: KeyRuns.Record) throws {
            if !started || record.key != hash {
                try close()
                (hash, started, owners, count) = (record.key, true, 0, 0)
            }
            if record.bytes.isEmpty {
                // Sorted by id within a hash: the first owner is the smallest id.
                if owners == 0 { owner = record.id }
                owners += 1
            } else {
                if count == 0 {
                    bytes.removeAll(keepingCapacity: true)
                    bytes.append(contentsOf: record.bytes)
                    first = record.id
                } else if !bytes.elementsEqual(record.bytes) {
                    shared = true
                }
                last = record.id
                count += 1
            }
        }

        /// Ends the current hash: a group when set-aside rows had it.
        mutating func close() throws {
            guard count > 0 else { return }
            if owners > 1 { shared = true }
            let kind: RepeatMerger.Kind = owners == 0 ? .new : owner <= maxIDBefore ? .stored : .appended
            var payload = [UInt8](repeating: 0, count: 9)
            withUnsafeBytes(of: count.littleEndian) { payload.replaceSubrange(0..<8, with: $0) }
            payload[8] = UInt8(kind.rawValue)
            try payload.withUnsafeBufferPointer { try byKeep.add(key: order(owners == 0 ? first : owner), id: last, bytes: $0) }
            count = 0
        }
    }

    /// A sort key that orders ids (signed) as unsigned integers.
    private static func order(_ id: Int64) -> UInt64 { UInt64(bitPattern: id) ^ (1 << 63) }

    /// Inserts the groups, in id order, several rows a statement.
    private static func insert(_ db: Database, _ groups: KeyRuns) throws {
        let head = "INSERT INTO temp.import_groups (keep, last, n, kind) VALUES "
        let many = try db.prepare(head + Array(repeating: "(?, ?, ?, ?)", count: rowsPerInsert).joined(separator: ", "))
        let one = try db.prepare(head + "(?, ?, ?, ?)")
        var values: [Int64] = []
        values.reserveCapacity(4 * rowsPerInsert)
        func run(_ statement: Statement, _ values: ArraySlice<Int64>) throws {
            for (offset, value) in values.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
            try statement.step()
            statement.reset(clearingBindings: false)
        }
        try groups.drain { group in
            let count = UnsafeRawBufferPointer(group.bytes).loadUnaligned(as: Int64.self)
            values += [Int64(bitPattern: group.key ^ (1 << 63)), group.id, Int64(littleEndian: count), Int64(group.bytes[8])]
            if values.count == 4 * rowsPerInsert {
                try run(many, values[...])
                values.removeAll(keepingCapacity: true)
            }
        }
        for start in stride(from: 0, to: values.count, by: 4) { try run(one, values[start..<start + 4]) }
    }
}

import MovieDomain
import SQLiteStore

/// `movie_titles` (schema version 6; with positions and no case folding of its own from version
/// 10): an FTS5 trigram index of the titles, contentless (the titles stay in movies), kept in step
/// by the migrations' triggers. Version 10's finds exactly the titles an ASCII text's phrase is
/// in; another (version 6's, made again by hand) only narrows, and the exact test decides.
enum MovieTitlesTable {
    /// The table's name, for checking that a catalog has it (a sqlite3 user may drop it).
    static let name = "movie_titles"
    /// The trigger that indexes each movie inserted (an import of many drops it for a while: `DeferredTitles`).
    static let insertTrigger = "movie_titles_insert"

    /// `column` with the only two letters whose Unicode lower case has ASCII in it spelled as that
    /// lower case (U+212A KELVIN SIGN -> k, U+0130 -> i + U+0307): so ASCII LIKE reads a title's
    /// ASCII letters as Unicode lower case would.
    static func folded(_ column: String) -> String {
        "replace(replace(\(column), char(8490), 'k'), char(304), 'i' || char(775))"
    }

    /// `column` as the index holds it (from version 10): `folded`, then SQLite's `lower()`, which
    /// changes ASCII letters only, for an index that folds no case itself (FTS5 would fold letters
    /// lower case leaves alone, U+017F LONG S among them, to ASCII). The triggers (version 11) use
    /// the same expression.
    static func indexed(_ column: String) -> String {
        "lower(\(folded(column)))"
    }

    /// Whether titles `a` and `b` (columns) stand alike in the index and in movie_title_exceptions:
    /// a title that changes only so (its ASCII letters' case: a repeat's, under the title-and-year
    /// key) needs neither touched.
    static func indexedAlike(_ a: String, _ b: String) -> String {
        "(\(indexed(a)) IS \(indexed(b)) AND \(hasException(a)) IS \(hasException(b)))"
    }

    /// Whether `db` has the index.
    static func exists(_ db: Database) throws -> Bool {
        try db.hasSchemaObject(name)
    }

    /// The test that a title (`column`) has one of those two letters: in movie_title_exceptions'
    /// triggers too.
    static func hasException(_ column: String) -> String {
        "(instr(\(column), char(8490)) OR instr(\(column), char(304)))"
    }

    /// How the catalog's title test can skip the two letters' check: `.none` when no title has
    /// them, `.listed` when movie_title_exceptions names those that do, else `.scanned`.
    static func exceptions(_ db: Database) throws -> TitleExceptions {
        guard try db.hasSchemaObject("movie_title_exceptions") else {
            return .scanned
        }
        return try db.intScalar("SELECT EXISTS (SELECT 1 FROM movie_title_exceptions)") == 1 ? .listed : .none
    }

    /// `columns` for `set`'s condition: with a title element, its test asks the catalog which
    /// titles LIKE does not fold (each title checked for the two letters doubled a scan of 10M).
    static func testing(_ set: FilterSet, on columns: ConditionColumns, _ db: Database) throws -> ConditionColumns {
        var columns = columns
        if !set.elements(of: .title).isEmpty { columns.titleExceptions = try exceptions(db) }
        return columns
    }

    /// The FTS5 query that finds every title containing one of `texts`, or nil when one of them
    /// cannot be looked up: shorter than 3 characters, or not ASCII (an index's non-ASCII letters
    /// are not folded as the title test folds them). Lower case, as the titles are indexed.
    /// `phrases` (an index that `findsExactly`): each text a phrase, its trigrams one after
    /// another, which is the exact substring test; else its trigrams in any place (candidates).
    static func matchQuery(_ texts: [String], phrases: Bool = false) -> String? {
        var alternatives: [String] = []
        for text in texts {
            let bytes = Array(text.utf8)
            guard bytes.count >= 3, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
            // Each trigram or phrase a quoted string: FTS5 syntax has no other special characters inside.
            func quoted(_ bytes: ArraySlice<UInt8>) -> String {
                "\"" + String(decoding: bytes, as: UTF8.self).replacing("\"", with: "\"\"") + "\""
            }
            if phrases {
                alternatives.append(quoted(lower[...]))
                continue
            }
            var seen = Set<ArraySlice<UInt8>>(), trigrams: [String] = []
            for start in 0...(lower.count - 3) where seen.insert(lower[start..<(start + 3)]).inserted {
                trigrams.append(quoted(lower[start..<(start + 3)]))
            }
            alternatives.append("(" + trigrams.joined(separator: " AND ") + ")")
        }
        return alternatives.isEmpty ? nil : alternatives.joined(separator: " OR ")
    }

    /// The phrase query for `texts` when `db`'s index `findsExactly`, else nil.
    static func exactQuery(_ db: Database, _ texts: [String]) throws -> String? {
        guard case .text(let definition)? = try db.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]),
              findsExactly(definition: definition) else { return nil }
        return matchQuery(texts, phrases: true)
    }

    /// Whether an index made by `definition` (its CREATE VIRTUAL TABLE statement) finds exactly
    /// the titles an ASCII text's phrase is in: version 10's, with trigram positions (FTS5's
    /// default, `detail = 'full'`) and no case folding of its own (`case_sensitive 1`).
    static func findsExactly(definition: String) -> Bool {
        let options = definition.lowercased().filter { !" \t\n'\"".contains($0) }
        let caseKept = options.contains("tokenize=trigramcase_sensitive1,") || options.contains("tokenize=trigramcase_sensitive1)")
        return caseKept && (!options.contains("detail=") || options.contains("detail=full"))
    }

    /// The condition on `movie_titles` as `alias` that keeps the titles `query` (a `matchQuery`)
    /// finds; their rowids are movie ids, in ascending order.
    static func match(_ query: String, alias: String) -> SQLFragment {
        SQLFragment("\(alias).\(name) MATCH ?", [.text(query)])
    }

    /// Indexes the movies with ids above `id`, in id order, after a bulk load appended them with
    /// the triggers off. FTS5's merges are put off: at a million titles they cost ten times the
    /// indexing itself, and merging the new segments into one at the end costs a third more (6 s
    /// at 10M) for 5 ms less a search. `crisismerge` stays high, so the next small write does not
    /// merge them all at once; `automerge` then folds them a little at each write. FTS5 writes a
    /// segment whenever its pending terms reach `hashsize`: 2 MB, not its 1 MB, leaves half as
    /// many, and a phrase reads each one's lists (`--title heart --count` on 10M titles: 64 ms,
    /// 52 ms with 4 MB, whose buffer put the import's peak RSS past 50 MB; a 1 MB segments'
    /// lookup took 86 ms, one merged segment's 34 ms).
    static func index(_ db: Database, above id: Int64) throws {
        // Its settings' writes alone would change the index's pages (a re-import appends no movie).
        guard try db.intScalar("SELECT EXISTS (SELECT 1 FROM movies WHERE id > ?)", [.integer(id)]) == 1 else { return }
        try putOffMerges(db)
        try db.run("INSERT INTO movie_titles (rowid, title) SELECT id, \(indexed("title")) FROM movies WHERE id > ? ORDER BY id", [.integer(id)])
        try db.run("INSERT INTO movie_title_exceptions (id) SELECT id FROM movies WHERE id > ? AND \(hasException("title"))", [.integer(id)])
        try resumeMerges(db)
    }

    /// Stops FTS5 merging segments while a bulk load indexes its titles (see `index`).
    static func putOffMerges(_ db: Database) throws {
        try db.execute("""
            INSERT INTO movie_titles (movie_titles, rank) VALUES ('automerge', 0), ('crisismerge', \(crisisMerge)), ('hashsize', \(pendingBytes))
            """)
    }

    /// Lets later writes merge the segments a little at a time again.
    static func resumeMerges(_ db: Database) throws {
        try db.execute("INSERT INTO movie_titles (movie_titles, rank) VALUES ('automerge', 4)")
    }

    /// `indexed`'s text made in Swift, appended to `bytes`: the title's UTF-8 with KELVIN SIGN
    /// (E2 84 AA) as `k`, I WITH DOT ABOVE (C4 B0) as `i` and U+0307, and ASCII letters in lower
    /// case (SQLite's `lower()` changes no others), byte for byte what the SQL expression makes
    /// (tested against it on random titles). True when the title has one of the two letters, as
    /// `hasException(_:)` tests.
    static func appendIndexed(_ title: String, to bytes: inout [UInt8]) -> Bool {
        var title = title
        return title.withUTF8 { utf8 in
            var excepted = false
            var i = 0
            while i < utf8.count {
                let byte = utf8[i]
                if byte >= 0x41 && byte <= 0x5A {
                    bytes.append(byte | 0x20)
                } else if byte == 0xE2 && i + 2 < utf8.count && utf8[i + 1] == 0x84 && utf8[i + 2] == 0xAA {
                    bytes.append(0x6B)   // k
                    excepted = true
                    i += 2
                } else if byte == 0xC4 && i + 1 < utf8.count && utf8[i + 1] == 0xB0 {
                    bytes.append(contentsOf: [0x69, 0xCC, 0x87])   // i, U+0307
                    excepted = true
                    i += 1
                } else {
                    bytes.append(byte)
                }
                i += 1
            }
            return excepted
        }
    }

    /// Segments on one level before FTS5 merges them at once: under its limit of 2,000 segments,
    /// above the few hundred a bulk load of 10M titles leaves.
    static let crisisMerge = 1_000

    /// The pending terms FTS5 keeps in memory before it writes them out as a segment (its
    /// `hashsize`), during a bulk load and after: some 3 MB of an import's memory.
    static let pendingBytes = 2 << 20

    /// Takes movies out of the index by the titles `table` (a fixed name, columns id and title)
    /// says they were indexed with (contentless: FTS5 needs them): its rows that `condition`
    /// selects. Their exception rows wait for `add`, which knows the new titles.
    static func remove(_ db: Database, indexedAs table: String, where condition: String = "1", _ bindings: [SQLValue] = []) throws {
        try db.run("""
            INSERT INTO movie_titles (movie_titles, rowid, title)
            SELECT 'delete', id, \(indexed("title")) FROM \(table) WHERE (\(condition)) ORDER BY id
            """, bindings)
    }

    /// Puts the movies `condition` selects back into the index, with their titles now, and their
    /// exception rows in step. Only rows of titles without the two letters are deleted: deleting
    /// one whose title has them would be logged in movie_stale (version 7) as a hand edit.
    static func add(_ db: Database, where condition: String, _ bindings: [SQLValue]) throws {
        try db.run("INSERT INTO movie_titles (rowid, title) SELECT m.id, \(indexed("m.title")) FROM movies m WHERE (\(condition)) ORDER BY m.id", bindings)
        try db.run("""
            DELETE FROM movie_title_exceptions WHERE id IN (SELECT m.id FROM movies m WHERE (\(condition)) AND NOT \(hasException("m.title")))
            """, bindings)
        try addExceptions(db, where: condition, bindings)
    }

    /// Adds the exception rows missing for the movies `condition` selects whose titles have one of
    /// the two letters.
    static func addExceptions(_ db: Database, where condition: String, _ bindings: [SQLValue]) throws {
        try db.run("""
            INSERT INTO movie_title_exceptions (id) SELECT m.id FROM movies m WHERE (\(condition)) AND \(hasException("m.title"))
               AND NOT EXISTS (SELECT 1 FROM movie_title_exceptions e WHERE e.id = m.id)
            """, bindings)
    }

    /// The rows FTS5 counts in the index: its averages record (rowid 1 of the data table) starts
    /// with that count as a SQLite varint, raised by each insert and lowered by each 'delete'. One
    /// more than the movies is a title indexed twice for one id (a REPLACE before version 12).
    static func indexedRows(_ db: Database) throws -> Int64 {
        let hex = try db.scalar("SELECT hex(substr(block, 1, 9)) FROM movie_titles_data WHERE id = 1")
        guard case .text(let digits)? = hex else { return 0 }
        let bytes = stride(from: 0, to: digits.utf8.count - 1, by: 2).compactMap { i -> UInt8? in
            let start = digits.index(digits.startIndex, offsetBy: i)
            return UInt8(digits[start..<digits.index(start, offsetBy: 2)], radix: 16)
        }
        // Seven bits a byte, high bit first, while the top bit is set; a ninth byte gives all eight.
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index == 8 { return Int64(bitPattern: value << 8 | UInt64(byte)) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return Int64(bitPattern: value)
    }

    /// Whether the index is sound (FTS5's integrity check; contentless, it cannot compare with the
    /// titles: tests do that by searching): for tests.
    static func isSound(_ db: Database) -> Bool {
        (try? db.execute("INSERT INTO movie_titles (movie_titles) VALUES ('integrity-check')")) != nil
    }
}

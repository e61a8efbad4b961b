import SQLiteStore
/// How a bulk load into a stored catalog spelled the genres it added, so that under skip each is
/// named as row by row names it: by the first row not skipped that names it. The load adds a
/// genre when a row first names it, spelled as that row spells it; a row set aside may turn out
/// to repeat a stored movie and be skipped, and a later row may spell the genre otherwise
/// ("FILM NOIR", then "Film Noir").
///
/// Rows are placed by id: appended and set-aside rows take ids in input order, and a repeat
/// folded into a held row sits before every id not yet given. Only the set-aside rows before a
/// genre's first row that is surely kept (appended or folded) can decide its name, so only
/// theirs are noted, and of those only where the spelling changes.
struct GenreSpellings {
    private struct Spelled {
        /// (first id, spelling) wherever the set-aside rows' spelling changes, in id order.
        var runs: [(id: Int64, name: String)] = []
        /// The last set-aside row that named it.
        var lastRow: Int64?
        /// The first row naming it that no policy skips: where it sits, and its spelling.
        var kept: (position: Int64, name: String)?
    }

    private var genres: [Int64: Spelled] = [:]

    /// Notes a set-aside row `id` naming added genre `genre` as `name`.
    mutating func setAside(_ genre: Int64, name: String, id: Int64) {
        // A row naming the genre twice ("Film Noir|FILM NOIR") is named by its first spelling.
        guard genres[genre]?.kept == nil, genres[genre]?.lastRow != id else { return }
        genres[genre, default: Spelled()].lastRow = id
        // Spellings compare as bytes (not with String's ==): canonically equal ones stay as written.
        if let last = genres[genre]?.runs.last, Self.same(last.name, name) { return }
        genres[genre]?.runs.append((id, name))
    }

    /// Whether two spellings are the same bytes.
    static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// Notes a row that no policy skips naming added genre `genre` as `name`, placed before every
    /// id from `position` on.
    mutating func kept(_ genre: Int64, name: String, position: Int64) {
        if genres[genre]?.kept == nil { genres[genre, default: Spelled()].kept = (position, name) }
    }

    /// Names each added genre still there as its first row not skipped spells it, once the merge
    /// has skipped the set-aside rows (`RepeatMerger.rowTable`, `linkTable`) that repeat stored
    /// movies (ids up to `maxIDBefore`) under `key`.
    func rename(_ db: Database, key: RepeatMerger.Key, maxIDBefore: Int64, resolver: GenreResolver) throws {
        // Only genres spelled more than one way can be named wrong.
        let spelledTwice = genres.filter { _, genre in
            Set((genre.runs.map(\.name) + [genre.kept?.name].compactMap { $0 }).map { Array($0.utf8) }).count > 1
        }
        guard !spelledTwice.isEmpty else { return }
        let firstKept = try db.prepare("""
            SELECT min(g.movie_id) FROM \(RepeatMerger.linkTable) g
             WHERE g.genre_id = ? AND g.movie_id < ? AND NOT EXISTS
                   (SELECT 1 FROM \(RepeatMerger.rowTable) l CROSS JOIN movies m ON \(key.match("l")) WHERE l.id = g.movie_id AND m.id <= ?)
            """)
        for (id, genre) in spelledTwice.sorted(by: { $0.key < $1.key }) {
            try firstKept.bind([.integer(id), .integer(genre.kept?.position ?? Int64.max), .integer(maxIDBefore)])
            _ = try firstKept.step()
            let row = firstKept.optionalInt(0).map(Int64.init)
            firstKept.reset()
            let name = row.flatMap { row in genre.runs.last { $0.id <= row }?.name } ?? genre.kept?.name
            if let name { try resolver.rename(id, to: name) }
        }
    }
}

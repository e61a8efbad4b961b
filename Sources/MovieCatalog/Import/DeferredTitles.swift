import MovieDomain
import SQLiteStore
/// Keeps the title index through many movies inserted row by row. An insert whose trigger writes
/// the index needs a statement journal, and at its savepoint FTS5 writes its pending terms out
/// as a segment, then merges segments: 5,000 new movies into a catalog of 1M took 3.6 s, all but
/// a tenth of it in the index.
///
/// Past the first `rowsByTrigger` inserts of an input, the index's insert trigger is dropped;
/// at the input's end (`flush`) the movies added since are indexed in one statement, as a bulk
/// load indexes its own (`MovieTitlesTable.index(above:)`), and the trigger comes back. All
/// inside the import's transaction; not with a sqlite3 user's own triggers on movies (one may
/// write movies the flush would not know). A later row of the input that retitles one of those
/// movies flushes first: the update trigger takes the old title out of the index, and FTS5
/// needs a contentless 'delete' to name what was indexed (SQLite 3.40 shows no harm otherwise,
/// the trigger indexing the new title at once and the flush's copy of it shadowing that one).
final class DeferredTitles {
    /// Inserts left to the trigger before it is dropped: fewer cost less than dropping it.
    static let rowsByTrigger = 64

    private let db: Database
    private var inserts = 0
    /// The dropped trigger's definition, while dropped.
    private var trigger: String?
    /// The largest movie id when the trigger was dropped: the movies above it wait for `flush`.
    private var above: Int64 = 0

    init(db: Database) {
        self.db = db
    }

    /// Ids below this leave room above them: SQLite numbers each new movie the largest id plus
    /// one until that is Int64.max (a sqlite3 user's), then at random below it, where `above`
    /// would not find them.
    static let highestAbove = Int64.max - (1 << 40)

    /// Before a movie is inserted row by row.
    func willInsert() throws {
        inserts += 1
        guard inserts == Self.rowsByTrigger + 1, trigger == nil else { return }
        let largest = Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM movies"))
        guard largest <= Self.highestAbove,
              let dropped = try db.dropSchemaObjects("trigger", on: ["movies"], where: { $0.name == MovieTitlesTable.insertTrigger }).first else { return }
        trigger = dropped.sql
        above = largest
    }

    /// Before stored movie `id`'s title is set to `title`: a movie not yet indexed is indexed first.
    func willRetitle(_ id: Int64, to title: String) throws {
        guard trigger != nil, id > above else { return }
        let stored = try db.query("SELECT title FROM movies WHERE id = ?", [.integer(id)]) { try $0.text(0) }.first
        // Bytes, as the update trigger compares them (Swift's == would take é and e + U+0301 as one).
        if stored?.utf8.elementsEqual(title.utf8) != true { try flush() }
    }

    /// Indexes the movies inserted while the trigger was dropped, and puts it back.
    func flush() throws {
        inserts = 0
        guard let trigger else { return }
        self.trigger = nil
        if try MovieTitlesTable.exists(db) { try MovieTitlesTable.index(db, above: above) }
        try db.execute(trigger)
    }
}

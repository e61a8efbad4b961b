import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds a bulk load's title index on a thread of its own, in a scratch database, then copies it
/// into the catalog's empty `movie_titles`.
///
/// The writing thread is an import's bottleneck, and FTS5's indexing of the titles was a quarter
/// of its work (some 15,000 instructions a title, 1.8 s of 10 at 1M rows, 28 s of 150 at 10M),
/// done while the other core waited; copying the built index is a few thousand large rows. The
/// titles are kept while rows are appended (then both cores are busy) and indexed while the
/// writer builds the unique indexes and merges repeats. The copy replaces the catalog's index
/// whole: only for a catalog without movies. The scratch file (about 30 MB a million titles, in
/// SQLite's temporary directory) is deleted as soon as it is opened, so nothing outlives the
/// process.
final class TitleIndexBuilder {
    /// The thread could not build the index (its scratch database failed, say on a full
    /// temporary directory): the catalog is untouched, and the load can index the titles itself.
    struct Failure: Error {
        let underlying: Error
    }

    /// Titles handed to the thread at a time.
    private struct Chunk: Sendable {
        var ids: [Int64] = []
        var titles: [String] = []
    }

    /// What the thread leaves for the writer: read only after it is joined.
    private final class Outcome: @unchecked Sendable {
        var error: Error?
        /// Ids of titles with the letters `movie_title_exceptions` lists.
        var exceptions: [Int64] = []
    }

    private static let chunkSize = 2_048
    private let channel = BoundedChannel<Chunk>(capacity: 4)
    private let outcome = Outcome()
    private let scratch: Database
    /// The catalog's CREATE VIRTUAL TABLE statement, run on the scratch database and again on the catalog.
    private let definition: String
    private var pending = Chunk()
    private var thread: pthread_t?
    /// Whether `appendDone` ran (the channel is closed).
    private var appended = false

    /// Starts a builder for `db`'s title index; nil when the catalog has none or no thread or
    /// scratch database is to be had (the load then indexes the titles itself). `pageLimit`
    /// caps the scratch database, for tests of a failing builder.
    static func start(for db: Database, pageLimit: Int? = nil) -> TitleIndexBuilder? {
        // The titles are folded in Swift as SQLite's own `lower()` folds them (ASCII letters
        // alone), and the triggers fold them in SQL: a SQLite built with ICU, whose `lower()`
        // folds other letters too, leaves the indexing to SQL.
        guard (try? db.intScalar("SELECT lower(?1) = ?1", [.text("\u{C4}")])) == 1,
              let definition = try? db.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                             [.text(MovieTitlesTable.name)]),
              case .text(let sql) = definition,
              let scratch = try? Database.scratch(), (try? scratch.execute(sql)) != nil else { return nil }
        if let pageLimit, (try? scratch.execute("PRAGMA max_page_count = \(pageLimit)")) == nil { return nil }
        let builder = TitleIndexBuilder(scratch: scratch, definition: sql)
        return builder.launch() ? builder : nil
    }

    private init(scratch: Database, definition: String) {
        self.scratch = scratch
        self.definition = definition
        pending.ids.reserveCapacity(Self.chunkSize)
        pending.titles.reserveCapacity(Self.chunkSize)
    }

    private func launch() -> Bool {
        let work = Handoff(value: scratch)
        thread = startThread { [channel, outcome] in
            do {
                try Self.index(channel, into: work.value, outcome: outcome)
            } catch {
                outcome.error = error
                channel.cancel()   // the writer's sends return at once from now on
            }
        }
        return thread != nil
    }

    deinit {
        // Abandoned (the import failed): the thread stops at its next chunk, or skips the index,
        // or has its statement interrupted; the scratch file goes with its connection.
        channel.cancel()
        scratch.interrupt()
        if let thread { pthread_join(thread, nil) }
    }

    /// Queues a title appended as movie `id`; ids come in ascending order.
    func add(id: Int64, title: String) {
        pending.ids.append(id)
        pending.titles.append(title)
        if pending.ids.count == Self.chunkSize { sendPending() }
    }

    private func sendPending() {
        channel.send(pending)
        pending = Chunk()
        pending.ids.reserveCapacity(Self.chunkSize)
        pending.titles.reserveCapacity(Self.chunkSize)
    }

    /// Keeps the titles as they come, in id order, in a plain scratch table (cheap: the writer and
    /// the parser need the cores while rows are appended); once the append is done, indexes them
    /// all in one statement while the writer builds the unique indexes and merges repeats. One
    /// statement, as `MovieTitlesTable.index`: each statement writing to FTS5 opens a savepoint,
    /// at which FTS5 writes its pending terms out as a segment.
    private static func index(_ channel: BoundedChannel<Chunk>, into db: Database, outcome: Outcome) throws {
        try db.execute("BEGIN; CREATE TABLE titles (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        // 64 rows a statement, a NULL id where SQLite numbers the row the same (the table is this
        // thread's alone): a third of the instructions of one row a statement with its id.
        let rowsAtOnce = 64
        let insertOne = try db.prepare("INSERT INTO titles (id, title) VALUES (?, ?)", persistent: true)
        let insertMany = try db.prepare("INSERT INTO titles (id, title) VALUES " + Array(repeating: "(?, ?)", count: rowsAtOnce).joined(separator: ", "),
                                        persistent: true)
        var ids = AscendingIDs(after: 0)
        // The titles are kept as the index takes them, folded here (`appendIndexed`) rather than
        // by SQL functions in the statement that indexes them: a sixth of that statement's work.
        var folded: [UInt8] = []
        while let chunk = channel.receive() {
            var row = 0
            while row < chunk.ids.count {
                let many = chunk.ids.count - row >= rowsAtOnce
                let insert = many ? insertMany : insertOne
                for i in 0..<(many ? rowsAtOnce : 1) {
                    try insert.bind(ids.bound(chunk.ids[row + i]), at: Int32(2 * i + 1))
                    folded.removeAll(keepingCapacity: true)
                    if MovieTitlesTable.appendIndexed(chunk.titles[row + i], to: &folded) { outcome.exceptions.append(chunk.ids[row + i]) }
                    try folded.withUnsafeBufferPointer { try insert.bind(utf8: $0, at: Int32(2 * i + 2)) }
                }
                try insert.step()
                insert.reset(clearingBindings: false)
                row += many ? rowsAtOnce : 1
            }
        }
        // Abandoned by the writer: nothing to build. (Not at a lower priority either: the writer
        // waits for this thread in `install`, and other processes would then starve it.)
        guard !channel.isCancelled else { return }
        // The settings go into the index's own config table, so the copy carries them: the
        // catalog's FTS5 then reads them, as the copied structure's cookie is not its own.
        try MovieTitlesTable.putOffMerges(db)
        try db.execute("INSERT INTO \(MovieTitlesTable.name) (rowid, title) SELECT id, title FROM titles ORDER BY id")
        try MovieTitlesTable.resumeMerges(db)
        try db.execute("COMMIT")
    }

    /// Says every title is queued: the thread starts indexing them.
    func appendDone() {
        guard !appended else { return }
        appended = true
        if !pending.ids.isEmpty { sendPending() }
        channel.close()
    }

    /// Waits for the thread, then puts the built index in place of `db`'s (empty) one, inside the
    /// caller's transaction, with the exceptions' rows. The catalog's index is dropped and made
    /// anew first: FTS5 keeps the structure of an index it has opened in memory, and would not see
    /// rows written under it.
    func install(into db: Database, timings: PhaseTimings? = nil) throws {
        appendDone()
        if let thread { pthread_join(thread, nil) }
        thread = nil
        timings?.mark("title index, built alongside: waited for its thread")
        if let error = outcome.error { throw Failure(underlying: error) }
        try db.execute("DROP TABLE \(MovieTitlesTable.name)")
        try db.execute(definition)
        // FTS5's own tables (its data, its segment index, its settings), named after the index.
        let shadowTables = try scratch.query("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name GLOB ? || '_*'
            """, [.text(MovieTitlesTable.name)]) { try $0.text(0) }
        for table in shadowTables {
            let columns = try scratch.query("SELECT name FROM pragma_table_info(?)", [.text(table)]) { try $0.text(0) }
            let table = "\"" + table.replacing("\"", with: "\"\"") + "\""   // a schema name, quoted
            try db.execute("DELETE FROM \(table)")
            let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
            let slots = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            try db.copyRows("SELECT \(list) FROM \(table)", from: scratch, into: "INSERT INTO \(table) (\(list)) VALUES (\(slots))")
        }
        let insert = try db.prepare("INSERT INTO movie_title_exceptions (id) VALUES (?)")
        for id in outcome.exceptions {
            try insert.bind(id, at: 1)
            try insert.step()
            insert.reset(clearingBindings: false)
        }
    }
}

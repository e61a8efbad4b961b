/// The ids bound for rows appended in ascending id order to a table whose largest id is known:
/// NULL where SQLite's own next id (the largest + 1, found at the end of the table) is the row's,
/// the id itself elsewhere. An id bound as it is costs SQLite a search from the table's root for
/// its uniqueness check, some 1,300 instructions a row. Only for a table nothing else inserts
/// into meanwhile (no trigger of a sqlite3 user's).
struct AscendingIDs {
    /// The table's largest id so far; nil: every id is bound as it is.
    private var largest: Int64?

    /// Ids after `largest` (nil: bound as they are).
    init(after largest: Int64?) {
        self.largest = largest
    }

    /// The value to bind for row `id`: nil where SQLite numbers it `id`.
    mutating func bound(_ id: Int64) -> Int64? {
        defer { largest = largest.map { max($0, id) } }
        return id > 0 && largest.map { $0 < Int64.max && $0 + 1 == id } == true ? nil : id
    }
}

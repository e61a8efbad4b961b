import MovieDomain
import SQLiteStore
/// Keeps movie_facets through an import large beside the catalog, whose writes would move sort-
/// index entries at random places, row after row (IMDb's ratings onto 850k movies: 10.6 s).
///
/// The first insert drops the sort indexes; the first update of a column drops the update
/// trigger and that column's indexes (the others stay: a ratings file leaves the year's and the
/// duration's alone). At the end the updated columns are copied into the facet rows of the
/// movies this import updated, whose `updated_at` is the import's, in one pass; then the
/// trigger and the indexes come back. All inside the import's transaction.
final class DeferredFacets {
    private let db: Database
    /// The dropped update trigger's definition, once an update has dropped it.
    private var trigger: String?
    /// The fields updates wrote (their facet columns are copied at the end).
    private var updated: [MovieField] = []
    /// The last fields updated, so that each row does not look again.
    private var lastFields: MovieFields?
    /// Whether a row was inserted (the sort indexes are then all dropped).
    private var inserted = false
    private var indexes: [(name: String, sql: String)] = []

    init(db: Database) {
        self.db = db
    }

    /// Before a row is inserted: its facet row is written by the insert trigger, without indexes.
    func willInsert() throws {
        guard !inserted else { return }
        inserted = true
        indexes += try MovieFacetsTable.dropIndexes(db, on: Set(MovieFacetsTable.fields.map(\.column)))
    }

    /// Before a stored movie's `fields` are updated: the facet columns they write are left for the end.
    func willUpdate(_ fields: MovieFields) throws {
        guard lastFields != fields else { return }
        lastFields = fields
        let new = MovieFacetsTable.fields.filter { fields.contains($0.field) && !updated.contains($0.field) }
        guard !new.isEmpty else { return }
        if trigger == nil {
            trigger = try db.dropSchemaObjects("trigger", on: ["movies"]) { $0.name == MovieFacetsTable.updateTrigger }.first?.sql ?? ""
        }
        updated += new.map(\.field)
        indexes += try MovieFacetsTable.dropIndexes(db, on: Set(new.map(\.column)))
    }

    /// Copies the updated columns into the facet rows of the movies updated at `now`, and puts the
    /// trigger back (before any other index of the import is rebuilt).
    func copyUpdates(now: Int64) throws {
        guard let trigger else { return }
        // An update of this size touches most blocks of movie_facet_totals: all are counted again at
        // the end, rather than each updated row's trigger deleting its block's row.
        let totalsTrigger = try db.dropSchemaObjects("trigger", on: ["movie_facets"]) { $0.name == FacetTotals.triggers[1] }.first?.sql
        try MovieFacetsTable.copy(db, updated, where: "m.updated_at = ?", [.integer(now)])
        if let totalsTrigger {
            try FacetTotals.forget(db, from: .min)
            try db.execute(totalsTrigger)
        }
        if !trigger.isEmpty { try db.execute(trigger) }
        self.trigger = nil
    }

    /// Rebuilds the dropped indexes by sorting.
    func rebuildIndexes() throws {
        for index in indexes { try db.execute(index.sql) }
        indexes = []
    }
}

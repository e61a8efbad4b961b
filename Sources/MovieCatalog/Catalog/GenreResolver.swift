import MovieDomain
import SQLiteStore
/// Genre ids by code or name for the movies of one command; a genre the catalog does not know
/// is added (code = slug, name as first seen) and remembered in `added`.
final class GenreResolver {
    private let db: Database
    private let insertGenre: Statement
    /// Genre code, name as given, or lower-cased name -> genre id.
    private var ids: [String: Int64] = [:]
    /// Genres with a larger id were added by this command.
    let maxIDBefore: Int64
    /// The genres this command added, in order (code, name).
    private(set) var added: [Genre] = []
    /// The genres the catalog knew before.
    let known: GenreCatalogue

    init(db: Database) throws {
        self.db = db
        insertGenre = try db.prepare("INSERT INTO genres (code, name) VALUES (?, ?)", persistent: true)
        let genres = try db.query("SELECT id, code, name FROM genres ORDER BY code", [], {
            Genre(id: try $0.int64(0), code: try $0.text(1), name: try $0.text(2))
        })
        // Names first, codes over them: a sqlite3 user's genre `drame` named `Drama` must not
        // take `drama` over (as GenreCatalogue resolves for filters).
        for genre in genres where ids[genre.name.lowercased()] == nil { ids[genre.name.lowercased()] = genre.id }
        for genre in genres { ids[genre.code] = genre.id }
        known = GenreCatalogue(genres)
        maxIDBefore = Int64(try db.intScalar("SELECT ifnull(max(id), 0) FROM genres"))
    }

    /// Names resolved lately, by a cheap hash of their bytes (their length and first eight bytes):
    /// a list names a few genres over and over, and a bulk load resolves some two names a row,
    /// where hashing each whole name for `ids` cost a fifth of its Swift work.
    private var recent = [(name: String, id: Int64)?](repeating: nil, count: 64)

    private static func recentSlot(_ name: String) -> Int {
        let h = name.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.prefix(8).reduce(UInt64(bytes.count)) { $0 &* 31 &+ UInt64($1) }
        } ?? UInt64(name.utf8.count)
        return Int(truncatingIfNeeded: (h ^ h >> 7) & 63)
    }

    /// The id of a genre by code or name, adding it when unknown.
    func id(for name: String) throws -> Int64 {
        let slot = Self.recentSlot(name)
        if let entry = recent[slot], entry.name == name { return entry.id }
        let id = try lookUp(name)
        recent[slot] = (name, id)
        return id
    }

    private func lookUp(_ name: String) throws -> Int64 {
        if let id = ids[name] { return id }
        let key = name.lowercased()
        if let id = ids[key] {
            ids[name] = id
            return id
        }
        // Its slug's genre, as filters find it (one a catalog holds already: `science-fiction`),
        // else the genre a synonym means; a new one is added under that code (`Children's`: children).
        let slug = Genre.slug(name)
        let code = Genre.synonyms[slug] ?? slug
        if let id = ids[slug] ?? ids[code] {
            ids[key] = id
            ids[name] = id
            return id
        }
        if let violation = MovieRules.genreViolation(code: code, name: name) {
            throw CatalogError(.internalError, "internal error: genre \(name.quotedForMessage) passed validation but \(violation)")
        }
        try insertGenre.bind([.text(code), .text(name)])
        try insertGenre.step()
        let id = db.lastInsertRowID
        ids[key] = id
        ids[code] = id
        ids[name] = id
        added.append(Genre(id: id, code: code, name: name))
        return id
    }

    /// Names a genre this command added `name` (how a row spelled it), in the catalog and in `added`.
    func rename(_ id: Int64, to name: String) throws {
        guard let index = added.firstIndex(where: { $0.id == id }), !added[index].name.utf8.elementsEqual(name.utf8) else { return }
        // The code too, as that row would have made it ("Café" precomposed or with a combining
        // accent slug apart), unless another genre holds it.
        var code = Genre.code(forName: name)
        if ids[code].map({ $0 != id }) ?? false || MovieRules.genreViolation(code: code, name: name) != nil { code = added[index].code }
        try db.run("UPDATE genres SET name = ?, code = ? WHERE id = ?", [.text(name), .text(code), .integer(id)])
        ids[code] = id
        added[index] = Genre(id: id, code: code, name: name)
    }

    /// Forgets genres added by this import that are gone again (folding dropped every row naming them).
    func forgetRemoved() throws {
        let kept = Set(try db.query("SELECT id FROM genres WHERE id > ?", [.integer(maxIDBefore)]) { try $0.int64(0) })
        ids = ids.filter { $0.value <= maxIDBefore || kept.contains($0.value) }
        recent = recent.map { $0.flatMap { $0.id <= maxIDBefore || kept.contains($0.id) ? $0 : nil } }
        added.removeAll { !kept.contains($0.id) }
    }
}

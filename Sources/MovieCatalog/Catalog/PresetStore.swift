import MovieDomain
import SQLiteStore
/// A saved filter set.
public struct Preset: Equatable, Sendable {
    /// The preset's name.
    public var name: String
    /// The saved filter elements (in a listing, those that still read).
    public var filters: FilterSet
    /// In a listing, why some saved elements no longer read (a genre deleted since, a row a
    /// sqlite3 user wrote), or nil; using the preset then fails with this message.
    public var problem: String? = nil
}

/// Saving, listing, renaming and deleting presets.
extension Catalog {
    /// Checks a preset name: 1..64 characters after trimming, no control characters; composed
    /// (NFC) as titles are.
    public static func validatePresetName(_ raw: String) throws -> String {
        let name = raw.trimmingWhitespace().precomposed
        guard !name.isEmpty else { throw CatalogError(.usage, "a preset name cannot be empty") }
        // Counted in code points, as SQLite's length() in the schema's CHECK counts them.
        guard name.unicodeScalars.count <= 64 else {
            throw CatalogError(.usage, "preset name '\(name.prefix(20))…' is \(name.unicodeScalars.count) characters; the limit is 64")
        }
        let invisible: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
        guard !name.unicodeScalars.contains(where: { invisible.contains($0.properties.generalCategory) }) else {
            throw CatalogError(.usage, "a preset name cannot contain control, format or line-separator characters")
        }
        return name
    }

    /// All presets, by name; one whose elements no longer read is listed with its `problem`.
    public func presets() throws -> [Preset] {
        let parser = try filterParser()
        let rows = try db.query("SELECT id, name FROM presets ORDER BY name COLLATE NOCASE") { (try $0.int64(0), try $0.text(1)) }
        return try rows.map { try preset(id: $0.0, name: $0.1, parser: parser, listing: true) }
    }

    /// The preset with this name (ignoring case); exit status 1 when missing.
    public func preset(named raw: String) throws -> Preset {
        try preset(named: raw, parser: try filterParser())
    }

    /// The preset with this name as stored: an element that no longer reads (its genre deleted
    /// by hand) is left out and named in `problem`, as `presets()` lists it.
    public func storedPreset(named raw: String) throws -> Preset {
        guard let (id, name) = try presetID(named: raw) else { throw missing(raw.trimmingWhitespace()) }
        return try preset(id: id, name: name, parser: try filterParser(), listing: true)
    }

    /// The preset with this name, its elements read with an existing parser.
    public func preset(named raw: String, parser: FilterParser) throws -> Preset {
        guard let (id, name) = try presetID(named: raw) else { throw missing(raw.trimmingWhitespace()) }
        return try preset(id: id, name: name, parser: parser)
    }

    /// A preset's elements; an element that no longer reads throws, or, `listing`, is noted.
    private func preset(id: Int64, name: String, parser: FilterParser, listing: Bool = false) throws -> Preset {
        var preset = Preset(name: name, filters: FilterSet())
        for (facet, value) in try db.query("SELECT facet, value FROM preset_filters WHERE preset_id = ?",
                                           [.integer(id)], { (try $0.text(0), try $0.text(1)) }) {
            guard let facet = Facet(rawValue: facet) else { continue }
            do {
                preset.filters.formUnion(try parser.parse(facet, value, source: "preset \(name)"))
            } catch let error as CatalogError where listing && error.kind == .usage {
                preset.problem = preset.problem ?? error.message
            }
        }
        return preset
    }

    /// The id and stored name of a preset: the one named exactly so, else the one whose name
    /// matches ignoring case (Unicode-aware, unlike NOCASE, so a `sqlite3` user may have stored
    /// `Ünï` and `ünï`: then only the exact name tells them apart; a Greek final sigma is a sigma,
    /// as in title search).
    private func presetID(named raw: String) throws -> (Int64, String)? {
        // Composed on both sides: a name typed or stored with a separate accent is the same name.
        let name = raw.trimmingWhitespace().precomposed
        let key = name.searchFolded
        let presets = try db.query("SELECT id, name FROM presets ORDER BY id") { (try $0.int64(0), try $0.text(1)) }
        if let exact = presets.first(where: { $0.1.precomposed.unicodeScalars.elementsEqual(name.unicodeScalars) }) { return exact }
        let alike = presets.filter { $0.1.precomposed.searchFolded == key }
        if alike.count > 1 {
            let names = alike.map(\.1.quotedForMessage).joined(separator: ", ")
            throw CatalogError(.notFound, "no preset is named exactly \(name.quotedForMessage), and several are ignoring case (\(names)); give one exactly")
        }
        return alike.first
    }

    /// Saves a set under a name; an existing name is an error unless `replace`.
    public func savePreset(name raw: String, filters: FilterSet, replace: Bool) throws {
        let name = try Catalog.validatePresetName(raw)
        try db.transaction {
            if let (id, stored) = try presetID(named: name) {
                guard replace else {
                    let spelt = stored == name ? "" : " (as \(stored.quotedForMessage); names ignore case)"
                    throw CatalogError(.alreadyExists, "preset \(name.quotedForMessage) already exists\(spelt); use --replace to overwrite it")
                }
                try db.run("DELETE FROM preset_filters WHERE preset_id = ?", [.integer(id)])
                try db.run("""
                    UPDATE presets SET name = ?, updated_at = CAST(strftime('%s', 'now') AS INTEGER) WHERE id = ?
                    """, [.text(name), .integer(id)])
            } else {
                try db.run("INSERT INTO presets (name) VALUES (?)", [.text(name)])
            }
            let id = try presetID(named: name)!.0
            let insert = try db.prepare("INSERT INTO preset_filters (preset_id, facet, value) VALUES (?, ?, ?)")
            for element in filters.sorted {
                try insert.bind([.integer(id), .text(element.facet.rawValue), .text(element.value)])
                try insert.step()
            }
        }
    }

    /// Deletes a preset, returning its name as stored; exit status 1 when missing.
    @discardableResult
    public func deletePreset(named raw: String) throws -> String {
        let name = raw.trimmingWhitespace()
        return try db.transaction {
            guard let (id, stored) = try presetID(named: name) else { throw missing(name) }
            try db.run("DELETE FROM presets WHERE id = ?", [.integer(id)])
            return stored
        }
    }

    /// Renames a preset, returning its old name as stored; the new name must be free (a change
    /// of case alone is allowed).
    @discardableResult
    public func renamePreset(_ oldRaw: String, to newRaw: String) throws -> String {
        let old = oldRaw.trimmingWhitespace()
        let new = try Catalog.validatePresetName(newRaw)
        return try db.transaction {
            guard let (id, stored) = try presetID(named: old) else { throw missing(old) }
            if let (other, taken) = try presetID(named: new), other != id {
                // Names are compared ignoring case: the one stored is named as it is spelt.
                let spelt = taken == new ? "" : " (as \(taken.quotedForMessage); names ignore case)"
                throw CatalogError(.alreadyExists, "preset \(new.quotedForMessage) already exists\(spelt)")
            }
            try db.run("""
                UPDATE presets SET name = ?, updated_at = CAST(strftime('%s', 'now') AS INTEGER) WHERE id = ?
                """, [.text(new), .integer(id)])
            return stored
        }
    }

    private func missing(_ name: String) -> CatalogError {
        CatalogError(.notFound, "no preset named \(name.quotedForMessage)")
    }
}

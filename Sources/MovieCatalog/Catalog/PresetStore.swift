/// A saved filter set.
public struct Preset: Equatable, Sendable {
    public var name: String
    public var filters: FilterSet
}

/// Saving, listing, renaming and deleting presets.
extension Catalog {
    /// Checks a preset name: 1..64 characters after trimming, no control characters.
    public static func validatePresetName(_ raw: String) throws -> String {
        let name = raw.trimmingWhitespace()
        guard !name.isEmpty else { throw CatalogError(.usage, "a preset name cannot be empty") }
        guard name.count <= 64 else {
            throw CatalogError(.usage, "preset name '\(name.prefix(20))…' is \(name.count) characters; the limit is 64")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw CatalogError(.usage, "a preset name cannot contain control characters")
        }
        return name
    }

    /// All presets, by name.
    public func presets() throws -> [Preset] {
        let parser = try filterParser()
        let names = try db.query("SELECT name FROM presets ORDER BY name COLLATE NOCASE") { $0.text(0) }
        return try names.map { try preset(named: $0, parser: parser) }
    }

    /// The preset with this name (ignoring case); exit status 1 when missing.
    public func preset(named raw: String) throws -> Preset {
        try preset(named: raw, parser: try filterParser())
    }

    private func preset(named raw: String, parser: FilterParser) throws -> Preset {
        let name = raw.trimmingWhitespace()
        let rows = try db.query("""
            SELECT p.name, f.facet, f.value FROM presets p LEFT JOIN preset_filters f ON f.preset_id = p.id
             WHERE p.name = ?
            """, [.text(name)]) { ($0.text(0), $0.optionalText(1), $0.optionalText(2)) }
        guard let first = rows.first else { throw missing(name) }
        var set = FilterSet()
        for case let (_, facet?, value?) in rows {
            guard let facet = Facet(rawValue: facet) else { continue }
            set.formUnion(try parser.parse(facet, value, source: "preset '\(first.0)'"))
        }
        return Preset(name: first.0, filters: set)
    }

    /// Saves a set under a name; an existing name is an error unless `replace`.
    public func savePreset(name raw: String, filters: FilterSet, replace: Bool) throws {
        let name = try Catalog.validatePresetName(raw)
        try db.transaction {
            if case .integer(let id)? = try db.scalar("SELECT id FROM presets WHERE name = ?", [.text(name)]) {
                guard replace else {
                    throw CatalogError(.notFound, "preset '\(name)' already exists; use --replace to overwrite it")
                }
                try db.run("DELETE FROM preset_filters WHERE preset_id = ?", [.integer(id)])
                try db.run("""
                    UPDATE presets SET name = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?
                    """, [.text(name), .integer(id)])
            } else {
                try db.run("INSERT INTO presets (name) VALUES (?)", [.text(name)])
            }
            let id = try db.intScalar("SELECT id FROM presets WHERE name = ?", [.text(name)])
            let insert = try db.prepare("INSERT INTO preset_filters (preset_id, facet, value) VALUES (?, ?, ?)")
            for element in filters.sorted {
                try insert.bind([.integer(Int64(id)), .text(element.facet.rawValue), .text(element.value)])
                try insert.step()
            }
        }
    }

    /// Deletes a preset; exit status 1 when missing.
    public func deletePreset(named raw: String) throws {
        let name = raw.trimmingWhitespace()
        try db.transaction {
            try db.run("DELETE FROM presets WHERE name = ?", [.text(name)])
            if db.changes == 0 { throw missing(name) }
        }
    }

    /// Renames a preset; the new name must be free (a change of case alone is allowed).
    public func renamePreset(_ oldRaw: String, to newRaw: String) throws {
        let old = oldRaw.trimmingWhitespace()
        let new = try Catalog.validatePresetName(newRaw)
        try db.transaction {
            guard case .integer(let id)? = try db.scalar("SELECT id FROM presets WHERE name = ?", [.text(old)]) else {
                throw missing(old)
            }
            if case .integer(let other)? = try db.scalar("SELECT id FROM presets WHERE name = ?", [.text(new)]), other != id {
                throw CatalogError(.notFound, "preset '\(new)' already exists")
            }
            try db.run("""
                UPDATE presets SET name = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?
                """, [.text(new), .integer(id)])
        }
    }

    private func missing(_ name: String) -> CatalogError {
        CatalogError(.notFound, "no preset named '\(name)'")
    }
}

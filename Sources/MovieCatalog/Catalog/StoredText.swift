import MovieDomain
import SQLiteStore

/// Text stored before moviecat composed its input (schema version 13): composed once, on
/// upgrade, so that the titles a list imported again brings, composed now, find their movies.
enum StoredText {
    /// The migration after which stored text is composed.
    static let composedSince = 13

    /// Composes stored titles, certifications, preset names and preset elements; a title or
    /// preset name whose composed form another row already has is left as it is (two movies or
    /// presets the old spelling kept apart stay two).
    static func compose(_ db: Database) throws {
        // Only text with a character beyond ASCII (more bytes than characters) can change.
        func beyondASCII(_ column: String) -> String { "length(CAST(\(column) AS BLOB)) <> length(\(column))" }
        func candidates(_ sql: String) throws -> [(id: Int64, text: String, composed: String)] {
            var found: [(Int64, String, String)] = []
            try db.forEachRow(sql) { row in
                // Text composed already (`String.firstComposingByte`): no string made.
                guard row.withText(1, { $0?.contains { $0 >= String.firstComposingByte } ?? false }) else { return }
                let text = try row.text(1)
                let composed = text.precomposed
                // Text that is not UTF-8 (a sqlite3 user's bytes) reads with U+FFFD: left as stored.
                if !composed.utf8.elementsEqual(text.utf8) && !text.unicodeScalars.contains("\u{FFFD}") { found.append((try row.int64(0), text, composed)) }
            }
            return found
        }
        let titled = beyondASCII("title")
        for movie in try candidates("SELECT id, title FROM movies WHERE \(titled)") {
            // The natural key (title NOCASE, year, IMDb id) would refuse a twin.
            let taken = try db.intScalar("""
                SELECT EXISTS (SELECT 1 FROM movies m, movies o WHERE o.id = ? AND m.title = ? COLLATE NOCASE
                                 AND ifnull(m.year, 0) = ifnull(o.year, 0) AND ifnull(m.imdb_id, '') = ifnull(o.imdb_id, '') AND m.id <> o.id)
                """, [.integer(movie.id), .text(movie.composed)])
            if taken == 0 { try db.run("UPDATE movies SET title = ? WHERE id = ?", [.text(movie.composed), .integer(movie.id)]) }
        }
        let certified = beyondASCII("certification")
        for movie in try candidates("SELECT id, certification FROM movies WHERE certification IS NOT NULL AND \(certified)") {
            try db.run("UPDATE movies SET certification = ? WHERE id = ?", [.text(movie.composed), .integer(movie.id)])
        }
        let named = beyondASCII("name")
        for preset in try candidates("SELECT id, name FROM presets WHERE \(named)") {
            try db.run("UPDATE OR IGNORE presets SET name = ? WHERE id = ?", [.text(preset.composed), .integer(preset.id)])
        }
        // Elements by their key: a preset holding both spellings of one keeps one.
        let valued = beyondASCII("value")
        var elements: [[SQLValue]] = []
        try db.forEachRow("SELECT preset_id, facet, value FROM preset_filters WHERE facet IN ('title', 'certification') AND \(valued)") { row in
            let text = try row.text(2), composed = text.precomposed
            if !composed.utf8.elementsEqual(text.utf8) { elements.append([.text(composed), row.value(0), row.value(1), .text(text)]) }
        }
        for element in elements {
            try db.run("UPDATE OR IGNORE preset_filters SET value = ? WHERE preset_id = ? AND facet = ? AND value = ?", element)
            try db.run("DELETE FROM preset_filters WHERE preset_id = ? AND facet = ? AND value = ?", Array(element.dropFirst()))
        }
    }
}

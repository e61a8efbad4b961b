import MovieDomain
import SQLiteStore
/// Prints facet counts as the app's filter list (table) or as JSON.
public enum FacetWriter {
    /// Section titles, as in the app.
    static func title(_ facet: Facet) -> String {
        switch facet {
        case .genre: return "Genre"
        case .rating: return "Rating"
        case .duration: return "Duration"
        case .year: return "Year"
        case .certification: return "Certification"
        case .excludeGenre: return "Excluded genre"
        case .title: return "Title"
        case .votes: return "Votes"
        case .imdb: return "IMDb"
        }
    }

    /// Sections with one value a line, `[x]` marking the selected ones, counts aligned; on a
    /// terminal `width` columns wide, a value too long for it is cut (`…`) rather than widening
    /// every line past the edge.
    public static func table(_ facets: [FacetCounts], genres: GenreCatalogue, width: Int? = nil) -> String {
        var text = ""
        func shown(_ value: String, _ facet: Facet) -> String { TextEscaping.terminalSafe(label(value, facet: facet, genres: genres)) }
        let countWidth = facets.flatMap(\.values).map { String($0.count).count }.max() ?? 1
        // Two spaces, `[ ] `, the value, two spaces, the count.
        let room = width.map { max(12, $0 - 8 - countWidth) } ?? Int.max
        let widest = facets.flatMap { counts in counts.values.map { DisplayWidth.of(shown($0.value, counts.facet)) } }.max() ?? 0
        let labelWidth = min(max(widest, 12), room)
        for (index, counts) in facets.enumerated() {
            if index > 0 { text += "\n" }
            text += title(counts.facet) + "\n"
            if counts.values.isEmpty { text += "  (no values)\n" }
            for value in counts.values {
                text += "  " + (value.selected ? "[x] " : "[ ] ")
                    + DisplayWidth.pad(DisplayWidth.truncate(shown(value.value, counts.facet), to: labelWidth), to: labelWidth) + "  "
                    + DisplayWidth.pad(String(value.count), to: countWidth, rightAligned: true) + "\n"
            }
        }
        return text
    }

    /// A genre shown by code (the token to type), with its name when that differs beyond case.
    static func label(_ value: String, facet: Facet, genres: GenreCatalogue) -> String {
        guard facet == .genre else { return value }
        let name = genres.name(of: value)
        return name.lowercased() == value ? value : "\(value) (\(name))"
    }

    /// `{"genre": [{"value": "drama", "count": 8}, ...], "rating": [...], ...}`.
    public static func json(_ facets: [FacetCounts]) -> String {
        let sections = facets.map { counts in
            let values = counts.values.map { "{\"value\":\(TextEscaping.json($0.value)),\"count\":\($0.count)}" }
            return "  \(TextEscaping.json(counts.facet.rawValue)): [" + values.joined(separator: ", ") + "]"
        }
        return "{\n" + sections.joined(separator: ",\n") + "\n}\n"
    }
}

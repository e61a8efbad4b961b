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

    /// Sections with one value a line, `[x]` marking the selected ones, counts aligned.
    public static func table(_ facets: [FacetCounts], genres: GenreCatalogue) -> String {
        var text = ""
        let labelWidth = facets.flatMap(\.values).map { DisplayWidth.of(label($0.value, facet: .genre, genres: genres)) }.max() ?? 0
        let countWidth = facets.flatMap(\.values).map { String($0.count).count }.max() ?? 1
        for (index, counts) in facets.enumerated() {
            if index > 0 { text += "\n" }
            text += title(counts.facet) + "\n"
            if counts.values.isEmpty { text += "  (no values)\n" }
            for value in counts.values {
                let shown = TextEscaping.terminalSafe(counts.facet == .genre ? label(value.value, facet: .genre, genres: genres) : value.value)
                text += "  " + (value.selected ? "[x] " : "[ ] ")
                    + DisplayWidth.pad(shown, to: max(labelWidth, 12)) + "  "
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

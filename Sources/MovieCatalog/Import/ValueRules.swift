import MovieDomain
import SQLiteStore
/// What a layout's value rules do to a row's cells before they are validated.
extension ImportLayout.ValueRule {
    /// Applies the rule to a row's cells, indexed by `MovieField.rawValue`.
    func apply(to cells: inout [Cell]) {
        switch self {
        case .noGenres(let marker):
            if case .text(let text) = cells[MovieField.genres.rawValue], text.trimmingWhitespace() == marker {
                cells[MovieField.genres.rawValue] = .null
            }
        case .zeroIsUnknown(let field):
            switch cells[field.rawValue] {
            case .text(let text), .number(let text):
                // `0`, `00`, `0.0`.
                let digits = text.trimmingWhitespace().utf8
                if digits.contains(0x30) && digits.allSatisfy({ $0 == 0x30 || $0 == 0x2E }) { cells[field.rawValue] = .null }
            default: break
            }
        case .durationUnits(let perMinute):
            switch cells[MovieField.duration.rawValue] {
            case .text(let text), .number(let text):
                // Whole minutes, rounded; a value that is no whole number is left to be refused.
                if let units = ValueParsing.longInteger(text.trimmingWhitespace()), units > 0 {
                    // Rounded without adding first: units near Int.max must not overflow.
                    let minutes = units / perMinute + (units % perMinute >= (perMinute + 1) / 2 ? 1 : 0)
                    cells[MovieField.duration.rawValue] = .text(String(max(1, minutes)))
                }
            default: break
            }
        case .imdbIDsOnly:
            // Kodi's `imdbnumber` holds its scraper's id, TMDB's digits since Kodi 19: an IMDb id only with `tt`.
            if case .text(let text) = cells[MovieField.imdbID.rawValue], !text.trimmingWhitespace().lowercased().hasPrefix("tt") {
                cells[MovieField.imdbID.rawValue] = .null
            }
        case .imdbIDFromGuids:
            let guids: [String]
            switch cells[MovieField.imdbID.rawValue] {
            case .list(let items): guids = items
            case .text(let text): guids = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map(String.init)
            default: return
            }
            // `imdb://tt1375666`, or the older agents' `com.plexapp.agents.imdb://tt0113277?lang=en`.
            let imdb = guids.lazy.compactMap { guid -> String? in
                let lower = guid.lowercased()
                guard let found = lower.firstRange(of: "imdb://") else { return nil }
                return String(lower[found.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber) })
            }.first
            cells[MovieField.imdbID.rawValue] = imdb.map { .text($0) } ?? .null
        case .minutesInCertification:
            guard case .text(let text) = cells[MovieField.certification.rawValue], text.lowercased().hasSuffix(" min") else { return }
            cells[MovieField.certification.rawValue] = .null
            switch cells[MovieField.duration.rawValue] {
            case .absent, .null: cells[MovieField.duration.rawValue] = .text(text)
            default: break
            }
        case .genreNames(let table):
            let names: [String]
            switch cells[MovieField.genres.rawValue] {
            // Prime Video's one category with commas in its name.
            case .text(let text):
                let joined = text.utf8.count >= 32 && text.contains("Arts, Entertainment, and Culture")
                names = RowDecoder.splitGenres(joined ? text.replacing("Arts, Entertainment, and Culture", with: "Arts Entertainment and Culture") : text)
            case .list(let items): names = items.flatMap(RowDecoder.splitGenres)
            default: return
            }
            cells[MovieField.genres.rawValue] = .list(names.flatMap { name -> [String] in
                guard let codes = table[Genre.slug(name)] else { return [name] }
                return codes.split(separator: ",").map(String.init)
            })
        case .certificationAfter(let word):
            if case .text(let text) = cells[MovieField.certification.rawValue], text.hasPrefix(word) {
                cells[MovieField.certification.rawValue] = .text(String(text.dropFirst(word.count)))
            }
        case .movieLensLinks(let links):
            if case .text(let movieID) = cells[MovieField.imdbID.rawValue] {
                cells[MovieField.imdbID.rawValue] = links[movieID.trimmingWhitespace()].map(Cell.text) ?? .null
            }
        case .genreIDs(let names):
            if case .numbers(let ids) = cells[MovieField.genres.rawValue] {
                cells[MovieField.genres.rawValue] = .list(ids.compactMap { names[$0] })
            }
        case .yearAfterTitle:
            // A year the schema takes (`Space (3001)` keeps its title).
            guard case .absent = cells[MovieField.year.rawValue], case .text(let text) = cells[MovieField.title.rawValue],
                  text.utf8.last == UInt8(ascii: ")") || text.utf8.last.map({ $0 <= 0x20 }) == true,
                  let (title, year) = ImportLayout.ValueRule.splitYear(text), let value = Int(year),
                  MovieRules.years.contains(value) else { return }
            cells[MovieField.title.rawValue] = .text(title)
            cells[MovieField.year.rawValue] = .text(year)
        case .yearInTitle:
            guard case .text(let text) = cells[MovieField.title.rawValue] else { return }
            guard let (title, year) = ImportLayout.ValueRule.splitYear(text) else {
                // No year (`Matrix, The`): the article still moves.
                let moved = ImportLayout.ValueRule.articleFirst(text.trimmingWhitespace())
                if moved != text.trimmingWhitespace() { cells[MovieField.title.rawValue] = .text(moved) }
                return
            }
            cells[MovieField.title.rawValue] = .text(ImportLayout.ValueRule.articleFirst(title))
            switch cells[MovieField.year.rawValue] {
            case .absent, .null: cells[MovieField.year.rawValue] = .text(year)
            default: break
            }
        }
    }

    /// `Toy Story (1995)` -> (`Toy Story`, `1995`); nil without a trailing four-digit year.
    static func splitYear(_ raw: String) -> (String, String)? {
        let text = raw.trimmingWhitespace()
        let bytes = Array(text.utf8)
        guard bytes.count >= 6, bytes[bytes.count - 1] == UInt8(ascii: ")"), bytes[bytes.count - 6] == UInt8(ascii: "("),
              bytes[(bytes.count - 5)..<(bytes.count - 1)].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let title = String(decoding: bytes[..<(bytes.count - 6)], as: UTF8.self).trimmingWhitespace()
        guard !title.isEmpty else { return nil }
        return (title, String(decoding: bytes[(bytes.count - 5)..<(bytes.count - 1)], as: UTF8.self))
    }

    /// `American President, The` -> `The American President`, `Haine, La` -> `La Haine`: MovieLens
    /// writes a title's leading article last, in any language, in the main title and in each
    /// parenthesised alternative one: `Boot, Das (Boat, The)` -> `Das Boot (The Boat)`.
    static func articleFirst(_ title: String) -> String {
        var parts = title.split(separator: " (", omittingEmptySubsequences: false).map(String.init)
        guard let main = parts.first, let moved = articleMoved(main[...]) else {
            return parts.count > 1 ? alternativesMoved(title, parts) : title
        }
        parts[0] = moved
        return alternativesMoved(parts.joined(separator: " ("), parts)
    }

    /// The title with each parenthesised alternative's article moved (`parts`: it split at ` (`).
    private static func alternativesMoved(_ title: String, _ parts: [String]) -> String {
        var parts = parts
        var changed = false
        for i in parts.indices.dropFirst() where parts[i].hasSuffix(")") {
            if let moved = articleMoved(parts[i].dropLast()) {
                parts[i] = moved + ")"
                changed = true
            }
        }
        return changed ? parts.joined(separator: " (") : title
    }

    /// `Haine, La` -> `La Haine`, `Avventura, L'` -> `L'Avventura`; nil without a trailing article.
    private static func articleMoved(_ text: Substring) -> String? {
        for article in trailingArticles where text.hasSuffix(", " + article) {
            let rest = text.dropLast(article.count + 2)
            guard !rest.isEmpty else { return nil }
            return article + (article.hasSuffix("'") ? "" : " ") + rest
        }
        return nil
    }

    /// The articles MovieLens moves to a title's end: English, French, Italian, Spanish,
    /// Portuguese, German, Dutch and Scandinavian ones.
    static let trailingArticles = ["The", "A", "An", "La", "Le", "Les", "L'", "Il", "Lo", "Gli", "I", "El", "Los", "Las",
                                   "Un", "Une", "Una", "Uno", "O", "Os", "As", "Der", "Die", "Das", "Ein", "Eine", "De",
                                   "Het", "Den", "Det", "En", "Ett"]
}

import MovieCatalog
import MovieDomain

/// The filter options shared by `filter`, `facets`, `save-preset` and `browse`, and how they
/// and `facet:value` tokens become a set.
public enum FilterOptions {
    /// One option per facet: `--genre`, `--exclude-genre`, ... (all repeatable).
    public static let facets: [(facet: Facet, option: Option<String>)] = Facet.allCases.map { facet in
        (facet, Option(facet.flag, value: valueName(facet), help: help(facet), repeatable: true,
                       completion: completion(facet)) { text in
            // Genre values are checked against the catalog's genres later; the rest here.
            if facet != .genre && facet != .excludeGenre { _ = try FilterParser.standalone.parse(facet, text) }
            return text
        })
    }

    /// `--preset NAME` (repeatable): adds a saved preset's elements.
    public static let preset = Option<String>("--preset", value: "name", help: "Add the elements of a saved preset.",
                                              repeatable: true, completion: .presets) { name in
        // An empty name is a bad value (64), as for every option, not a preset that is missing (1).
        guard !name.trimmingWhitespace().isEmpty else { throw InvalidValue("expected a preset name") }
        return name
    }

    /// Every filter option, for a command's option list.
    public static var all: [any OptionDeclaration] { facets.map(\.option) + [preset] }

    static func valueName(_ facet: Facet) -> String {
        switch facet {
        case .genre, .excludeGenre: return "g"
        case .rating: return "r"
        case .duration: return "d"
        case .year: return "y"
        case .certification: return "c"
        case .title: return "text"
        case .votes: return "v"
        case .imdb: return "id"
        }
    }

    static func help(_ facet: Facet) -> String {
        switch facet {
        case .genre: return "Has genre G (code or name; comma list or repeat to OR)."
        case .excludeGenre: return "Does not have genre G (all exclusions apply)."
        case .rating: return "Rating: 7 (7 <= r < 8), 7.5 (exact), or a range 7.5.., ..4, 6..8.5"
        case .duration: return "Duration: 2h (2h to 3h), 95m, 1h30m, or a range 90m..2h30m, ..90m, 2h.."
        case .year: return "Year: 1994, 1990s, or a range 1990..1999, 2000.., ..1920"
        case .certification: return "Certification: R, PG-13 (any case)."
        case .title: return "Title contains TEXT (any case; % and _ are literal)."
        case .votes: return "Votes: 100 (exact), or a range 25k.., ..1000, 1k..50k (k = 1,000, m = 1,000,000)"
        case .imdb: return "The movie with this IMDb id, e.g. tt0111161."
        }
    }

    static func completion(_ facet: Facet) -> Completion {
        switch facet {
        case .genre, .excludeGenre: return .genres
        case .certification: return .choices(["G", "PG", "PG-13", "R", "NC-17"])
        default: return .none
        }
    }

    /// The set given by facet options, `facet:value` tokens and `--preset` names (set union of
    /// all). Genres resolve against `parser`'s; `preset` looks a preset up by name.
    public static func filterSet(from parsed: ParsedArguments, tokens: [String], parser: FilterParser,
                                 preset: (String) throws -> FilterSet) throws -> FilterSet {
        var set = FilterSet()
        for value in parsed.values {
            if let facet = Facet(flag: value.name) { set.formUnion(try parser.parse(facet, value.text)) }
        }
        for token in tokens { set.formUnion(try parser.parseToken(token)) }
        for name in parsed.all(FilterOptions.preset) { set.formUnion(try preset(name)) }
        return set
    }
}

extension Facet {
    /// The facet whose flag this is (`--exclude-genre`), if any.
    init?(flag: String) {
        guard flag.hasPrefix("--") else { return nil }
        self.init(rawValue: String(flag.dropFirst(2)))
    }
}

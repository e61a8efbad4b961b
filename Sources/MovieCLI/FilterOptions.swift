import MovieCatalog
import MovieDomain
/// The filter flags shared by `filter`, `facets` and `save-preset`, and how they become a set.
public enum FilterOptions {
    /// `--genre`, `--exclude-genre`, ..., `--title`, `--preset`; all repeatable.
    public static let options: [OptionSpec] = [
        OptionSpec("--genre", value: "g", help: "Has genre G (code or name; comma list or repeat to OR).", repeatable: true),
        OptionSpec("--exclude-genre", value: "g", help: "Does not have genre G (all exclusions apply).", repeatable: true),
        OptionSpec("--rating", value: "r", help: "Rating: 7 (7 <= r < 8), 7.5 (exact), or a range 7.5.., ..4, 6..8.5", repeatable: true),
        OptionSpec("--duration", value: "d", help: "Duration: 2h (2h to 3h), 95m, 1h30m, or a range 90m..2h30m, ..90m, 2h..", repeatable: true),
        OptionSpec("--year", value: "y", help: "Year: 1994, 1990s, or a range 1990..1999, 2000.., ..1920", repeatable: true),
        OptionSpec("--certification", value: "c", help: "Certification: R, PG-13 (any case).", repeatable: true),
        OptionSpec("--title", value: "text", help: "Title contains TEXT (any case; % and _ are literal).", repeatable: true),
        OptionSpec("--votes", value: "v", help: "Votes: 100 (exact), or a range 25k.., ..1000, 1k..50k (k = 1,000, m = 1,000,000)", repeatable: true),
        OptionSpec("--imdb", value: "id", help: "The movie with this IMDb id, e.g. tt0111161.", repeatable: true),
        OptionSpec("--preset", value: "name", help: "Add the elements of a saved preset.", repeatable: true),
    ]

    /// The facet a flag selects, if it is a facet flag.
    public static func facet(forFlag flag: String) -> Facet? {
        guard flag.hasPrefix("--") else { return nil }
        return Facet(rawValue: String(flag.dropFirst(2)))
    }

    /// The set given by facet flags, `facet:value` tokens and `--preset` names (set union of all).
    public static func filterSet(from parsed: ParsedArguments, tokens: [String], catalog: Catalog) throws -> FilterSet {
        let parser = try catalog.filterParser()
        var set = FilterSet()
        for (flag, value) in parsed.values {
            if let facet = facet(forFlag: flag) { set.formUnion(try parser.parse(facet, value)) }
        }
        for token in tokens { set.formUnion(try parser.parseToken(token)) }
        for name in parsed.all("--preset") { set.formUnion(try catalog.preset(named: name, parser: parser).filters) }
        return set
    }
}

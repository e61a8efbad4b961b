/// The one reference model of SPEC section 3, for the unit and the end-to-end suites: which
/// movies a set of canonical `facet:value` tokens matches, and the facet buckets, written
/// straight from the SPEC's text, independently of the code under test.
public enum FilterModel {
    /// A movie as the model sees it.
    public struct Movie: Sendable {
        public var title: String
        public var year: Int?
        /// Genre codes.
        public var genres: Set<String>
        public var rating: Double?
        public var votes: Int?
        public var minutes: Int?
        public var certification: String?
        public var imdbID: String?

        public init(title: String, year: Int? = nil, genres: Set<String> = [], rating: Double? = nil, votes: Int? = nil,
                    minutes: Int? = nil, certification: String? = nil, imdbID: String? = nil) {
            (self.title, self.year, self.genres, self.rating) = (title, year, genres, rating)
            (self.votes, self.minutes, self.certification, self.imdbID) = (votes, minutes, certification, imdbID)
        }
    }

    /// Same facet OR-ed, different facets AND-ed, every exclude-genre applied; no tokens: all.
    public static func matches(_ movie: Movie, _ tokens: [String]) -> Bool {
        let byFacet = Dictionary(grouping: tokens) { String($0.prefix { $0 != ":" }) }
        return byFacet.allSatisfy { facet, tokens in
            let values = tokens.map { String($0.drop { $0 != ":" }.dropFirst()) }
            return facet == "exclude-genre"
                ? values.allSatisfy { !movie.genres.contains($0) }
                : values.contains { matches(movie, facet: facet, value: $0) }
        }
    }

    /// One element.
    static func matches(_ m: Movie, facet: String, value: String) -> Bool {
        switch facet {
        case "genre": return m.genres.contains(value)
        case "certification": return m.certification?.uppercased() == value.uppercased()
        case "title": return m.title.lowercased().contains(value.lowercased())
        case "imdb": return m.imdbID == value.lowercased()
        case "votes":
            guard let v = m.votes else { return false }
            return inRange(Double(v), value, bound: count) ?? (count(value) == Double(v))
        case "rating":
            guard let r = m.rating else { return false }
            if let ranged = inRange(r, value, bound: { Double($0) }) { return ranged }
            // A whole number is its bucket (10 is exact); anything else is exact.
            if let whole = Int(value) { return whole == 10 ? r == 10 : r >= Double(whole) && r < Double(whole + 1) }
            return Double(value) == r
        case "duration":
            guard let d = m.minutes else { return false }
            if let ranged = inRange(Double(d), value, bound: minutes) { return ranged }
            if value.hasSuffix("h"), let hours = Int(value.dropLast()) { return d >= hours * 60 && d < hours * 60 + 60 }
            return minutes(value) == Double(d)
        case "year":
            guard let y = m.year else { return false }
            if let ranged = inRange(Double(y), value, bound: { Double($0) }) { return ranged }
            if value.hasSuffix("s"), let decade = Int(value.dropLast()) { return y >= decade && y <= decade + 9 }
            return Int(value) == y
        default: return false
        }
    }

    /// `lo..hi` inclusive, either side open; nil when the value is not a range.
    static func inRange(_ x: Double, _ value: String, bound: (String) -> Double?) -> Bool? {
        guard let dots = value.firstRange(of: "..") else { return nil }
        let lo = String(value[..<dots.lowerBound]), hi = String(value[dots.upperBound...])
        if !lo.isEmpty, let lo = bound(lo), x < lo { return false }
        if !hi.isEmpty, let hi = bound(hi), x > hi { return false }
        return true
    }

    /// Minutes of `95`, `95m`, `2h`, `1h30m`.
    static func minutes(_ text: String) -> Double? {
        var total = 0, number = 0
        for c in text {
            if let digit = c.wholeNumberValue { number = number * 10 + digit }
            else if c == "h" { total += number * 60; number = 0 }
            else if c == "m" { total += number; number = 0 }
            else { return nil }
        }
        return Double(total + number)
    }

    /// `25000`, `25k`, `1.5m`.
    static func count(_ text: String) -> Double? {
        let lower = text.lowercased()
        if lower.hasSuffix("k") { return Double(lower.dropLast()).map { $0 * 1_000 } }
        if lower.hasSuffix("m") { return Double(lower.dropLast()).map { $0 * 1_000_000 } }
        return Double(lower)
    }

    /// The facet buckets a movie counts under (SPEC section 4, facets): genre codes, whole
    /// rating, hours (`0h` under an hour), decade, certification; none without a value.
    public static func buckets(_ m: Movie, _ facet: String) -> [String] {
        switch facet {
        case "genre": return Array(m.genres)
        case "rating": return m.rating.map { [String(Int($0))] } ?? []
        case "duration": return m.minutes.map { ["\($0 / 60)h"] } ?? []
        case "year": return m.year.map { ["\($0 / 10 * 10)s"] } ?? []
        case "certification": return m.certification.map { [$0] } ?? []
        default: return []
        }
    }
}

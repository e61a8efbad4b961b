import Foundation

/// A reproducible random number generator for the randomized suites.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random movies written as CSV, and the facet counts the SPEC defines for them, computed by brute force.
struct RandomCatalog {
    struct Movie {
        let title: String, year: Int?, genres: Set<String>, tenths: Int?, minutes: Int?, certification: String?
    }

    struct Element {
        let facet: String, value: String
        let matches: (Movie) -> Bool
        var token: String { "\(facet):\(value)" }
    }

    static let genrePool = ["action", "comedy", "drama", "horror", "romance", "sci-fi", "western", "cyberpunk"]
    static let certificationPool = ["G", "PG", "PG-13", "R", "NC-17"]
    let movies: [Movie]

    init(count: Int, using rng: inout SplitMix64) {
        func maybe<T>(_ value: T) -> T? { Int.random(in: 0..<10, using: &rng) == 0 ? nil : value }
        movies = (1...count).map { i in
            let genres = Set((0..<Int.random(in: 0...3, using: &rng)).map { _ in Self.genrePool.randomElement(using: &rng)! })
            return Movie(title: "Random Movie \(i)", year: maybe(Int.random(in: 1915...2024, using: &rng)), genres: genres,
                         tenths: maybe(Int.random(in: 0...100, using: &rng)), minutes: maybe(Int.random(in: 20...260, using: &rng)),
                         certification: maybe(Self.certificationPool.randomElement(using: &rng)!))
        }
    }

    /// The CSV the test imports; certifications in lower case, genres by display name.
    var csv: String {
        var text = "title,year,genres,rating,duration,certification\n"
        for m in movies {
            let genres = m.genres.sorted().map { $0 == "sci-fi" ? "Sci-Fi" : $0.capitalized }.joined(separator: "|")
            let rating = m.tenths.map { "\($0 / 10).\($0 % 10)" } ?? ""
            text += [m.title, m.year.map(String.init) ?? "", genres, rating, m.minutes.map(String.init) ?? "",
                     m.certification?.lowercased() ?? ""].joined(separator: ",") + "\n"
        }
        return text
    }

    func randomElement(using rng: inout SplitMix64) -> Element {
        switch Int.random(in: 0..<12, using: &rng) {
        case 0, 1, 2:
            let g = Self.genrePool.randomElement(using: &rng)!
            return Element(facet: "genre", value: g) { $0.genres.contains(g) }
        case 3:
            let g = Self.genrePool.randomElement(using: &rng)!
            return Element(facet: "exclude-genre", value: g) { !$0.genres.contains(g) }
        case 4, 5:
            let b = Int.random(in: 0...10, using: &rng)
            return Element(facet: "rating", value: "\(b)") { m in m.tenths.map { $0 / 10 == b } ?? false }
        case 6:
            let lo = Int.random(in: 0...8, using: &rng)
            return Element(facet: "rating", value: "\(lo)..\(lo + 1).5") { m in m.tenths.map { $0 >= lo * 10 && $0 <= lo * 10 + 15 } ?? false }
        case 7:
            let h = Int.random(in: 0...4, using: &rng)
            return Element(facet: "duration", value: "\(h)h") { m in m.minutes.map { $0 / 60 == h } ?? false }
        case 8:
            let hi = Int.random(in: 60...150, using: &rng)
            return Element(facet: "duration", value: "..\(hi)m") { m in m.minutes.map { $0 <= hi } ?? false }
        case 9:
            let d = Int.random(in: 192...202, using: &rng) * 10
            return Element(facet: "year", value: "\(d)s") { m in m.year.map { $0 / 10 * 10 == d } ?? false }
        case 10:
            let lo = Int.random(in: 1915...2024, using: &rng)
            return Element(facet: "year", value: "\(lo)..") { m in m.year.map { $0 >= lo } ?? false }
        default:
            let c = Self.certificationPool.randomElement(using: &rng)!
            return Element(facet: "certification", value: c) { $0.certification == c }
        }
    }

    /// 1 to 4 distinct elements.
    func randomSet(using rng: inout SplitMix64) -> [Element] {
        var set: [Element] = []
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let element = randomElement(using: &rng)
            if !set.contains(where: { $0.token == element.token }) { set.append(element) }
        }
        return set
    }

    /// Same facet OR-ed, facets AND-ed, every exclude-genre applied.
    func matches(_ m: Movie, _ set: [Element]) -> Bool {
        Dictionary(grouping: set, by: \.facet).allSatisfy { facet, elements in
            facet == "exclude-genre" ? elements.allSatisfy { $0.matches(m) } : elements.contains { $0.matches(m) }
        }
    }

    /// The SPEC's disjunctive counts: non-zero buckets plus every selected element.
    func expectedFacets(_ set: [Element]) -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        for facet in FacetsTests.facetKeys {
            let rest = set.filter { $0.facet != facet }
            var counts: [String: Int] = [:]
            for m in movies where matches(m, rest) {
                let buckets: [String]
                switch facet {
                case "genre": buckets = Array(m.genres)
                case "rating": buckets = m.tenths.map { ["\($0 / 10)"] } ?? []
                case "duration": buckets = m.minutes.map { ["\($0 / 60)h"] } ?? []
                case "year": buckets = m.year.map { ["\($0 / 10 * 10)s"] } ?? []
                default: buckets = m.certification.map { [$0] } ?? []
                }
                for b in buckets { counts[b, default: 0] += 1 }
            }
            for element in set where element.facet == facet {
                counts[element.value] = movies.filter { matches($0, rest + [element]) }.count
            }
            result[facet] = counts
        }
        return result
    }
}

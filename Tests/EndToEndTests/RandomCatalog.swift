import Foundation
import TestSupport

/// Random movies written as CSV, and the facet counts the SPEC defines for them, computed by brute force.
struct RandomCatalog {
    struct Movie {
        let title: String, year: Int?, genres: Set<String>, tenths: Int?, minutes: Int?, certification: String?

        /// The movie as the shared reference model sees it.
        var model: FilterModel.Movie {
            FilterModel.Movie(title: title, year: year, genres: genres, rating: tenths.map { Double($0) / 10 },
                              minutes: minutes, certification: certification)
        }
    }

    /// One element of a set, as its token.
    struct Element {
        let facet: String, value: String
        var token: String { "\(facet):\(value)" }
    }

    static let genrePool = ["action", "comedy", "drama", "horror", "romance", "sci-fi", "western", "cyberpunk"]
    static let certificationPool = ["G", "PG", "PG-13", "R", "NC-17"]
    let movies: [Movie]

    init(count: Int, using rng: inout SeededRandom) {
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

    func randomElement(using rng: inout SeededRandom) -> Element {
        switch Int.random(in: 0..<12, using: &rng) {
        case 0, 1, 2:
            let g = Self.genrePool.randomElement(using: &rng)!
            return Element(facet: "genre", value: g)
        case 3:
            let g = Self.genrePool.randomElement(using: &rng)!
            return Element(facet: "exclude-genre", value: g)
        case 4, 5:
            let b = Int.random(in: 0...10, using: &rng)
            return Element(facet: "rating", value: "\(b)")
        case 6:
            let lo = Int.random(in: 0...8, using: &rng)
            return Element(facet: "rating", value: "\(lo)..\(lo + 1).5")
        case 7:
            let h = Int.random(in: 0...4, using: &rng)
            return Element(facet: "duration", value: "\(h)h")
        case 8:
            let hi = Int.random(in: 60...150, using: &rng)
            return Element(facet: "duration", value: "..\(hi)m")
        case 9:
            let d = Int.random(in: 192...202, using: &rng) * 10
            return Element(facet: "year", value: "\(d)s")
        case 10:
            let lo = Int.random(in: 1915...2024, using: &rng)
            return Element(facet: "year", value: "\(lo)..")
        default:
            let c = Self.certificationPool.randomElement(using: &rng)!
            return Element(facet: "certification", value: c)
        }
    }

    /// 1 to 4 distinct elements.
    func randomSet(using rng: inout SeededRandom) -> [Element] {
        var set: [Element] = []
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let element = randomElement(using: &rng)
            if !set.contains(where: { $0.token == element.token }) { set.append(element) }
        }
        return set
    }

    /// Same facet OR-ed, facets AND-ed, every exclude-genre applied: the shared reference model.
    func matches(_ m: Movie, _ set: [Element]) -> Bool {
        FilterModel.matches(m.model, set.map(\.token))
    }

    /// The SPEC's disjunctive counts: non-zero buckets plus every selected element.
    func expectedFacets(_ set: [Element]) -> [String: [String: Int]] {
        var result: [String: [String: Int]] = [:]
        for facet in FacetsTests.facetKeys {
            let rest = set.filter { $0.facet != facet }
            var counts: [String: Int] = [:]
            for m in movies where matches(m, rest) {
                for b in FilterModel.buckets(m.model, facet) { counts[b, default: 0] += 1 }
            }
            for element in set where element.facet == facet {
                counts[element.value] = movies.filter { matches($0, rest + [element]) }.count
            }
            result[facet] = counts
        }
        return result
    }
}

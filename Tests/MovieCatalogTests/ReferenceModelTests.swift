import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The SQL translation and facet counts checked against a brute-force model on random catalogs.
@Suite struct ReferenceModelTests {
    /// A stored movie as the shared reference model sees it.
    static func model(_ m: Movie) -> FilterModel.Movie {
        FilterModel.Movie(title: m.title, year: m.year, genres: Set(m.genres), rating: m.rating, votes: m.votes,
                          minutes: m.durationMinutes, certification: m.certification, imdbID: m.imdbID)
    }

    /// Whether the model says a movie matches a set, given as its canonical tokens.
    static func matches(_ m: Movie, _ set: FilterSet) -> Bool {
        FilterModel.matches(model(m), set.sorted.map(\.description))
    }

    static let genreCodes = ["action", "comedy", "drama", "horror", "war"]

    static func randomCatalog(_ rng: inout SeededRandom) throws -> (TempPath, Catalog) {
        let temp = TempPath()
        let catalog = try Catalog(path: temp.path)
        for i in 0..<120 {
            let genres = genreCodes.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
            let movie = Movie(title: "Movie \(i) \(["Gold", "Iron", "gold%", "Sea_", "Émile", "ÉMILE"].randomElement(using: &rng)!)",
                              year: Bool.random(using: &rng) ? Int.random(in: 1950...2020, using: &rng) : nil,
                              genres: genres,
                              rating: Bool.random(using: &rng) ? Double(Int.random(in: 0...100, using: &rng)) / 10 : nil,
                              votes: Bool.random(using: &rng) ? Int.random(in: 0...100_000, using: &rng) : nil,
                              durationMinutes: Bool.random(using: &rng) ? Int.random(in: 30...240, using: &rng) : nil,
                              certification: [nil, "R", "PG", "PG-13"].randomElement(using: &rng)!,
                              imdbID: Bool.random(using: &rng) ? "tt\(1_000_000 + i)" : nil)
            try catalog.add(movie)
        }
        return (temp, catalog)
    }

    static func randomElement(_ rng: inout SeededRandom) -> MovieFilter {
        switch Int.random(in: 0..<14, using: &rng) {
        case 0, 1: return .genre(genreCodes.randomElement(using: &rng)!)
        case 2: return .excludeGenre(genreCodes.randomElement(using: &rng)!)
        case 3: return .rating(.bucket(Int.random(in: 0...10, using: &rng)))
        case 4: return .rating(.range(Double(Int.random(in: 0...60, using: &rng)) / 10, Bool.random(using: &rng) ? nil : 8.5))
        case 5: return .duration(.hours(Int.random(in: 0...4, using: &rng)))
        case 6: return .duration(.range(nil, Int.random(in: 60...200, using: &rng)))
        case 7: return .year(.decade(1950 + 10 * Int.random(in: 0...7, using: &rng)))
        case 8: return .year(.range(Int.random(in: 1950...2000, using: &rng), nil))
        case 9: return .certification(["R", "PG", "PG-13", "G"].randomElement(using: &rng)!)
        case 10: return .votes(.range(Int.random(in: 0...50_000, using: &rng), Bool.random(using: &rng) ? nil : 80_000))
        case 11: return .imdb("tt\(1_000_000 + Int.random(in: 0..<130, using: &rng))")
        default: return .title(["gold", "%", "_", "movie 1", "SEA", "émile", "ÉMI"].randomElement(using: &rng)!)
        }
    }

    @Test("filter results equal the brute-force model on random sets")
    func filterMatchesModel() throws {
        var rng = SeededRandom(seed: 7)
        let (temp, catalog) = try Self.randomCatalog(&rng)
        _ = temp
        let all = try catalog.movies(MovieQuery())
        #expect(all.count == 120)
        for _ in 0..<150 {
            let set = FilterSet((0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.randomElement(&rng) })
            let expected = Set(all.filter { Self.matches($0, set) }.map(\.id))
            let actual = Set(try catalog.movies(MovieQuery(filters: set)).map(\.id))
            #expect(actual == expected, "\(set)")
            #expect(try catalog.count(set) == expected.count)
        }
    }

    @Test("facet counts equal brute-force disjunctive counts on random sets")
    func facetsMatchModel() throws {
        var rng = SeededRandom(seed: 11)
        let (temp, catalog) = try Self.randomCatalog(&rng)
        _ = temp
        let all = try catalog.movies(MovieQuery())
        let counter = FacetCounter(catalog: catalog)
        for _ in 0..<60 {
            let set = FilterSet((0..<Int.random(in: 0...4, using: &rng)).map { _ in Self.randomElement(&rng) })
            for counts in try counter.counts(for: set) {
                let rest = set.removing(counts.facet)
                var expected: [String: Int] = [:]
                for movie in all where Self.matches(movie, rest) {
                    for bucket in FilterModel.buckets(Self.model(movie), counts.facet.rawValue) { expected[bucket, default: 0] += 1 }
                }
                for value in counts.values {
                    if value.selected {
                        let element = set.elements(of: counts.facet).first { $0.value == value.value }!
                        let model = all.filter { Self.matches($0, rest.union(element)) }.count
                        #expect(value.count == model, "\(counts.facet) \(value.value) under \(set)")
                    } else {
                        #expect(value.count == expected[value.value], "\(counts.facet) \(value.value) under \(set)")
                    }
                }
                let listed = Set(counts.values.map(\.value))
                for (bucket, count) in expected where count > 0 {
                    #expect(listed.contains(bucket), "\(counts.facet) missing \(bucket) under \(set)")
                }
            }
        }
    }
}

import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore

/// Parsing filter values and tokens into canonical elements.
@Suite struct FilterParserTests {
    static let genres = GenreCatalogue([
        Genre(id: 1, code: "drama", name: "Drama"), Genre(id: 2, code: "sci-fi", name: "Sci-Fi"),
        Genre(id: 3, code: "action", name: "Action"), Genre(id: 4, code: "comedy", name: "Comedy"),
    ])
    let parser = FilterParser(genres: genres)

    struct Case: Sendable, CustomStringConvertible {
        let facet: Facet
        let input: String
        let expected: MovieFilter
        var description: String { "\(facet.rawValue) \(input)" }
    }

    static let cases: [Case] = [
        Case(facet: .genre, input: "Drama", expected: .genre("drama")),
        Case(facet: .genre, input: "SCI-FI", expected: .genre("sci-fi")),
        Case(facet: .genre, input: "sci fi", expected: .genre("sci-fi")),
        Case(facet: .excludeGenre, input: "comedy", expected: .excludeGenre("comedy")),
        Case(facet: .rating, input: "7", expected: .rating(.bucket(7))),
        Case(facet: .rating, input: "10", expected: .rating(.bucket(10))),
        Case(facet: .rating, input: "7.5", expected: .rating(.exact(7.5))),
        Case(facet: .rating, input: "7.0", expected: .rating(.exact(7))),
        Case(facet: .rating, input: "7.5..", expected: .rating(.range(7.5, nil))),
        Case(facet: .rating, input: "..4", expected: .rating(.range(nil, 4))),
        Case(facet: .rating, input: "6..8.5", expected: .rating(.range(6, 8.5))),
        Case(facet: .rating, input: "-1..11", expected: .rating(.range(-1, 11))),
        Case(facet: .rating, input: "0.00001..", expected: .rating(.range(0.00001, nil))),
        Case(facet: .rating, input: "0.00001", expected: .rating(.exact(0.00001))),
        Case(facet: .duration, input: "2h", expected: .duration(.hours(2))),
        Case(facet: .duration, input: "2hours", expected: .duration(.hours(2))),
        Case(facet: .duration, input: "2 Hours", expected: .duration(.hours(2))),
        Case(facet: .duration, input: "1 hr", expected: .duration(.hours(1))),
        Case(facet: .duration, input: "0h", expected: .duration(.hours(0))),
        Case(facet: .duration, input: "95m", expected: .duration(.minutes(95))),
        Case(facet: .duration, input: "95", expected: .duration(.minutes(95))),
        Case(facet: .duration, input: "1h30m", expected: .duration(.minutes(90))),
        Case(facet: .duration, input: "90m..2h30m", expected: .duration(.range(90, 150))),
        Case(facet: .duration, input: "..90m", expected: .duration(.range(nil, 90))),
        Case(facet: .duration, input: "2h..", expected: .duration(.range(120, nil))),
        Case(facet: .year, input: "1994", expected: .year(.exact(1994))),
        Case(facet: .year, input: "1990s", expected: .year(.decade(1990))),
        Case(facet: .year, input: "1990..1999", expected: .year(.range(1990, 1999))),
        Case(facet: .year, input: "2000..", expected: .year(.range(2000, nil))),
        Case(facet: .year, input: "..1920", expected: .year(.range(nil, 1920))),
        Case(facet: .certification, input: "pg-13", expected: .certification("PG-13")),
        Case(facet: .title, input: "100% _real_, really", expected: .title("100% _real_, really")),
        Case(facet: .title, input: " the end ", expected: .title(" the end ")),
        Case(facet: .votes, input: "100", expected: .votes(.exact(100))),
        Case(facet: .votes, input: "25000..", expected: .votes(.range(25_000, nil))),
        Case(facet: .votes, input: "25k..", expected: .votes(.range(25_000, nil))),
        Case(facet: .votes, input: "..1000", expected: .votes(.range(nil, 1000))),
        Case(facet: .votes, input: "1k..50K", expected: .votes(.range(1000, 50_000))),
        Case(facet: .votes, input: "1.5m..", expected: .votes(.range(1_500_000, nil))),
        Case(facet: .imdb, input: "TT0111161", expected: .imdb("tt0111161")),
        Case(facet: .imdb, input: "tt10872600", expected: .imdb("tt10872600")),
    ]

    @Test("parses each value form", arguments: cases)
    func parses(_ c: Case) throws {
        let parsed = try parser.parse(c.facet, c.input)
        #expect(parsed == [c.expected])
    }

    @Test("canonical text round-trips", arguments: cases)
    func roundTrips(_ c: Case) throws {
        let element = c.expected
        #expect(try parser.parseToken(element.description) == [element])
    }

    @Test("comma lists add elements, except for titles")
    func commaLists() throws {
        #expect(try parser.parse(.genre, "action,drama") == [.genre("action"), .genre("drama")])
        #expect(try parser.parse(.rating, "1,9..") == [.rating(.bucket(1)), .rating(.range(9, nil))])
        #expect(try parser.parse(.votes, "1k,25000..").count == 2, "a list of votes without grouped thousands")
        #expect(try parser.parse(.title, "a,b") == [.title("a,b")])
        #expect(try parser.parseToken("genre:action,comedy") == [.genre("action"), .genre("comedy")])
        #expect(try parser.parseToken("title:Star Wars: Episode IV") == [.title("Star Wars: Episode IV")])
    }

    struct Bad: Sendable, CustomStringConvertible {
        let facet: Facet
        let input: String
        let message: String
        var description: String { "\(facet.rawValue) '\(input)'" }
    }

    static let bad: [Bad] = [
        Bad(facet: .genre, input: "dramma", message: "did you mean 'drama'?"),
        Bad(facet: .genre, input: "", message: "empty value for '--genre'"),
        Bad(facet: .genre, input: "drama,", message: "empty value"),
        Bad(facet: .rating, input: "7..x", message: "invalid value '7..x' for '--rating'"),
        Bad(facet: .rating, input: "..", message: "invalid value"),
        Bad(facet: .rating, input: "11", message: "single ratings lie in 0..10"),
        Bad(facet: .rating, input: "8..6", message: "invalid range '8..6' for '--rating': its lower bound is above its upper bound"),
        Bad(facet: .rating, input: "4...5", message: "invalid value '4...5' for '--rating': expected a rating like"),
        Bad(facet: .rating, input: "1..2..3", message: "invalid value"),
        Bad(facet: .rating, input: "nan", message: "invalid value"),
        Bad(facet: .rating, input: "1e3", message: "invalid value"),
        Bad(facet: .duration, input: "2x", message: "invalid value '2x' for '--duration'"),
        Bad(facet: .duration, input: "-5", message: "invalid value"),
        Bad(facet: .year, input: "1994s", message: "a decade like 1990s"),
        Bad(facet: .year, input: "90s", message: "a decade like 1990s"),
        Bad(facet: .year, input: "nineteen", message: "invalid value"),
        Bad(facet: .votes, input: "lots", message: "invalid value 'lots' for '--votes'"),
        Bad(facet: .votes, input: "1.2345k", message: "invalid value"),
        Bad(facet: .votes, input: "50k..1k", message: "lower bound is above"),
        Bad(facet: .votes, input: "25,000..", message: "--votes '25,000..': a comma separates values, so '000..' would be one; write thousands without commas (25000) or with k (25k)"),
        Bad(facet: .votes, input: "..1,500,000", message: "so '500' would be one"),
        Bad(facet: .imdb, input: "nm0000001", message: "invalid value 'nm0000001' for '--imdb': expected an IMDb id"),
        Bad(facet: .title, input: "   ", message: "empty value"),
    ]

    @Test("rejects malformed values with a usage error naming the token", arguments: bad)
    func rejects(_ c: Bad) throws {
        let error = #expect(throws: CatalogError.self) { try parser.parse(c.facet, c.input) }
        #expect(error?.kind == .usage)
        #expect(error?.message.contains(c.message) == true, "\(error?.message ?? "")")
    }

    @Test("unknown facet in a token suggests the nearest")
    func unknownFacet() throws {
        let error = #expect(throws: CatalogError.self) { try parser.parseToken("ratng:5") }
        #expect(error?.message.contains("did you mean 'rating'?") == true)
        // A genre's name alone is offered as its token; other words get the example.
        let genre = #expect(throws: CatalogError.self) { try parser.parseToken("Drama") }
        #expect(genre?.message == "unexpected argument 'Drama': filter tokens look like facet:value; did you mean 'genre:drama'?")
        let word = #expect(throws: CatalogError.self) { try parser.parseToken("nonsense") }
        #expect(word?.message == "unexpected argument 'nonsense': filter tokens look like facet:value, e.g. genre:drama")
    }

    @Test("equal elements collapse in a set")
    func collapse() throws {
        var set = FilterSet()
        set.formUnion(try parser.parse(.genre, "Drama"))
        set.formUnion(try parser.parse(.genre, "drama"))
        set.formUnion(try parser.parseToken("genre:DRAMA"))
        #expect(set.count == 1)
    }

    /// Found by fuzzing (Fuzz/Corpus/filter-token/regression-*): each parsed element's canonical
    /// text must parse back to it.
    @Test("canonical text round-trips for values fuzzing found", arguments: [
        (Facet.certification, "\u{318}"), (.certification, ":\u{301}x"), (.votes, "66220m.."), (.votes, "999999999999"),
        (.duration, "16666666h"), (.duration, "66662h..16666666h"), (.title, "a:\u{301}b"), (.votes, "1.5k,2k"),
    ])
    func fuzzedRoundTrips(_ facet: Facet, _ value: String) throws {
        for element in (try? parser.parse(facet, value)) ?? [] {
            #expect(try parser.parseToken(element.description) == [element], "\(element.description)")
        }
    }

    @Test("values a stored movie can have parse, and their canonical text reads back", arguments: [
        ("votes:9223372036854775807", MovieFilter.votes(.exact(Int.max))),
        ("votes:1000000000000..9223372036854775807", .votes(.range(1_000_000_000_000, Int.max))),
        ("duration:9223372036854775807", .duration(.minutes(Int.max))),
        ("duration:1000000000m..", .duration(.range(1_000_000_000, nil))),
        ("duration:153722867280912930h", .duration(.hours(153_722_867_280_912_930))),
        ("imdb:TT00000000001", .imdb("tt00000000001")), ("imdb:tt9223372036854775807", .imdb("tt9223372036854775807")),
        ("rating:0.30000000000000004", .rating(.exact(0.30000000000000004))),
        ("rating:0.0000000000000000000001..", .rating(.range(1e-22, nil))),
        ("certification:é", .certification("é")), ("certification:pg-13", .certification("PG-13")),
    ])
    func storedValues(_ token: String, _ element: MovieFilter) throws {
        #expect(try parser.parseToken(token) == [element])
        #expect(try parser.parseToken(element.description) == [element], "\(element.description)")
    }

    @Test("a comma or colon followed by a combining mark still separates")
    func combiningMarks() throws {
        #expect(try parser.parse(.certification, "R,\u{301}X").count == 2)
        #expect(try parser.parseToken("certification:\u{301}") == [.certification("\u{301}")])
        #expect(throws: CatalogError.self) { try parser.parse(.duration, "153722867280912931h") }
        #expect(try parser.parse(.votes, "66220m..") == [.votes(.range(66_220_000_000, nil))])
    }

    @Test("a genre's code wins over another genre's name (a sqlite3 user's 'drame' named 'Drama'), in either order")
    func codeOverName() {
        let drama = Genre(id: 1, code: "drama", name: "Drama"), drame = Genre(id: 2, code: "drame", name: "Drama")
        for genres in [[drama, drame], [drame, drama]] {
            let catalogue = GenreCatalogue(genres)
            #expect(catalogue.resolve("drama")?.id == 1 && catalogue.resolve("DRAMA")?.id == 1 && catalogue.resolve("drame")?.id == 2)
            #expect(catalogue.name(of: "drame") == "Drama")
        }
    }

    @Test("facet values list by where they start, then end: selected ranges among the buckets",
          arguments: [
              (Facet.rating, ["7.5..", "..2", "1", "3", "4.5", "7", "10"], ["..2", "1", "3", "4.5", "7", "7.5..", "10"]),
              (.year, ["2000..", "1870s", "1990s", "1994", "..1920", "2000s"], ["..1920", "1870s", "1990s", "1994", "2000s", "2000.."]),
              (.duration, ["2h", "95m", "0h", "1h", "..90m", "1h30m..2h"], ["..90m", "0h", "1h", "90m..120m", "95m", "2h"]),
          ])
    func listedInOrder(facet: Facet, values: [String], listed: [String]) throws {
        // Values as the counts name them: canonical, as `facets` prints them.
        let canonical = try values.map { try FilterParser.standalone.parseOne(facet, $0, source: "").value }
        let ordered = FacetCounter.ordered(canonical.map { FacetValue(value: $0, count: 1, selected: false) }, facet)
        #expect(ordered.map(\.value) == listed)
    }
}

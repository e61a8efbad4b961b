/// One movie as stored in the catalog.
public struct Movie: Equatable, Sendable {
    /// The catalog's id for the movie (0 before it is stored).
    public var id: Int64
    /// The movie's title.
    public var title: String
    /// The movie's release year, if known.
    public var year: Int?
    /// Genre codes, sorted.
    public var genres: [String]
    /// The movie's rating from 0 to 10, if known.
    public var rating: Double?
    /// How many people rated the movie (IMDb's numVotes), if known.
    public var votes: Int?
    /// The movie's running time in minutes, if known.
    public var durationMinutes: Int?
    /// The movie's certification (`PG-13`), if known.
    public var certification: String?
    /// The movie's IMDb id (`tt0111161`), if known: its identity where a list carries it.
    public var imdbID: String?

    /// Creates a movie; only the title is required. Inlinable: the importer makes one a row, and a
    /// call across the module boundary cost some 50 instructions more.
    @inlinable
    public init(id: Int64 = 0, title: String, year: Int? = nil, genres: [String] = [],
                rating: Double? = nil, votes: Int? = nil, durationMinutes: Int? = nil, certification: String? = nil,
                imdbID: String? = nil) {
        self.id = id
        self.title = title
        self.year = year
        self.genres = genres
        self.rating = rating
        self.votes = votes
        self.durationMinutes = durationMinutes
        self.certification = certification
        self.imdbID = imdbID
    }
}

/// One field's value, typed as the schema stores it (genres as a list of codes or names).
public enum FieldValue: Equatable, Sendable {
    case null
    case text(String)
    case integer(Int)
    case real(Double)
    case list([String])
}

extension Movie {
    /// A field's value; setting one converts it to the field's type (nil when it does not fit).
    public subscript(field: MovieField) -> FieldValue {
        get {
            switch field {
            case .title: return .text(title)
            case .year: return year.map(FieldValue.integer) ?? .null
            case .genres: return .list(genres)
            case .rating: return rating.map(FieldValue.real) ?? .null
            case .votes: return votes.map(FieldValue.integer) ?? .null
            case .duration: return durationMinutes.map(FieldValue.integer) ?? .null
            case .certification: return certification.map(FieldValue.text) ?? .null
            case .imdbID: return imdbID.map(FieldValue.text) ?? .null
            }
        }
        set {
            switch field {
            case .title: title = newValue.text ?? ""
            case .year: year = newValue.integer
            case .genres: genres = newValue.list
            case .rating: rating = newValue.real
            case .votes: votes = newValue.integer
            case .duration: durationMinutes = newValue.integer
            case .certification: certification = newValue.text
            case .imdbID: imdbID = newValue.text
            }
        }
    }
}

extension FieldValue {
    /// The value as text, or nil.
    var text: String? { if case .text(let s) = self { return s }; return nil }
    /// The value as a whole number, or nil.
    var integer: Int? {
        switch self {
        case .integer(let n): return n
        case .real(let d) where d == d.rounded() && abs(d) < 1e18: return Int(d)
        default: return nil
        }
    }
    /// The value as a number, or nil.
    var real: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let n): return Double(n)
        default: return nil
        }
    }
    /// The value as a list (a single text is a list of one), or empty.
    var list: [String] {
        switch self {
        case .list(let items): return items
        case .text(let s): return [s]
        default: return []
        }
    }
}

/// A genre of the catalogue: lower-case slug code and display name.
public struct Genre: Hashable, Sendable {
    /// The catalog's id for the genre.
    public var id: Int64
    /// The lower-case slug code (`sci-fi`).
    public var code: String
    /// The display name (`Sci-Fi`).
    public var name: String

    /// Creates a genre from its id, code and name.
    public init(id: Int64, code: String, name: String) {
        self.id = id
        self.code = code
        self.name = name
    }

    /// Other services' names for a genre, by slug, and the code they mean (TMDB's `Science
    /// Fiction` is IMDb's `Sci-Fi`; MovieLens 100k's `Children's` the later MovieLens `Children`):
    /// lists from several services then count alike in facets. A genre the catalog lacks is added
    /// under that code.
    public static let synonyms: [String: String] = [
        "science-fiction": "sci-fi", "scifi": "sci-fi", "children-s": "children", "childrens": "children",
    ]

    /// The code a genre of this name is added under: its slug, or the code its synonym means.
    public static func code(forName name: String) -> String {
        let slug = slug(name)
        return synonyms[slug] ?? slug
    }

    /// The code for a genre name: lower-case, runs of anything but letters and digits become one `-`.
    public static func slug(_ name: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return slug
    }
}

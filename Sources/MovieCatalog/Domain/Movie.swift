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
    /// The movie's running time in minutes, if known.
    public var durationMinutes: Int?
    /// The movie's certification (`PG-13`), if known.
    public var certification: String?

    /// Creates a movie; only the title is required.
    public init(id: Int64 = 0, title: String, year: Int? = nil, genres: [String] = [],
                rating: Double? = nil, durationMinutes: Int? = nil, certification: String? = nil) {
        self.id = id
        self.title = title
        self.year = year
        self.genres = genres
        self.rating = rating
        self.durationMinutes = durationMinutes
        self.certification = certification
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

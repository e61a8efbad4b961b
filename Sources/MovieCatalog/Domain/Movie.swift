/// One movie as stored in the catalog.
public struct Movie: Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var year: Int?
    /// Genre codes, sorted.
    public var genres: [String]
    public var rating: Double?
    public var durationMinutes: Int?
    public var certification: String?

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
    public var id: Int64
    public var code: String
    public var name: String

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

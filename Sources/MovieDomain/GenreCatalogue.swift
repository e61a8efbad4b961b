/// The genres a catalog knows, looked up by code or name in any case.
public struct GenreCatalogue: Sendable {
    /// All genres, ordered by code.
    public let genres: [Genre]
    private let byCode: [String: Genre]
    /// By lower-cased name; a code always wins over a name (a sqlite3 user's genre `drame`
    /// named `Drama` must not take `drama` over).
    private let byName: [String: Genre]

    /// Creates a catalogue of `genres`, indexed by code and lower-cased name.
    public init(_ genres: [Genre]) {
        self.genres = genres.sorted { $0.code < $1.code }
        var byCode: [String: Genre] = [:], byName: [String: Genre] = [:]
        for genre in self.genres {
            byCode[genre.code] = genre
            if byName[genre.name.lowercased()] == nil { byName[genre.name.lowercased()] = genre }
        }
        self.byCode = byCode
        self.byName = byName
    }

    /// The genre whose code or name matches `text`, ignoring case (and `Sci Fi` finds `sci-fi`,
    /// as does a synonym, `Science Fiction`): codes first, then names.
    public func resolve(_ text: String) -> Genre? {
        let key = text.trimmingWhitespace().lowercased()
        if let genre = byCode[key] ?? byName[key] { return genre }
        let slug = Genre.slug(key)
        return byCode[slug] ?? byName[slug] ?? Genre.synonyms[slug].flatMap { byCode[$0] }
    }

    /// The known genre codes.
    public var codes: [String] { genres.map(\.code) }

    /// Display name for a code.
    public func name(of code: String) -> String { byCode[code]?.name ?? code }
}

extension String {
    /// The string without leading and trailing white space and newlines.
    public func trimmingWhitespace() -> String {
        // Fast path: most values start and end with a visible ASCII character.
        let visibleEdges = utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F
        }
        if visibleEdges == true { return self }
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }
}

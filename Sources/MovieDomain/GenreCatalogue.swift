/// The genres a catalog knows, looked up by code or name in any case.
public struct GenreCatalogue: Sendable {
    /// All genres, ordered by code.
    public let genres: [Genre]
    private let byKey: [String: Genre]

    /// Creates a catalogue of `genres`, indexed by code and lower-cased name.
    public init(_ genres: [Genre]) {
        self.genres = genres.sorted { $0.code < $1.code }
        var byKey: [String: Genre] = [:]
        for genre in genres {
            byKey[genre.name.lowercased()] = genre
            byKey[genre.code] = genre
        }
        self.byKey = byKey
    }

    /// The genre whose code or name matches `text`, ignoring case (and `Sci Fi` finds `sci-fi`,
    /// as does a synonym, `Science Fiction`).
    public func resolve(_ text: String) -> Genre? {
        let key = text.trimmingWhitespace().lowercased()
        if let genre = byKey[key] { return genre }
        let slug = Genre.slug(key)
        return byKey[slug] ?? Genre.synonyms[slug].flatMap { byKey[$0] }
    }

    /// The known genre codes.
    public var codes: [String] { genres.map(\.code) }

    /// Display name for a code.
    public func name(of code: String) -> String { byKey[code]?.name ?? code }
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

extension String {
    /// How many characters of a value a message shows.
    static let messageLimit = 60

    /// The text in single quotes for an error message, cut after 60 characters with its length
    /// given (`'99999…' (100000 characters)`): one bad cell must not make a line megabytes long.
    public var quotedForMessage: String {
        let count = unicodeScalars.count
        return count > Self.messageLimit ? "'\(cutForMessage)' (\(count) characters)" : "'\(self)'"
    }

    /// The text cut after 60 characters, ending in `…` when cut (for lists of names).
    public var cutForMessage: String {
        let scalars = unicodeScalars
        guard scalars.count > Self.messageLimit else { return self }
        return String(String.UnicodeScalarView(scalars.prefix(Self.messageLimit))) + "…"
    }
}

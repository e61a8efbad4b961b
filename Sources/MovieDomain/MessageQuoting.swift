extension String {
    /// The text in single quotes for an error message, cut after 60 characters with its length
    /// given (`'99999…' (100000 characters)`): one bad cell must not make a line megabytes long.
    public var quotedForMessage: String {
        let limit = 60
        let scalars = unicodeScalars
        guard scalars.count > limit else { return "'\(self)'" }
        return "'\(String(String.UnicodeScalarView(scalars.prefix(limit))))…' (\(scalars.count) characters)"
    }
}

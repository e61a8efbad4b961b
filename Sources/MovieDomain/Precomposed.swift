extension String {
    /// The first UTF-8 byte of U+0300: below it every character is its own composition and none
    /// combines with the one before, so text of smaller bytes (ASCII, Latin letters) is composed.
    public static let firstComposingByte: UInt8 = 0xCC

    /// The text in Unicode Normalization Form C: `e` followed by U+0301 COMBINING ACUTE ACCENT
    /// becomes `é`, U+212B ANGSTROM SIGN becomes `Å`. People and the services they export from
    /// take both spellings for one text, and Swift compares them as equal, but SQLite compares
    /// bytes: without this `Amélie` typed on one keyboard and on another were two movies, and a
    /// title search in one spelling missed the other.
    public var precomposed: String {
        if withUTF8Bytes({ $0.allSatisfy { $0 < String.firstComposingByte } }) { return self }
        // The standard library's own composition (what its String comparison uses); public,
        // though underscored, as Foundation's wrapper around it costs start-up time.
        let composed = _nfcCodeUnits
        return composed.elementsEqual(utf8) ? self : String(decoding: composed, as: UTF8.self)
    }
}

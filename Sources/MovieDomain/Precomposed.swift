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
        if isPlainlyComposed { return self }
        // The standard library's own composition (what its String comparison uses); public,
        // though underscored, as Foundation's wrapper around it costs start-up time.
        let composed = _nfcCodeUnits
        return composed.elementsEqual(utf8) ? self : String(decoding: composed, as: UTF8.self)
    }

    /// Whether the text is composed as it stands, told from its bytes: every character is below
    /// U+0300, a CJK ideograph (U+4E00–U+9FFF) or a kana (U+3041–U+3096, U+30A1–U+30FA, not the
    /// voicing marks U+3099 and U+309A that compose with them). Each of those is its own
    /// composition and none composes with the one before, so the composer (some 10,000
    /// instructions for a title in Japanese) has nothing to do.
    var isPlainlyComposed: Bool {
        withUTF8Bytes { bytes in
            var i = 0
            while i < bytes.count {
                let lead = bytes[i]
                if lead < String.firstComposingByte {
                    i += 1
                    continue
                }
                // Three bytes from E0 to EF (the text is valid UTF-8).
                guard lead & 0xF0 == 0xE0, i + 2 < bytes.count else { return false }
                let scalar = UInt32(lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                guard (0x4E00...0x9FFF).contains(scalar) || (0x3041...0x3096).contains(scalar) || (0x30A1...0x30FA).contains(scalar) else {
                    return false
                }
                i += 3
            }
            return true
        }
    }
}

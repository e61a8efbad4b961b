/// A genres cell holding a list as a program wrote it into a CSV: JSON (`[{"id": 28, "name":
/// "Action"}]`, TMDB 5000's files) or a Python literal (`[{'id': 16, 'name': 'Animation'}]`,
/// The Movies Dataset's; `['Action', 'Drama']`). Split on commas, it made genres `id-28`.
enum GenreListCell {
    /// The genre names in `text`: each object's `name` (or `tag`), else each quoted string; `[]`
    /// none. Nil when `text` is no such list (`[Drama]`, unquoted, is read as plain text).
    static func names(_ text: String) -> [String]? {
        let trimmed = text.trimmingWhitespace()
        guard trimmed.hasPrefix("["), trimmed.hasSuffix("]") else { return nil }
        let strings = quotedStrings(trimmed)
        if strings.isEmpty {
            return trimmed.dropFirst().dropLast().allSatisfy { $0 == " " } ? [] : nil
        }
        guard trimmed.contains("{") else { return strings.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty } }
        // Objects: the string after each `name` key.
        var names: [String] = []
        for (index, string) in strings.enumerated().dropLast() where ["name", "tag"].contains(string.lowercased()) {
            let name = strings[index + 1].trimmingWhitespace()
            if !name.isEmpty { names.append(name) }
        }
        return names
    }

    /// The contents of the single- or double-quoted strings in `text`, backslash escapes read
    /// (`\u00e9` as Python's `json.dumps` writes `é`, a surrogate pair as one character).
    private static func quotedStrings(_ text: String) -> [String] {
        var strings: [String] = []
        var current = String.UnicodeScalarView(), quote: Unicode.Scalar?
        var scalars = text.unicodeScalars.makeIterator()
        var pendingHigh: UInt32?
        func hex4() -> UInt32? {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = scalars.next().flatMap({ UInt32(String($0), radix: 16) }) else { return nil }
                value = value << 4 | digit
            }
            return value
        }
        while let scalar = scalars.next() {
            guard let open = quote else {
                if scalar == "'" || scalar == "\"" { quote = scalar }
                continue
            }
            if scalar == open { strings.append(String(current)); current = .init(); quote = nil; continue }
            guard scalar == "\\", let escaped = scalars.next() else { current.append(scalar); continue }
            switch escaped {
            case "u":
                guard let unit = hex4() else { continue }
                if (0xD800..<0xDC00).contains(unit) { pendingHigh = unit; continue }
                if (0xDC00..<0xE000).contains(unit), let high = pendingHigh {
                    pendingHigh = nil
                    if let pair = Unicode.Scalar(0x10000 + (high - 0xD800) << 10 + (unit - 0xDC00)) { current.append(pair) }
                } else if let single = Unicode.Scalar(unit) {
                    current.append(single)
                }
            case "n": current.append("\n")
            case "t": current.append("\t")
            default: current.append(escaped)
            }
        }
        return strings
    }
}

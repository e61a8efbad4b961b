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

    /// The contents of the single- or double-quoted strings in `text`, backslash escapes read.
    private static func quotedStrings(_ text: String) -> [String] {
        var strings: [String] = []
        var current = "", quote: Character?, escaped = false
        for character in text {
            if let open = quote {
                if escaped { current.append(character); escaped = false }
                else if character == "\\" { escaped = true }
                else if character == open { strings.append(current); current = ""; quote = nil }
                else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
            }
        }
        return strings
    }
}

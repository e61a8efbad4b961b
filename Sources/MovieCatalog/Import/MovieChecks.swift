/// The CHECK constraints of `movies` and `genres`, in Swift.
///
/// A bulk append runs with SQLite's CHECKs off (`PRAGMA ignore_check_constraints`) and asks
/// this instead: a few byte comparisons per row rather than calls to `trim()` and `upper()`,
/// which were a third of SQLite's work per appended movie. Rows reach the append validated by
/// `RowDecoder` already, so this is a guard against a bug there; a test holds it to the schema
/// as the linked SQLite reads it (built without ICU, whose `upper()` would change more than
/// ASCII; RowDecoder upper-cases all of Unicode anyway).
enum MovieChecks {
    /// The first CHECK the row would fail, or nil when SQLite would accept it.
    static func violation(in row: ImportRow) -> String? {
        // title <> '' AND title = trim(title): trim() strips spaces (U+0020) only.
        let title = row.title.utf8
        guard let first = title.first, let last = title.last else { return "title is empty" }
        if first == 0x20 || last == 0x20 { return "title is not trimmed" }
        if let year = row.year, !(1870...2100).contains(year) { return "year \(year) is outside 1870..2100" }
        if let rating = row.rating, !(0...10).contains(rating) { return "rating \(rating) is outside 0..10" }
        if let minutes = row.durationMinutes, minutes <= 0 { return "duration \(minutes) is not positive" }
        // certification = upper(certification): upper() changes ASCII a-z only.
        if let certification = row.certification, certification.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) {
            return "certification '\(certification)' is not upper case"
        }
        return nil
    }

    /// The first CHECK a new genre would fail, or nil when SQLite would accept it.
    static func genreViolation(code: String, name: String) -> String? {
        // code <> '' AND code = lower(code): lower() changes ASCII A-Z only; name <> ''.
        if code.isEmpty { return "genre code is empty" }
        if code.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return "genre code '\(code)' is not lower case" }
        if name.isEmpty { return "genre name is empty" }
        return nil
    }
}

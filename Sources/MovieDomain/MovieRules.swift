/// The rules a movie's values follow: how text becomes a value, and the schema's CHECKs.
///
/// Import, `add` and `edit` parse with `value(_:from:)`; a bulk append, which runs with SQLite's
/// CHECKs off, asks `violation(in:)`, a mirror of the `movies` CHECKs held to the schema by a
/// test (`MovieRulesTests`). The ranges below are the ones the migrations write.
public enum MovieRules {
    /// Release years the schema accepts.
    public static let years = 1870...2100
    /// Ratings the schema accepts.
    public static let ratings = 0.0...10.0

    /// Why a value was refused, worded for `file:line: field: reason`.
    public struct Violation: Error, Equatable, Sendable {
        /// The reason, quoting the value.
        public let reason: String
    }

    /// A field's value from trimmed, non-empty text (genres: one name), or why it is refused.
    /// `number`: the text is a JSON number's (`2.000` is two, not two thousand grouped).
    public static func value(_ field: MovieField, from given: String, number: Bool = false) -> Result<FieldValue, Violation> {
        func refuse(_ reason: String) -> Result<FieldValue, Violation> { .failure(Violation(reason: "\(given.quotedForMessage) \(reason)")) }
        // A wiki's `170&nbsp;minutes` and `December&nbsp;15, 1995`: its no-break spaces are spaces
        // between a number and its unit or its date's parts.
        let raw = field == .title || field == .genres || field == .certification ? given : plainSpaces(given)
        switch field {
        case .title:
            return .success(.text(raw.precomposed))
        case .genres:
            // A name must give a code: at least one letter or digit.
            guard hasWordCharacter(raw) || !Genre.slug(raw).isEmpty else { return refuse("is not a genre name") }
            return .success(.text(raw.precomposed))
        case .year:
            guard let year = wholeNumber(raw) ?? ValueParsing.yearOfDate(raw) else {
                if isDigits(raw) { return refuse("is outside \(rangeText(years))") }
                // `1994-13-01`, `1994-02-30`: written as a date, and no date.
                let dated = raw.utf8.count >= 7 && raw.utf8.prefix(4).allSatisfy { $0 >= 48 && $0 <= 57 } && raw.utf8.dropFirst(4).first == UInt8(ascii: "-")
                return refuse(dated ? "is not a date (nor a year)" : "is not a whole number")
            }
            return years.contains(year) ? .success(.integer(year)) : refuse("is outside \(rangeText(years))")
        case .rating:
            guard let rating = ValueParsing.number(raw) ?? ValueParsing.decimalComma(raw) ?? ValueParsing.outOf(raw) else {
                // `11/10`: a score past its scale, not a word.
                let scaled = raw.split(separator: "/").count == 2 && raw.split(separator: "/").allSatisfy { ValueParsing.decimal(String($0).trimmingWhitespace()) != nil }
                if scaled { return refuse("is not a score out of 5, 10 or 100 within its scale") }
                return isDigits(raw) ? refuse("is outside 0..10") : refuse("is not a number")
            }
            return ratings.contains(rating) ? .success(.real(rating)) : refuse("is outside 0..10")
        case .votes:
            // `25k` and `1.5m` too, as filters read votes; `1,700,000` and `720.000` (its
            // thousands grouped) before `720.0`-like decimals, since a count has no fraction.
            guard let votes = (number ? nil : ValueParsing.groupedCount(raw)) ?? wholeNumber(raw) ?? ValueParsing.count(raw) else {
                return isDigits(raw) ? refuse("is too large a number of votes") : refuse("is not a whole number")
            }
            return votes >= 0 ? .success(.integer(votes)) : refuse("is negative; votes are a count")
        case .imdbID:
            guard let id = ValueParsing.imdbID(raw) else {
                return refuse("is not an IMDb id (tt0111161, its digits, or an imdb.com/title/ URL)")
            }
            return .success(.text(id))
        case .duration:
            if raw.hasPrefix("-") && raw.utf8.contains(where: { $0 >= 49 && $0 <= 57 }) { return refuse("is negative; durations are positive minutes") }
            guard let minutes = ValueParsing.minutes(raw) ?? wholeNumber(raw) else {
                if isDigits(raw) { return refuse("is longer than \(Int.max) minutes") }
                return refuse("is not a duration (use 120, 2h, 1h 30m or 1:30:00)")
            }
            if minutes <= 0 { return refuse("is not a positive duration") }
            return .success(.integer(minutes))
        case .certification:
            return .success(.text(uppercased(raw.precomposed)))
        }
    }

    /// The first CHECK of `movies` the movie would fail, or nil when SQLite would accept it.
    public static func violation(in movie: Movie) -> String? {
        // title <> '' AND title = trim(title): trim() strips spaces (U+0020) only.
        let ends = movie.title.withUTF8Bytes { bytes in bytes.first.map { ($0, bytes[bytes.count - 1]) } }
        guard let (first, last) = ends else { return "title is empty" }
        if first == 0x20 || last == 0x20 { return "title is not trimmed" }
        if let year = movie.year, !years.contains(year) { return "year \(year) is outside \(rangeText(years))" }
        if let rating = movie.rating, !ratings.contains(rating) { return "rating \(rating) is outside 0..10" }
        if let votes = movie.votes, votes < 0 { return "votes \(votes) is negative" }
        if let minutes = movie.durationMinutes, minutes <= 0 { return "duration \(minutes) is not positive" }
        // certification = upper(certification): upper() changes ASCII a-z only (no ICU).
        if let certification = movie.certification, certification.withUTF8Bytes({ $0.contains { $0 >= 0x61 && $0 <= 0x7A } }) {
            return "certification \(certification.quotedForMessage) is not upper case"
        }
        // imdb_id GLOB 'tt[0-9]{7}*' AND the rest all digits.
        if let id = movie.imdbID {
            let bytes = Array(id.utf8)
            guard bytes.count >= 9, bytes[0] == UInt8(ascii: "t"), bytes[1] == UInt8(ascii: "t"),
                  bytes[2...].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return "imdb_id \(id.quotedForMessage) is not tt and 7 or more digits" }
        }
        return nil
    }

    /// The first CHECK of `genres` a new genre would fail, or nil when SQLite would accept it.
    public static func genreViolation(code: String, name: String) -> String? {
        // code <> '' AND code = lower(code): lower() changes ASCII A-Z only; name <> ''.
        if code.isEmpty { return "genre code is empty" }
        if code.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return "genre code \(code.quotedForMessage) is not lower case" }
        if name.isEmpty { return "genre name is empty" }
        return nil
    }

    /// Upper case as the schema's `upper()` has it: ASCII a-z only, so every certification it
    /// allows (`é`, `ß`) is its own upper case and reads back unchanged, as filters and imports.
    public static func uppercased(_ text: String) -> String {
        guard text.withUTF8Bytes({ $0.contains { $0 >= 97 && $0 <= 122 } }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// Cheap test that a name has an ASCII letter or digit (so its slug is not empty).
    static func hasWordCharacter(_ text: String) -> Bool {
        text.withUTF8Bytes { $0.contains { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) } }
    }

    /// An integer of Int's range, also written as a decimal with a zero fraction (`1994.0`, as
    /// JSON tools do).
    static func wholeNumber(_ text: String) -> Int? {
        if let value = ValueParsing.longInteger(text) { return value }
        if let value = ValueParsing.number(text), value == value.rounded(), abs(value) < 1e9 { return Int(value) }
        return nil
    }

    /// A signed run of digits (too long to be a value of any field).
    static func isDigits(_ text: String) -> Bool {
        let digits = text.utf8.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
        return !digits.isEmpty && digits.count + 1 >= text.utf8.count && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// `text` with its no-break spaces (U+00A0, U+2007, U+202F) as plain ones; ASCII text as it is.
    static func plainSpaces(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        return String(text.unicodeScalars.map { ["\u{A0}", "\u{2007}", "\u{202F}"].contains($0) ? " " : Character($0) })
    }

    private static func rangeText(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)..\(range.upperBound)" }
}

import MovieDomain
import SQLiteStore
/// Parses filter values typed as flags (`--rating 7..`), comma lists and `facet:value` tokens.
public struct FilterParser: Sendable {
    /// The genres that `genre` and `exclude-genre` values must name.
    public let genres: GenreCatalogue

    /// Creates a parser that resolves genre values against `genres`.
    public init(genres: GenreCatalogue) { self.genres = genres }

    /// A parser for every facet but genres (which it knows none of): syntax checks before a
    /// catalog is opened.
    public static let standalone = FilterParser(genres: GenreCatalogue([]))

    /// Parses a flag's value; a comma list yields one element per item (not for titles).
    public func parse(_ facet: Facet, _ value: String, source: String? = nil) throws -> [MovieFilter] {
        let source = source ?? facet.flag
        if facet == .title { return [try parseOne(.title, value, source: source)] }
        // Split on the comma itself, not on characters: a comma followed by a combining mark
        // is one Character, and would otherwise not split.
        let items = value.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        if facet == .votes { try Self.refuseGroupedThousands(items, value: value, source: source) }
        return try items.map { try parseOne(facet, $0, source: source) }
    }

    /// Refuses `25,000..`, votes written as tables print them: the comma would split it into `25`
    /// and `000..` (every movie with votes), a wrong answer without a word.
    private static func refuseGroupedThousands(_ items: [String], value: String, source: String) throws {
        for (previous, item) in zip(items, items.dropFirst()) {
            let digits = item.utf8.prefix { $0 >= 48 && $0 <= 57 }.count
            guard digits == 3, previous.utf8.last.map({ $0 >= 48 && $0 <= 57 }) == true else { continue }
            throw CatalogError(.usage, "\(source) \(value.quotedForMessage): a comma separates values, so \(item.quotedForMessage) would be one; write thousands without commas (25000) or with k (25k)")
        }
    }

    /// Parses a positional `facet:value` token.
    public func parseToken(_ token: String) throws -> [MovieFilter] {
        // The first colon itself (a colon with a combining mark after it is still the separator).
        guard let colon = token.unicodeScalars.firstIndex(of: ":") else {
            // A genre's name alone (`filter drama`) is offered as its token.
            let example = genres.resolve(token.trimmingWhitespace()).map { "; did you mean 'genre:\($0.code)'?" } ?? ", e.g. genre:drama"
            throw CatalogError(.usage, "unexpected argument \(token.quotedForMessage): filter tokens look like facet:value\(example)")
        }
        let name = String(token.unicodeScalars[..<colon]).lowercased()
        guard let facet = Facet(rawValue: name) else {
            let hint = Suggestion.nearest(to: name, in: Facet.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
            throw CatalogError(.usage, "unknown facet \(name.quotedForMessage) in \(token.quotedForMessage)\(hint)")
        }
        return try parse(facet, String(token.unicodeScalars[token.unicodeScalars.index(after: colon)...]), source: token)
    }

    /// Parses one value of one facet.
    public func parseOne(_ facet: Facet, _ raw: String, source: String) throws -> MovieFilter {
        let value = raw.trimmingWhitespace()
        guard !value.isEmpty else {
            throw CatalogError(.usage, "empty value for \(source.quotedForMessage)")
        }
        func invalid(_ expected: String) -> CatalogError {
            CatalogError(.usage, "invalid value \(value.quotedForMessage) for \(source.quotedForMessage): expected \(expected)")
        }
        switch facet {
        case .genre, .excludeGenre:
            guard let genre = genres.resolve(value) else {
                let hint = Suggestion.nearest(to: value, in: genres.codes).map { "; did you mean '\($0)'?" } ?? ""
                throw CatalogError(.usage, "unknown genre \(value.quotedForMessage) for \(source.quotedForMessage)\(hint)")
            }
            return facet == .genre ? .genre(genre.code) : .excludeGenre(genre.code)
        case .certification:
            // As import stores it (ASCII upper case), so a stored `é` is found by `é`.
            return .certification(MovieRules.uppercased(value.precomposed))
        case .title:
            // A substring: its spaces are part of it (`the ` is not in `there`); composed as
            // stored titles are (`é` written as `e` and an accent finds `é`).
            return .title(raw.precomposed)
        case .rating:
            let expected = "a rating like 7, 7.5, 7.5.., ..4 or 6..8.5"
            if let (lo, hi) = try range(value, source: source, bound: ValueParsing.decimal, invalid: invalid(expected)) {
                return .rating(.range(lo, hi))
            }
            if let whole = ValueParsing.integer(value), (0...10).contains(whole) { return .rating(.bucket(whole)) }
            guard let exact = ValueParsing.decimal(value), (0...10).contains(exact) else {
                throw invalid("\(expected) (single ratings lie in 0..10)")
            }
            return .rating(.exact(exact))
        case .duration:
            let expected = "a duration like 2h, 95m, 1h30m, 90m..2h30m, ..90m or 2h.."
            if let (lo, hi) = try range(value, source: source, bound: ValueParsing.minutes, invalid: invalid(expected)) {
                return .duration(.range(lo, hi))
            }
            if let hours = ValueParsing.wholeHours(value) { return .duration(.hours(hours)) }
            guard let minutes = ValueParsing.minutes(value) else { throw invalid(expected) }
            return .duration(.minutes(minutes))
        case .year:
            let expected = "a year like 1994, 1990s, 1990..1999, 2000.. or ..1920"
            if let (lo, hi) = try range(value, source: source, bound: ValueParsing.integer, invalid: invalid(expected)) {
                return .year(.range(lo, hi))
            }
            if value.lowercased().hasSuffix("s") {
                // `90s` would be the years 90..99: the century is written out.
                guard let decade = ValueParsing.integer(String(value.dropLast())), decade >= 1000, decade % 10 == 0 else {
                    throw invalid("a decade like 1990s")
                }
                return .year(.decade(decade))
            }
            guard let year = ValueParsing.integer(value), year >= 0 else { throw invalid(expected) }
            return .year(.exact(year))
        case .votes:
            let expected = "a number of votes like 100, 25k.., ..1000 or 1k..50k (k = 1,000, m = 1,000,000)"
            if let (lo, hi) = try range(value, source: source, bound: ValueParsing.count, invalid: invalid(expected)) {
                return .votes(.range(lo, hi))
            }
            guard let count = ValueParsing.count(value) else { throw invalid(expected) }
            return .votes(.exact(count))
        case .imdb:
            guard let id = ValueParsing.imdbID(value) else { throw invalid("an IMDb id like tt0111161") }
            return .imdb(id)
        }
    }

    /// Splits `lo..hi` (either side may be empty, not both); nil when `value` is not a range.
    private func range<T: Comparable>(_ value: String, source: String, bound: (String) -> T?,
                                      invalid: CatalogError) throws -> (T?, T?)? {
        let sides = FilterParser.split(value, atDoubleDot: ())
        guard sides.count > 1 else { return nil }
        // `4...5` would split as `4` and `.5`: three dots are no range.
        guard sides.count == 2, !value.contains("...") else { throw invalid }
        let loText = String(sides[0]).trimmingWhitespace()
        let hiText = String(sides[1]).trimmingWhitespace()
        guard !(loText.isEmpty && hiText.isEmpty) else { throw invalid }
        let lo = loText.isEmpty ? nil : bound(loText)
        let hi = hiText.isEmpty ? nil : bound(hiText)
        if (!loText.isEmpty && lo == nil) || (!hiText.isEmpty && hi == nil) { throw invalid }
        if let lo, let hi, lo > hi {
            throw CatalogError(.usage, "invalid range \(value.quotedForMessage) for \(source.quotedForMessage): its lower bound is above its upper bound")
        }
        return (lo, hi)
    }

    /// `lo..hi` split at each `..` of the text itself (a dot with a combining mark after it is
    /// still a dot): by bytes, which splits UTF-8 at ASCII `.` without breaking a character.
    static func split(_ value: String, atDoubleDot: Void) -> [String] {
        let bytes = Array(value.utf8)
        var sides: [String] = []
        var start = 0, i = 0
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: "."), bytes[i + 1] == UInt8(ascii: ".") {
                sides.append(String(decoding: bytes[start..<i], as: UTF8.self))
                i += 2
                start = i
            } else {
                i += 1
            }
        }
        sides.append(String(decoding: bytes[start...], as: UTF8.self))
        return sides
    }
}

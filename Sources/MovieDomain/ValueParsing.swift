/// Parsers for the value forms users type and files carry, shared by filters and import.
public enum ValueParsing {
    /// A plain decimal number (`7`, `7.5`, `-1`, `.5`), without exponents, `inf` or `nan`.
    public static func decimal(_ text: String) -> Double? {
        text.withUTF8Bytes(decimal(bytes:))
    }

    /// `decimal` of UTF-8 bytes (an import's cell, read in place).
    public static func decimal(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var digits = 0, dots = 0, first = true, negative = false
        var mantissa: Int64 = 0, fractionDigits = 0
        for c in bytes {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits <= 15 { mantissa = mantissa * 10 + Int64(c - UInt8(ascii: "0")) }
                if dots > 0 { fractionDigits += 1 }
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"):
                if !first { return nil }
                negative = c == UInt8(ascii: "-")
            default: return nil
            }
            first = false
        }
        guard digits > 0, dots <= 1 else { return nil }
        if digits > 15 {
            // Longer text (`0.30000000000000004`, the plain form of `1e-300` moviecat prints):
            // strtod reads it correctly rounded; the syntax is already checked, so no `inf` or hex.
            guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
            return value
        }
        // At most 15 digits and a power of ten up to 1e15 are both exact doubles, so one
        // division is correctly rounded: the same value strtod gives, without its cost.
        let value = Double(mantissa) / ValueParsing.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
                                                 1e11, 1e12, 1e13, 1e14, 1e15]

    /// A number as files write it: a plain decimal, or with an exponent as JSON allows (`7.5e0`).
    public static func number(_ text: String) -> Double? {
        if let plain = decimal(text) { return plain }
        let parts = text.lowercased().split(separator: "e", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, decimal(String(parts[0])) != nil, integer(String(parts[1])) != nil,
              let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A plain integer of at most 9 digits, optionally signed; anything longer is nil, never a trap.
    public static func integer(_ text: String) -> Int? {
        // One pass over the bytes: import calls this for most cells of a million-row file.
        var value = 0, digits = 0, negative = false, first = true
        for c in text.utf8 {
            if first && (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) {
                negative = c == UInt8(ascii: "-")
            } else if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                digits += 1
                // Stop before the value could overflow: ten digits are already out of range.
                if digits > 9 { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            } else {
                return nil
            }
            first = false
        }
        guard digits > 0 else { return nil }
        return negative ? -value : value
    }

    /// A plain integer anywhere in Int's range (the schema's 64-bit INTEGER: votes, minutes),
    /// optionally signed, leading zeros allowed; nil beyond the range, never a trap.
    public static func longInteger(_ text: String) -> Int? {
        if let short = integer(text) { return short }
        var magnitude: UInt64 = 0, digits = 0, negative = false, first = true
        for c in text.utf8 {
            if first && (c == UInt8(ascii: "-") || c == UInt8(ascii: "+")) {
                negative = c == UInt8(ascii: "-")
            } else if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") {
                digits += 1
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(c - UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                magnitude = sum
            } else {
                return nil
            }
            first = false
        }
        guard digits > 0 else { return nil }
        if negative { return magnitude <= Int.min.magnitude ? Int(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int.max) ? Int(magnitude) : nil
    }

    /// Minutes from `120`, `95m`, `95 min`, `95 mins`, `2h`, `1h30m`, `1h30`, `1 hr 30 min`,
    /// `1:30:00` or `1:30` (h:mm).
    ///
    /// A duration is one number, `h:mm[:ss]`, or unit groups (hours, then minutes, each at most
    /// once): `30 30` or `1h 30 30m` are not durations. Any number of minutes the schema stores
    /// (up to Int.max) reads, as moviecat prints it; beyond that, nil.
    public static func minutes(_ raw: String) -> Int? {
        if let plain = longInteger(raw) { return plain >= 0 ? plain : nil }   // the common case, without copies
        let text = raw.lowercased().trimmingWhitespace()
        if let plain = longInteger(text) { return plain >= 0 ? plain : nil }
        if text.contains(":") {
            // Parts of at most 9 digits: `h * 60` cannot overflow.
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { integer(String($0)) }
            guard parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            let p = parts.map { $0! }
            switch p.count {
            case 2 where p[1] < 60: return p[0] * 60 + p[1]
            case 3 where p[1] < 60 && p[2] < 60: return p[0] * 60 + p[1] + (p[2] >= 30 ? 1 : 0)
            default: return nil
            }
        }
        return unitGroups(Array(text.utf8))
    }

    /// Duration units and what they are (1 hours, 2 minutes), longest first so that `mins` is not read as `m`.
    private static let unitWords: [([UInt8], Int)] = [
        ("minutes", 2), ("minute", 2), ("mins", 2), ("min", 2), ("m", 2), ("hours", 1), ("hour", 1), ("hrs", 1), ("hr", 1), ("h", 1),
    ].map { (Array($0.0.utf8), $0.1) }

    /// `2h`, `1h 30m`, `95 min`, `1 hr 30 mins`, `1h30`: digits then a unit, hours before minutes,
    /// spaces between; minutes after hours may go without their unit.
    private static func unitGroups(_ bytes: [UInt8]) -> Int? {
        var index = 0
        var total = 0
        var lastUnit = 0          // 0 none yet, 1 hours, 2 minutes: units only go forward
        func skipSpaces() { while index < bytes.count && bytes[index] == 0x20 { index += 1 } }
        skipSpaces()
        guard index < bytes.count else { return nil }
        while index < bytes.count {
            var value = 0, digits = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                digits += 1
                // Overflow is nil, not a trap: `153722867280912930h` still reads (Int.max / 60).
                let (times10, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(bytes[index] - 0x30))
                if o1 || o2 { return nil }
                value = sum
                index += 1
            }
            guard digits > 0 else { return nil }
            skipSpaces()
            var unit = 0
            if index == bytes.count && lastUnit == 1 {
                unit = 2   // `1h30`, `1h 30`: minutes after hours need no unit
            } else {
                for (word, wordUnit) in Self.unitWords where bytes[index...].starts(with: word) {
                    unit = wordUnit
                    index += word.count
                    break
                }
                guard unit > 0 else { return nil }
            }
            guard unit > lastUnit else { return nil }
            lastUnit = unit
            let (minutes, o1) = value.multipliedReportingOverflow(by: unit == 1 ? 60 : 1)
            let (sum, o2) = total.addingReportingOverflow(minutes)
            if o1 || o2 { return nil }
            total = sum
            skipSpaces()
        }
        return total
    }

    /// Whole hours alone (`2h`), which filters read as an hour bucket: any whose first minute
    /// fits in Int, so every bucket `facets` lists reads back.
    public static func wholeHours(_ raw: String) -> Int? {
        // `2h`, and as people write it out: `2hours`, `2 hours`, `1 hr` (an hour word alone).
        let text = raw.lowercased()
        guard let unit = ["hours", "hour", "hrs", "hr", "h"].first(where: { text.hasSuffix($0) }),
              let hours = longInteger(String(text.dropLast(unit.count)).trimmingWhitespace()), hours >= 0,
              !hours.multipliedReportingOverflow(by: 60).overflow else { return nil }
        return hours
    }

    /// An IMDb title id as stored, `tt` and at least 7 digits, from `tt0111161` (any case), its
    /// digits (`111161`, `0111161`, as MovieLens writes them) or a title URL
    /// (`https://www.imdb.com/title/tt0111161/`, or a localised page's `imdb.com/de/title/...`);
    /// nil for anything else.
    ///
    /// Fewer than 7 digits are padded to 7, as IMDb writes them; 7 or more are kept as given, of
    /// any length and leading zeros included, so every id the schema allows reads back as itself.
    public static func imdbID(_ raw: String) -> String? {
        // The common case, as IMDb's files write it: `tt` and 7 or more digits.
        let bytes = raw.utf8
        if bytes.count >= 9, bytes.starts(with: [0x74, 0x74]), bytes.dropFirst(2).allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            return raw
        }
        var text = Substring(raw.lowercased())
        // A link within IMDb's pages (`/title/tt0111161/?ref_=chttp_t_1`, as scrapes keep them).
        if text.hasPrefix("/title/tt") { text = "imdb.com" + text }
        if let site = text.firstRange(of: "imdb.com/") {
            // A URL: the id is the path segment after /title/, which a language's segment may
            // come before (`imdb.com/de/title/tt0000081/`, IMDb's localised pages).
            var path = text[site.upperBound...]
            if !path.hasPrefix("title/"), let language = path.firstIndex(of: "/"), path[..<language].count <= 5,
               path[..<language].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }) {
                path = path[path.index(after: language)...]
            }
            guard path.hasPrefix("title/") else { return nil }
            text = path.dropFirst(6).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        }
        if text.hasPrefix("tt") { text = text.dropFirst(2) }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        if text.utf8.count >= 7 { return "tt" + text }
        // A short run of zeros is no id, as before: `0` padded to tt0000000 would make every row
        // that writes it one movie.
        guard text.contains(where: { $0 != "0" }) else { return nil }
        return "tt" + String(repeating: "0", count: 7 - text.utf8.count) + text
    }

    /// The year of a date: ISO (`1994-09-23`, `1994-09`, or a timestamp starting with one), or as
    /// spreadsheets and sites write one where its four-digit year is plain (`9/23/1994`,
    /// `23.09.1994`, `1994/09/23`, `September 23, 1994`, `23 Sep 1994`, `Sep 1994`).
    public static func yearOfDate(_ text: String) -> Int? {
        yearOfISODate(text) ?? yearOfNumericDate(text) ?? yearOfWrittenDate(text)
    }

    /// `9/23/1994`, `23.09.1994`, `23-09-1994` (day and month either way round, one of them a
    /// month), `1994/09/23`, `1994.09.23`: one separator throughout.
    static func yearOfNumericDate(_ text: String) -> Int? {
        guard let separator = text.first(where: { $0 == "/" || $0 == "." || $0 == "-" }) else { return nil }
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ (1...4).contains($0.utf8.count) && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }) else { return nil }
        let numbers = parts.compactMap { integer(String($0)) }
        // `1994-02-30` is ISO's, and no date.
        if parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2, separator != "-" {
            return isDay(numbers[2], of: numbers[1], numbers[0]) ? numbers[0] : nil
        }
        guard parts[2].count == 4, parts[0].count <= 2, parts[1].count <= 2,
              isDay(numbers[1], of: numbers[0], numbers[2]) || isDay(numbers[0], of: numbers[1], numbers[2]) else { return nil }
        return numbers[2]
    }

    /// Whether `month` of `year` has a day `day` (2000 was a leap year, 1900 not).
    static func isDay(_ day: Int, of month: Int, _ year: Int) -> Bool {
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return (1...[31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]).contains(day)
    }

    /// `September 23, 1994`, `Sep 23 1994`, `23 September 1994`, `23 Sep. 1994`, `September 1994`
    /// (English month names, whole or cut to three letters).
    static func yearOfWrittenDate(_ text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { word in
            var lower = word.lowercased()
            while lower.hasSuffix(".") { lower.removeLast() }   // `Sep.`
            return lower
        }
        guard words.count == 2 || words.count == 3, let last = words.last, last.utf8.count == 4, let year = integer(last), year >= 0,
              words.dropLast().contains(where: { word in monthNames.contains { $0 == word || word.count >= 3 && $0.hasPrefix(word) } }) else { return nil }
        // The other word, if any, is a day of that month.
        if words.count == 3 {
            func month(_ word: String) -> Int? { monthNames.firstIndex { $0 == word || word.count >= 3 && $0.hasPrefix(word) }.map { $0 + 1 } }
            guard let monthNumber = words.dropLast().lazy.compactMap(month).first,
                  let day = words.dropLast().first(where: { month($0) == nil }),
                  day.utf8.count <= 2, let number = integer(day), isDay(number, of: monthNumber, year) else { return nil }
        }
        return year
    }

    private static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                                     "september", "october", "november", "december"]

    /// A number written with one decimal comma (`8,3`, as a German or French spreadsheet writes a
    /// rating): nil for anything else (`1,700` has three digits after it, a count's grouping).
    public static func decimalComma(_ text: String) -> Double? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[1].count), !parts[0].isEmpty else { return nil }
        return decimal(parts[0] + "." + parts[1])
    }

    /// A score written out of its scale, as sheets keep them (`9/10`, `4.5/5`, `85/100`), on the
    /// catalog's 0..10 scale: nil for another scale or a score past it.
    public static func outOf(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let scale = Int(String(parts[1]).trimmingWhitespace()), [5, 10, 100].contains(scale) else { return nil }
        let score = String(parts[0]).trimmingWhitespace()
        guard let value = decimal(score) ?? decimalComma(score), value >= 0, value <= Double(scale) else { return nil }
        return scale == 10 ? value : value * 10 / Double(scale)
    }

    /// The year of an ISO date (`1994-09-23`, `1994-09`, or a timestamp starting with one).
    static func yearOfISODate(_ text: String) -> Int? {
        let bytes = Array(text.utf8.prefix(11))
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for i in range {
                guard bytes[i] >= 48 && bytes[i] <= 57 else { return nil }
                value = value * 10 + Int(bytes[i] - 48)
            }
            return value
        }
        guard bytes.count >= 7, bytes[4] == UInt8(ascii: "-"), let year = digits(0..<4),
              let month = digits(5..<7), (1...12).contains(month) else { return nil }
        if bytes.count == 7 { return year }
        // The month's own days: `1994-02-30` is no date.
        guard bytes.count >= 10, bytes[7] == UInt8(ascii: "-"), let day = digits(8..<10), isDay(day, of: month, year) else { return nil }
        if bytes.count == 10 { return year }
        // A timestamp goes on with a time: `T` or a space.
        return bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " ") ? year : nil
    }

    /// A count like `25000`, `25k`, `1.5m` (k = 1,000, m = 1,000,000; those at most 999,999,999,999).
    public static func count(_ raw: String) -> Int? {
        let text = raw.lowercased()
        let multiplier: Double
        var number = Substring(text)
        switch text.last {
        case "k": multiplier = 1_000; number = number.dropLast()
        case "m": multiplier = 1_000_000; number = number.dropLast()
        default:
            // Plain digits up to Int.max, as the schema stores votes and moviecat prints them.
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return longInteger(text)
        }
        guard let value = decimal(String(number)), value >= 0 else { return nil }
        let total = value * multiplier
        // `1.5k` is 1500; `1.2345k` is not a whole count.
        guard total == total.rounded(), total <= 999_999_999_999 else { return nil }
        return Int(total)
    }

    /// A count written with its thousands grouped, as spreadsheets and sites print it: `1,700,000`,
    /// `720.000` (German Excel), `1 700 000`, `1'700'000`. One to three digits, then groups of
    /// three, one separator throughout; nil for anything else (`2.0`, `1,5`).
    public static func groupedCount(_ raw: String) -> Int? {
        let separators: Set<Unicode.Scalar> = [",", ".", " ", "'", "\u{A0}", "\u{202F}", "\u{2019}"]
        var separator: Unicode.Scalar?
        var digits = "", group = 0, groups = 0
        for scalar in raw.unicodeScalars {
            if scalar.value >= 48 && scalar.value <= 57 {
                digits.unicodeScalars.append(scalar)
                group += 1
                if group > 3 { return nil }
            } else if separators.contains(scalar) && (separator == nil || separator == scalar) {
                guard group > 0, groups == 0 || group == 3 else { return nil }
                separator = scalar
                groups += 1
                group = 0
            } else {
                return nil
            }
        }
        guard groups > 0, group == 3 else { return nil }
        return longInteger(digits)
    }

    /// Whether a cell holds a word spreadsheets and data tools write for "no value" (`N/A`, `NA`,
    /// `null`, `None`, `NaN`, Excel's `#N/A`: the words pandas reads as missing), which an
    /// import reads as an empty cell rather than a genre or certification named so.
    public static func isNullWord(_ text: String) -> Bool {
        guard let (first, count) = text.withUTF8Bytes({ bytes in bytes.first.map { ($0, bytes.count) } }), count <= 9, first == UInt8(ascii: "#") || first == UInt8(ascii: "<")
                || first == UInt8(ascii: "-") || first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "t")
                || first == 0xE2 else { return false }
        return nullWords.contains(text.lowercased())
    }

    /// `isNullWord` of ASCII bytes (an import's cell, read in place).
    public static func isNullWord(ascii bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= 9, first == UInt8(ascii: "#") || first == UInt8(ascii: "<")
                || first == UInt8(ascii: "-") || first | 0x20 == UInt8(ascii: "n") || first | 0x20 == UInt8(ascii: "t") else { return false }
        return asciiNullWords.contains { word in
            word.count == bytes.count && zip(word, bytes).allSatisfy { $0 == ($1 >= 0x41 && $1 <= 0x5A ? $1 | 0x20 : $1) }
        }
    }

    /// `text` without trailing footnote marks (`[1]`, `[a]`, `[note 2]`: up to 12 characters
    /// each) and, with `dropParenthesised`, a trailing note in parentheses; as it was when
    /// nothing would be left.
    public static func withoutNotes(_ text: String, dropParenthesised: Bool) -> String {
        var rest = Substring(text)
        while true {
            let closing: Character
            if rest.hasSuffix("]") { closing = "[" } else if dropParenthesised && rest.hasSuffix(")") { closing = "(" } else { break }
            guard let open = rest.lastIndex(of: closing), rest.distance(from: open, to: rest.endIndex) <= 14 || closing == "(" else { break }
            var kept = rest[..<open]
            while kept.last == " " { kept = kept.dropLast() }
            guard !kept.isEmpty else { break }
            rest = kept
        }
        return rest.count == text.count ? text : String(rest)
    }

    /// Also Wikipedia's and release lists' words for a value not known yet, and its dashes.
    private static let nullWords: Set<String> = ["n/a", "na", "null", "none", "nan", "-nan", "#n/a", "#n/a n/a", "#na", "<na>",
                                                 "tba", "tbd", "\u{2014}", "\u{2013}"]
    private static let asciiNullWords = nullWords.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
}

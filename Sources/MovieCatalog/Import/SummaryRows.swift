/// A spreadsheet's own rows under its list: `TOTAL,,,287`, `Average,,8.4,143.5`, `Count: 2`,
/// `Notes: ratings from IMDb`. People keep them in the sheets they export; they are not movies.
enum SummaryRows {
    /// Labels a summary row starts with: alone, or followed by `:`. (Not `Max` or `Min`:
    /// films are called so; nor a label before `(`: `Sum (2024)` is one too.)
    static let labels: Set<String> = [
        "total", "totals", "grand total", "subtotal", "sum", "average", "avg", "mean", "median", "count",
    ]
    /// Labels of a note's row, which must be followed by `:`.
    static let noteLabels: Set<String> = ["note", "notes", "source", "sources"]

    /// Whether a row is a sheet's summary or note: no year, no IMDb id, its other cells empty or
    /// numbers (a sum, an average), and a title cell that is a label (a movie called `Total
    /// Recall` or `Sum of All Fears` is not; nor is `Count` with a genre). Only lists of no known
    /// layout, read with layouts recognised, are read so: services' exports hold no such rows.
    static func isSummary(_ record: DelimitedReader.Record, title: Int, year: Int?, imdbID: Int?) -> Bool {
        func blank(_ column: Int?) -> Bool {
            guard let column, column < record.count else { return true }
            return record.field(column).allSatisfy { $0 == 0x20 || $0 == 0x09 }
        }
        guard title < record.count, blank(year), blank(imdbID), isLabel(record.field(title)) else { return false }
        return (0..<record.count).allSatisfy { column in
            column == title || record.field(column).allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || [0x20, 0x09, 0x2E, 0x2C, 0x3A, 0x2D, 0x2B, 0x25, 0x24, 0x22].contains(byte)
            }
        }
    }

    /// Whether a title cell is a summary's label (`TOTAL`, `Count: 2`) or a note's (`Notes: ...`).
    static func isLabel(_ title: UnsafeBufferPointer<UInt8>) -> Bool {
        // Cheap refusals first: every row of a list without years comes here.
        guard title.count >= 3, title.count <= 120 else { return false }
        var start = 0
        while start < title.count, title[start] == 0x20 || title[start] == 0x22 { start += 1 }
        guard start < title.count, [0x61, 0x63, 0x67, 0x6D, 0x6E, 0x73, 0x74].contains(title[start] | 0x20) else { return false }   // a c g m n s t
        let text = String(decoding: UnsafeBufferPointer(rebasing: title[start...]), as: UTF8.self)
            .lowercased().trimmingWhitespace()
        let label = String(text.prefix { $0.isLetter || $0 == " " }).trimmingWhitespace()
        let rest = text.dropFirst(label.count).drop { $0 == " " }
        if labels.contains(label) {
            return rest.isEmpty || rest.hasPrefix(":") || rest == "\""
        }
        return noteLabels.contains(label) && rest.hasPrefix(":")
    }
}

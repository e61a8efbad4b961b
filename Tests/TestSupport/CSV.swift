import Foundation
import MovieCatalog

/// Output the suites parse as CSV, read with the project's RFC 4180 reader (quotes, commas and
/// newlines inside fields), not split at commas.
public enum CSV {
    /// The records of CSV text, header first.
    public static func records(_ text: String) throws -> [[String]] {
        let reader = DelimitedReader(input: ByteReader(bytes: Array(text.utf8), name: "output"), dialect: .csv)
        var records: [[String]] = []
        while try reader.next() { records.append(reader.strings()) }
        return records
    }

    /// The records as dictionaries keyed by the header's names.
    public static func rows(_ text: String) throws -> [[String: String]] {
        let all = try records(text)
        guard let header = all.first else { return [] }
        return all.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// One CSV record: each field quoted, inner quotes doubled (RFC 4180).
    public static func row(_ fields: [String]) -> String {
        fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes rejected rows as CSV, as read, plus an `error` column (`--rejects FILE`).
///
/// Rows keep their input's columns; when a later input has other columns, its rows follow a
/// header row of their own, so no row is ever misaligned with the header above it.
final class RejectsWriter {
    private let path: String
    private let out: TextOutput
    private var header: [String]?

    init(path: String) throws {
        self.path = path
        out = try TextOutput(creatingFile: path)
    }

    func write(header: [String], fields: [String], error: String) throws {
        if self.header != header {
            self.header = header
            out.write((header + ["error"]).map(TextEscaping.csv).joined(separator: ",") + "\n")
        }
        out.write((fields + [error]).map(TextEscaping.csv).joined(separator: ",") + "\n")
    }

    func close() throws { try out.flush() }

    /// Removes the file (the import failed, so none of it holds).
    func discard() {
        try? out.flush()
        unlink(path)
    }
}

import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes rejected rows as CSV, as read, plus an `error` column (`--rejects FILE`).
///
/// Rows keep their input's columns; when a later input has other columns, its rows follow a
/// header row of their own, so no row is ever misaligned with the header above it.
///
/// It writes to a temporary file beside `path` and renames it into place only when the import
/// succeeds, so a failed import never replaces what was there.
final class RejectsWriter {
    private let path: String
    private let temporaryPath: String
    private let out: TextOutput
    private var header: [String]?

    init(path: String) throws {
        self.path = path
        temporaryPath = path + ".moviecat-\(getpid()).tmp"
        TemporaryFiles.remember(temporaryPath)
        do {
            out = try TextOutput(creatingFile: temporaryPath)
        } catch {
            TemporaryFiles.forget(temporaryPath)
            throw error
        }
    }

    func write(header: [String], fields: [String], error: String) throws {
        if self.header != header {
            self.header = header
            out.write((header + ["error"]).map(TextEscaping.csv).joined(separator: ",") + "\n")
        }
        out.write((fields + [error]).map(TextEscaping.csv).joined(separator: ",") + "\n")
    }

    /// Writes out what is buffered (a full disk shows here, while the import can roll back).
    func flush() throws { try out.flush() }

    /// Finishes the file and puts it in place.
    func close() throws {
        try out.flush()
        defer { TemporaryFiles.forget(temporaryPath) }
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw CatalogError(.ioError, "cannot write \(path): \(reason)")
        }
    }

    /// Drops the file (the import failed, so none of it holds); an older file at `path` stays.
    func discard() {
        try? out.flush()
        unlink(temporaryPath)
        TemporaryFiles.forget(temporaryPath)
    }
}

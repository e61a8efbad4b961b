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
/// It writes to a temporary file and puts it in place only when the import succeeds, so a
/// failed import never replaces what was there: renamed over a file (a symlink's target, the
/// link kept) once the import committed, or copied into what is not a file (`/dev/stdout`, a
/// pipe, a dangling symlink) just before the commit, so that a copy that fails (a full device,
/// a reader gone) rolls the import back rather than fail a command whose import landed.
final class RejectsWriter {
    private let path: String
    /// The temporary file's name while it has one: nil when it has none (made unnamed, or
    /// unlinked at once for a copy), so a killed process leaves nothing behind.
    private let temporaryPath: String?
    /// A second descriptor on the temporary file: the copy reads it, the link names it.
    private let readFD: Int32
    /// The file the temporary one is renamed to; nil: copied into `path` instead.
    private let renamedTo: String?
    /// How `path` is opened for the copy.
    private let copyFlags: Int32
    private let out: TextOutput
    private var header: [String]?
    /// Whether the rows were copied into `path` already (by `flush()`, before the commit).
    private var copied = false

    /// Checks `path` before the import starts, so that a directory, or a directory that cannot
    /// be written, is refused before the catalog is opened, not after the import committed.
    static func check(_ path: String) throws {
        _ = try destination(path)
    }

    /// Where the rows go: the file the temporary one is renamed to, or nil when they are copied
    /// into `path` instead; then how that copy opens it, and the directory of the temporary file.
    private static func destination(_ path: String) throws -> (renamedTo: String?, copyFlags: Int32, directory: String) {
        func refuse(_ reason: String) -> CatalogError { CatalogError(.ioError, "cannot write rejects to \(path.quotedForMessage): \(reason)") }
        let directory = FilePaths.folder(of:)
        let temporary = FilePaths.temporaryDirectory
        var info = stat(), link = stat()
        guard !path.isEmpty else { throw refuse("the name is empty") }
        let exists = stat(path, &info) == 0
        // A name longer than the system allows (a part over 255 bytes) would fail only at the rename.
        if !exists && errno == ENAMETOOLONG { throw refuse(String(cString: strerror(errno))) }
        let isLink = lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK
        if exists && (info.st_mode & S_IFMT) == S_IFDIR { throw refuse("it is a directory") }
        var target = path
        if isLink, let resolved = realpath(path, nil) {
            target = String(cString: resolved)
            free(resolved)
        }
        // A process's descriptors (/dev/stdout, /dev/fd/3, /proc/self/fd/1), devices and pipes:
        // written after what they hold, never renamed over (a stdout redirected to a file would
        // lose the file, and root's /dev/stdout become one).
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") || target.hasPrefix("/dev/") || target.hasPrefix("/proc/")
            || exists && (info.st_mode & S_IFMT) != S_IFREG {
            // A named pipe nobody reads would block the copy after the import committed.
            if exists && (info.st_mode & S_IFMT) == S_IFIFO {
                // This process reading the pipe (its standard input) counts as nobody: it would
                // not read while it writes.
                var input = stat()
                if fstat(0, &input) == 0 && input.st_dev == info.st_dev && input.st_ino == info.st_ino {
                    throw refuse("it is this command's standard input")
                }
                let probe = open(path, O_WRONLY | O_NONBLOCK)
                if probe < 0 && errno == ENXIO { throw refuse("no process is reading the pipe") }
                if probe >= 0 { closeDescriptor(probe) }
            }
            return (nil, O_WRONLY | O_APPEND, temporary)
        }
        if !exists && isLink {
            // A dangling symlink: the file it names is made, in a directory that must be there.
            var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &bytes, bytes.count - 1)
            let named = count > 0 ? String(decoding: bytes[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
            let made = named.hasPrefix("/") ? named : directory(path) + "/" + named
            if access(directory(made), W_OK) != 0 { throw refuse(String(cString: strerror(errno))) }
            return (nil, O_WRONLY | O_CREAT | O_TRUNC, temporary)
        }
        // A file, or a symlink to one: the file is replaced (the link stays).
        if access(directory(target), W_OK) != 0 { throw refuse(String(cString: strerror(errno))) }
        return (target, 0, directory(target))
    }

    init(path: String) throws {
        self.path = path
        let destination = try Self.destination(path)
        (renamedTo, copyFlags) = (destination.renamedTo, destination.copyFlags)
        let mask = umask(0)
        umask(mask)
        let fd: Int32
        if destination.renamedTo != nil, let unnamed = TemporaryFiles.unnamed(in: destination.directory, mode: 0o666 & ~mask) {
            (fd, temporaryPath) = (unnamed, nil)
        } else {
            // A name of its own (mkstemp: no file or link of that name is followed or reused);
            // forgotten at once when the rows are copied rather than renamed.
            guard let (made, temporary) = TemporaryFiles.make(destination.directory + "/.moviecat-rejects-XXXXXX", remembered: destination.renamedTo != nil) else {
                throw CatalogError(.ioError, "cannot write rejects to \(path.quotedForMessage): \(String(cString: strerror(errno)))")
            }
            (fd, temporaryPath) = (made, destination.renamedTo != nil ? temporary : nil)
            // mkstemp makes it private (0600); the rejects file gets the usual mode.
            fchmod(fd, 0o666 & ~mask)
        }
        readFD = dup(fd)
        out = TextOutput(fd: fd, name: path, ownsDescriptor: true)
    }

    deinit {
        if readFD >= 0 { closeDescriptor(readFD) }
    }

    /// Writes a row under `header`: a short row is padded with empty fields, so that its error
    /// stays in the error column; a long row's extra fields come under a header row of its own
    /// with unnamed columns for them.
    /// The fields are written byte for byte as read (a byte that is not UTF-8 stays that byte,
    /// so that the file imported again fails as its row did), quoted as CSV needs.
    func write(header: [String], fields: [[UInt8]], error: String) throws {
        let header = header + Array(repeating: "", count: max(0, fields.count - header.count))
        let fields = fields + Array(repeating: [], count: header.count - fields.count)
        if self.header != header {
            self.header = header
            out.write((header + ["error"]).map(TextEscaping.csv).joined(separator: ",") + "\n")
        }
        for field in fields {
            out.write(bytes: TextEscaping.csv(bytes: field))
            out.write(",")
        }
        out.write(TextEscaping.csv(error) + "\n")
    }

    /// Writes out what is buffered, and copies the rows into what is not a file, just before the
    /// import commits: an error here (a full disk or device, a reader gone) rolls it back.
    func flush() throws {
        try out.flush()
        if renamedTo == nil && !copied {
            copied = true
            try copy(into: path)
        }
    }

    /// Finishes the file and puts it in place.
    func close() throws {
        try flush()
        guard let renamedTo else { return }
        if let temporaryPath {
            defer {
                unlink(temporaryPath)
                TemporaryFiles.forget(temporaryPath)
            }
            if rename(temporaryPath, renamedTo) != 0 {
                throw CatalogError(.ioError, "cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } else if !TemporaryFiles.link(readFD, as: renamedTo) {
            throw CatalogError(.ioError, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Copies the temporary file into `destination` (created if missing, as through a dangling symlink).
    private func copy(into destination: String) throws {
        let input = readFD
        let output = open(destination, copyFlags, 0o644)
        guard input >= 0, output >= 0, lseek(input, 0, SEEK_SET) == 0 else {
            let reason = String(cString: strerror(errno))
            if output >= 0 { closeDescriptor(output) }
            throw CatalogError(.ioError, "cannot write \(path): \(reason)")
        }
        defer { closeDescriptor(output) }
        // A reader gone from the pipe is an error to report (EPIPE), not a signal that kills the
        // process after its import committed.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let size = 1 << 16
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer, size)
            if n == 0 { return }
            if n < 0 {
                if errno == EINTR { continue }
                throw CatalogError(.ioError, "cannot read the rejects' temporary file: \(String(cString: strerror(errno)))")
            }
            var done = 0
            while done < n {
                let written = writeBytes(output, buffer + done, n - done)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CatalogError(.ioError, "cannot write \(path): \(String(cString: strerror(errno)))")
                }
                done += written
            }
        }
    }

    /// Drops the file (the import failed, so none of it holds); an older file at `path` stays.
    func discard() {
        try? out.flush()
        guard let temporaryPath else { return }
        unlink(temporaryPath)
        TemporaryFiles.forget(temporaryPath)
    }
}

/// The C library's `write` and `close`, apart from the writer's methods of those names.
private func writeBytes(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func closeDescriptor(_ fd: Int32) { close(fd) }

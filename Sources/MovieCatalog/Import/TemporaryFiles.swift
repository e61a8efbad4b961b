import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files a command removes if it is interrupted (SIGINT, SIGTERM, SIGHUP; see `Interruption`)
/// before it renames them into place: a rejects file in the making. The catalog needs nothing of the kind (its
/// transaction is rolled back by SQLite); a half-written file beside it would stay for good.
enum TemporaryFiles {
    /// Slots for the paths, as C strings the signal handler can read: raw memory, made before
    /// the handler is installed (`prepare`), as the handler may not allocate, and outside
    /// Swift's exclusivity checks (a signal may come while a slot is written).
    private static let slotCount = 8
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: slotCount)
        slots.initialize(repeating: nil, count: slotCount)
        return slots
    }()

    /// Makes the slots, for the signal handler to find them made.
    static func prepare() { _ = paths }
    private static let signals = Interruption.signals

    /// Makes a file of its own from `template` (`mkstemp`: its `XXXXXX` replaced) and returns it
    /// open, with its path; nil with `errno` set when it cannot. `remembered`: removed if the
    /// process is interrupted before `forget(path)`; else unlinked at once (open, it lives on
    /// until closed). The signals wait meanwhile: one between the making and the remembering
    /// or the unlinking left the file behind.
    static func make(_ template: String, remembered: Bool) -> (fd: Int32, path: String)? {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for signal in signals { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        var bytes = Array(template.utf8CString)
        let fd = mkstemp(&bytes)
        guard fd >= 0 else { return nil }
        let path = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if remembered { remember(path) } else { unlink(path) }
        return (fd, path)
    }

    /// Opens a file without a name in `directory` (Linux's `O_TMPFILE`), for `link(_:as:)` to
    /// name once it is whole: a process killed meanwhile (`kill -9`, the OOM killer) leaves
    /// nothing behind, where a named file would stay. Nil where the system or the file system
    /// has no such files, or `/proc` is missing (the link goes through it).
    static func unnamed(in directory: String, mode: mode_t) -> Int32? {
        #if os(Linux) && (arch(x86_64) || arch(arm64))
        guard access("/proc/self/fd", X_OK) == 0 else { return nil }
        let fd = open(directory, 0o20200000 | O_RDWR, mode)   // O_TMPFILE (__O_TMPFILE | O_DIRECTORY)
        return fd >= 0 ? fd : nil
        #else
        return nil
        #endif
    }

    /// Names the unnamed file open at `fd` `path`, replacing what is there, with the signals
    /// held: a name of its own first (`link` does not replace), then renamed over `path`.
    static func link(_ fd: Int32, as path: String) -> Bool {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for signal in signals { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let name = FilePaths.folder(of: path) + "/.moviecat-rejects-" + String((0..<6).map { _ in letters.randomElement()! })
            if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 {
                if rename(name, path) == 0 { return true }
                let saved = errno
                unlink(name)
                errno = saved
                return false
            }
            if errno != EEXIST { return false }
        }
        return false
    }

    /// Removes `path` if the process is interrupted before `forget(path)`.
    static func remember(_ path: String) {
        Interruption.install()
        guard let slot = (0..<slotCount).first(where: { paths[$0] == nil }) else { return }
        paths[slot] = strdup(path)
    }

    /// `path` was renamed into place or removed: nothing to do for it on a signal.
    static func forget(_ path: String) {
        for slot in 0..<slotCount where paths[slot].map({ String(cString: $0) == path }) == true {
            // Out of the handler's sight before it is freed.
            let copy = paths[slot]
            paths[slot] = nil
            free(copy)
        }
    }

    /// Unlinks every remembered file: for the signal handler (async-signal-safe).
    static func removeRemembered() {
        for slot in 0..<slotCount { if let path = paths[slot] { unlink(path) } }
    }
}

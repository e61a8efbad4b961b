#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command does when it is interrupted (SIGINT, SIGTERM, SIGHUP) before it is done:
/// removes its files in the making (`TemporaryFiles`), says on stderr what became of its import,
/// then dies of the signal as the default action would, so the exit status still tells it (130
/// for Ctrl-C). The catalog needs nothing: SQLite rolls back what was not committed.
enum Interruption {
    static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// What the handler writes: a slot in raw memory holding a C string, so that the handler
    /// reads it without allocating, without a lazy global's first initialisation and without
    /// Swift's exclusivity checks (a signal may come while `say` writes it). The strings are
    /// never freed, as a signal may come while one is being replaced.
    nonisolated(unsafe) private static let note: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slot = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        slot.initialize(to: nil)
        return slot
    }()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var notes: [String: UnsafeMutablePointer<CChar>] = [:]

    /// From now on an interruption writes `text` (a line of its own; nil: nothing).
    static func say(_ text: String?) {
        install()
        guard let text else { note.pointee = nil; return }
        if notes[text] == nil { notes[text] = strdup(text) }
        note.pointee = notes[text]
    }

    /// Installs the handler for each signal, once; a signal the parent ignores (nohup's SIGHUP)
    /// stays ignored. What the handler reads is made first, outside it.
    static func install() {
        guard !installed else { return }
        installed = true
        _ = note
        TemporaryFiles.prepare()
        for signal in signals {
            var current = sigaction()
            sigaction(signal, nil, &current)
            #if canImport(Glibc)
            guard current.__sigaction_handler.sa_handler == nil else { continue }   // nil: SIG_DFL
            #else
            guard current.__sigaction_u.__sa_handler == nil else { continue }
            #endif
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = handler
            #else
            action.__sigaction_u.__sa_handler = handler
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// The handler: only async-signal-safe calls (unlink, write, signal, raise).
    private static let handler: @convention(c) (Int32) -> Void = { signal in
        TemporaryFiles.removeRemembered()
        if let text = Interruption.note.pointee { _ = write(2, text, strlen(text)) }
        #if canImport(Glibc)
        Glibc.signal(signal, SIG_DFL)
        #else
        Darwin.signal(signal, SIG_DFL)
        #endif
        raise(signal)
    }
}

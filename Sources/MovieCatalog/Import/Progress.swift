import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on a monotonic clock.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// How long each phase of an import took (`MOVIECAT_TIMINGS=1` prints them): where the time
/// goes, measured by the program itself.
final class PhaseTimings {
    private(set) var phases: [(name: String, seconds: Double)] = []
    private var started = monotonicSeconds()

    /// Ends the phase running since the last mark, under `name`.
    func mark(_ name: String) {
        let now = monotonicSeconds()
        phases.append((name, now - started))
        started = now
    }

    /// Starts timing from now, without recording what came before.
    func restart() { started = monotonicSeconds() }

    /// Told what each step after the rows are read is about to do, in words for the progress line.
    var announce: ((String) -> Void)?

    /// Says what the import does next ("building indexes (2 of 5)").
    func begin(_ step: String) { announce?(step) }
}

/// A progress line on a terminal, redrawn at most ten times a second; silent otherwise. Once an
/// input's rows are read, it names the step the import is in (index builds, the commit: a third
/// of a large import) and the seconds it has taken so far, redrawn by a thread of its own while
/// `ticking` runs (a step may be one long SQLite call). Its state is shared with that thread
/// under a lock; nothing else may write to its output meanwhile.
final class Progress: @unchecked Sendable {
    private let out: TextOutput?
    /// The terminal's width now (it may change while an import runs).
    private let columns: () -> Int
    private let clock: () -> Double
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var lastDraw = 0.0
    private var drawn = false
    /// The file and rows last shown, which a step's line repeats.
    private var file = ""
    private var rows = 0
    /// The step shown, and when it began.
    private var step: (text: String, started: Double)?

    /// `out` is nil when progress should not be shown (not a terminal, or --quiet); `clock`
    /// (seconds) is for tests.
    init(out: TextOutput?, columns: (() -> Int)? = nil, clock: @escaping () -> Double = monotonicSeconds) {
        self.out = out
        self.columns = columns ?? { out?.terminalColumns(environment: [:]) ?? 80 }
        self.clock = clock
        pthread_mutex_init(lock, nil)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }

    /// Called every few hundred rows.
    func update(file: String, rows: Int, bytes: Int, totalBytes: Int?, started: Double) {
        guard out != nil else { return }
        locked {
            (self.file, self.rows, step) = (file, rows, nil)
            let now = clock()
            guard now - lastDraw >= 0.1 else { return }
            let percent = totalBytes.map { $0 > 0 ? " \(min(100, bytes * 100 / $0))%" : "" } ?? ""
            let rate = now > started ? Int(Double(rows) / (now - started)) : 0
            draw(":\(percent) \(NumberText.grouped(rows)) rows (\(NumberText.grouped(rate)) rows/s)", at: now)
        }
    }

    /// Shows the step the import is in now that rows are read ("building indexes (2 of 5)").
    func step(_ text: String) {
        guard out != nil else { return }
        locked {
            let now = clock()
            step = (text, now)
            drawStep(at: now)
        }
    }

    /// Redraws the step's seconds, at most once a second.
    func tick() {
        guard out != nil else { return }
        locked {
            let now = clock()
            if step != nil && now - lastDraw >= 1 { drawStep(at: now) }
        }
    }

    /// Runs `body` while a thread ticks the line every `interval` seconds (real ones), so that a
    /// step's seconds go on while `body` waits in one long call (a commit's checkpoint, say).
    func ticking<T>(every interval: Double = 0.25, _ body: () throws -> T) rethrows -> T {
        guard out != nil, let ticker = Ticker(every: interval, { [self] in tick() }) else { return try body() }
        defer { ticker.stop() }
        return try body()
    }

    private func drawStep(at now: Double) {
        guard let step else { return }
        let seconds = Int(now - step.started)
        let read = file.isEmpty ? "" : ": \(NumberText.grouped(rows)) row\(rows == 1 ? "" : "s") read; "
        draw(read + step.text + "…" + (seconds > 0 ? " \(seconds) s" : ""), at: now)
    }

    /// Draws the file's name and `counters` on one line, narrower than the terminal: a wrapped
    /// line leaves its first part behind on every redraw (`\r` goes back to the start of the
    /// last part only). A long name is cut.
    private func draw(_ counters: String, at now: Double) {
        guard let out else { return }
        lastDraw = now
        let width = max(1, columns() - 1)
        let name = DisplayWidth.truncate(TextEscaping.visible(file), to: max(1, width - DisplayWidth.of(counters)))
        out.write("\r\u{1B}[K" + DisplayWidth.truncate(name + counters, to: width))
        try? out.flush()
        drawn = true
    }

    /// Clears the line.
    func finish() {
        guard let out else { return }
        locked {
            step = nil
            guard drawn else { return }
            out.write("\r\u{1B}[K")
            try? out.flush()
            drawn = false
        }
    }
}

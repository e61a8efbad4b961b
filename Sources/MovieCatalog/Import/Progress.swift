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
}

/// A progress line on a terminal, redrawn at most ten times a second; silent otherwise.
final class Progress {
    private let out: TextOutput?
    /// The terminal's width now (it may change while an import runs).
    private let columns: () -> Int
    private var lastDraw = 0.0
    private var drawn = false

    /// `out` is nil when progress should not be shown (not a terminal, or --quiet).
    init(out: TextOutput?, columns: (() -> Int)? = nil) {
        self.out = out
        self.columns = columns ?? { out?.terminalColumns(environment: [:]) ?? 80 }
    }

    /// Called every few hundred rows.
    func update(file: String, rows: Int, bytes: Int, totalBytes: Int?, started: Double) {
        guard let out else { return }
        let now = monotonicSeconds()
        guard now - lastDraw >= 0.1 else { return }
        lastDraw = now
        let percent = totalBytes.map { $0 > 0 ? " \(min(100, bytes * 100 / $0))%" : "" } ?? ""
        let rate = now > started ? Int(Double(rows) / (now - started)) : 0
        // One line, narrower than the terminal: a wrapped line leaves its first part behind on
        // every redraw (`\r` goes back to the start of the last part only). A long name is cut.
        let counters = ":\(percent) \(NumberText.grouped(rows)) rows (\(NumberText.grouped(rate)) rows/s)"
        let width = max(1, columns() - 1)
        let name = DisplayWidth.truncate(TextEscaping.visible(file), to: max(1, width - DisplayWidth.of(counters)))
        out.write("\r\u{1B}[K" + DisplayWidth.truncate(name + counters, to: width))
        try? out.flush()
        drawn = true
    }

    /// Clears the line.
    func finish() {
        guard let out, drawn else { return }
        out.write("\r\u{1B}[K")
        try? out.flush()
        drawn = false
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// Threads without Foundation or Dispatch: linking either adds milliseconds and megabytes to
// every command's start.

/// The closure a new thread runs (a C thread entry cannot capture generic context).
private final class ThreadBody {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Starts a POSIX thread running `body`; nil when the system refuses one.
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let rc = pthread_create(&thread, nil, { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context)
    if rc != 0 {
        Unmanaged<ThreadBody>.fromOpaque(context).release()
        return nil
    }
    return thread
}

/// A flag one thread raises and another reads, without locks.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .relaxed) }
    var isRaised: Bool { raised.load(ordering: .relaxed) }
}

/// Runs each of `bodies` on its own thread (inline when the system refuses one) and waits for all.
func runOnThreads(_ bodies: [@Sendable () -> Void]) {
    var threads: [pthread_t] = []
    for body in bodies {
        if let thread = startThread(body) { threads.append(thread) } else { body() }
    }
    for thread in threads { pthread_join(thread, nil) }
}

/// The number of processors online (at least 1).
var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

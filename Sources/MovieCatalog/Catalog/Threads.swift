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

/// Runs `body` on a thread of its own every `interval` seconds until `stop`, which waits for it.
final class Ticker: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let woken = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var stopped = false
    private var thread: pthread_t?

    /// Nil when the system refuses a thread.
    init?(every interval: Double, _ body: @escaping @Sendable () -> Void) {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(woken, nil)
        thread = startThread { [self] in
            pthread_mutex_lock(mutex)
            while !stopped {
                var deadline = timespec()
                clock_gettime(CLOCK_REALTIME, &deadline)   // the condition's clock
                let nanoseconds = Int(deadline.tv_nsec) + Int(interval * 1e9)
                deadline.tv_sec += nanoseconds / 1_000_000_000
                deadline.tv_nsec = nanoseconds % 1_000_000_000
                pthread_cond_timedwait(woken, mutex, &deadline)
                if stopped { break }
                pthread_mutex_unlock(mutex)
                body()
                pthread_mutex_lock(mutex)
            }
            pthread_mutex_unlock(mutex)
        }
        if thread == nil { return nil }
    }

    deinit {
        pthread_cond_destroy(woken)
        pthread_mutex_destroy(mutex)
        woken.deallocate()
        mutex.deallocate()
    }

    /// Stops the ticks and waits for the thread: no tick runs after this returns.
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_signal(woken)
        pthread_mutex_unlock(mutex)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }
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

/// A bounded queue from threads that send to one that receives: `send` waits while it is full,
/// so memory stays flat; `close` ends the stream, `cancel` drops it (either side giving up).
final class BoundedChannel<Element: Sendable>: @unchecked Sendable {
    // Heap-allocated: a pthread mutex must not move, and Swift promises no fixed address for properties.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [Element] = []
    private var closed = false
    private var cancelled = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Queues `element`, waiting for room; false (and dropped) once the channel is cancelled.
    @discardableResult
    func send(_ element: Element) -> Bool {
        locked {
            precondition(!closed, "sent to a closed channel")
            while queue.count >= capacity && !cancelled { pthread_cond_wait(changed, mutex) }
            guard !cancelled else { return false }
            queue.append(element)
            pthread_cond_broadcast(changed)
            return true
        }
    }

    /// The next element, waiting for one; nil once the channel is closed and empty, or cancelled.
    func receive() -> Element? {
        locked {
            while queue.isEmpty && !closed && !cancelled { pthread_cond_wait(changed, mutex) }
            guard !cancelled, !queue.isEmpty else { return nil }
            pthread_cond_broadcast(changed)
            return queue.removeFirst()
        }
    }

    /// Whether either side gave up (`receive` returns nil then, as for a closed channel).
    var isCancelled: Bool { locked { cancelled } }

    /// No more elements will be sent; the receiver gets those queued, then nil.
    func close() {
        locked {
            closed = true
            pthread_cond_broadcast(changed)
        }
    }

    /// Drops what is queued and what is sent from now on.
    func cancel() {
        locked {
            cancelled = true
            queue.removeAll()
            pthread_cond_broadcast(changed)
        }
    }
}

import MovieDomain
import SQLiteStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a producer on its own thread, handing batches to the caller through a small bounded queue.
///
/// The importer parses and validates on this thread while the caller writes to SQLite, so both
/// cores work; the bound keeps memory flat. The producer must only touch state it was given.
final class ParseAhead<Batch: Sendable>: @unchecked Sendable {
    // Heap-allocated: a pthread mutex must not move, and Swift promises no fixed address for properties.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [Batch] = []
    /// Batches the caller is done with, freed by the producer's thread (see `recycle`).
    private var spent: [Batch] = []
    private var done = false
    private var cancelled = false
    private var failure: Error?
    private let capacity: Int
    private var thread = pthread_t()
    private var joined = false
    private let produce: @Sendable (_ emit: (Batch) -> Bool) throws -> Void

    /// Starts `produce` on a new thread; it calls `emit` per batch, which returns false once the caller gave up.
    static func start(capacity: Int = 4, produce: @escaping @Sendable (_ emit: (Batch) -> Bool) throws -> Void) -> ParseAhead {
        let ahead = ParseAhead(capacity: capacity, produce: produce)
        ahead.launch()
        return ahead
    }

    private init(capacity: Int, produce: @escaping @Sendable (_ emit: (Batch) -> Bool) throws -> Void) {
        self.capacity = capacity
        self.produce = produce
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    private func launch() {
        if let started = startThread({ [self] in run(bounded: true) }) {
            thread = started
        } else {
            // No thread to be had: produce inline, unbounded, as a plain loop would.
            joined = true
            run(bounded: false)
        }
    }

    deinit {
        cancel()
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    private func run(bounded: Bool) {
        do {
            try produce { batch in
                var freed: [Batch] = []
                let accepted = enqueue(batch, bounded: bounded, spent: &freed)
                freed.removeAll()   // the caller's spent batches end here, outside the lock
                return accepted
            }
            finish(nil)
        } catch {
            finish(error)
        }
    }

    private func enqueue(_ batch: Batch, bounded: Bool, spent freed: inout [Batch]) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        swap(&freed, &spent)
        while bounded && queue.count >= capacity && !cancelled { pthread_cond_wait(changed, mutex) }
        if cancelled { return false }
        queue.append(batch)
        pthread_cond_broadcast(changed)
        return true
    }

    /// Takes back a batch the caller has finished with, so that the producer's thread frees it:
    /// that thread allocated its memory and has time to spare, the caller's is the busy one.
    func recycle(_ batch: consuming Batch) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if !done && !cancelled { spent.append(batch) }
    }

    private func finish(_ error: Error?) {
        pthread_mutex_lock(mutex)
        failure = error
        done = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// The next batch, nil when the producer finished, or the producer's error.
    func next() throws -> Batch? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while queue.isEmpty && !done { pthread_cond_wait(changed, mutex) }
        if !queue.isEmpty {
            let batch = queue.removeFirst()
            pthread_cond_broadcast(changed)
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer at its next batch and waits for its thread to end.
    func cancel() {
        pthread_mutex_lock(mutex)
        cancelled = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        if !joined {
            joined = true
            pthread_join(thread, nil)
        }
    }
}

/// Hands a non-Sendable value to the one thread that will use it from then on.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
}

import Synchronization
import Testing
@testable import MovieCatalog
@testable import MovieCLI
@testable import MovieDomain
@testable import SQLiteStore
#if canImport(Glibc)
import Glibc
#endif

/// The importer's parse-ahead thread: order, bounded hand-over, errors and early stops.
@Suite struct ParseAheadTests {
    @Test("batches arrive complete and in order")
    func order() throws {
        let ahead = ParseAhead<Int>.start(capacity: 2) { emit in
            for i in 0..<10_000 { guard emit(i) else { return } }
        }
        var received: [Int] = []
        while let n = try ahead.next() { received.append(n) }
        #expect(received == Array(0..<10_000))
    }

    struct Boom: Error, Equatable {}

    @Test("a producer's error reaches the consumer after the batches before it")
    func error() throws {
        let ahead = ParseAhead<Int>.start { emit in
            _ = emit(1)
            _ = emit(2)
            throw Boom()
        }
        #expect(try ahead.next() == 1)
        #expect(try ahead.next() == 2)
        #expect(throws: Boom.self) { try ahead.next() }
    }

    @Test("cancelling stops a producer blocked on a full queue")
    func cancel() throws {
        final class Count: @unchecked Sendable { var emitted = 0 }
        let count = Count()
        let ahead = ParseAhead<Int>.start(capacity: 1) { emit in
            for i in 0..<1_000_000 {
                guard emit(i) else { return }
                count.emitted += 1
            }
        }
        #expect(try ahead.next() == 0)
        ahead.cancel()   // joins the thread: returns only once the producer has stopped
        #expect(count.emitted < 1_000_000)
    }

    /// Counts the batches that ended on the consumer's thread.
    final class FreedOnConsumer: Sendable {
        let count = Atomic<Int>(0)
        let consumer: pthread_t
        init(consumer: pthread_t) { self.consumer = consumer }
    }

    /// A batch that records whether the consumer's thread ends it.
    final class Tracked: Sendable {
        let value: Int
        let freed: FreedOnConsumer
        init(_ value: Int, freed: FreedOnConsumer) {
            self.value = value
            self.freed = freed
        }
        deinit { if pthread_equal(pthread_self(), freed.consumer) != 0 { freed.count.add(1, ordering: .relaxed) } }
    }

    @Test("recycled batches are freed by the producer's thread, and order is kept")
    func recycle() throws {
        let freed = FreedOnConsumer(consumer: pthread_self())
        let total = 2_000
        let ahead = ParseAhead<Tracked>.start(capacity: 2) { emit in
            for i in 0..<total {
                guard emit(Tracked(i, freed: freed)) else { return }
            }
        }
        var received: [Int] = []
        while let batch = try ahead.next() {
            received.append(batch.value)
            ahead.recycle(batch)
        }
        #expect(received == Array(0..<total))
        // All but the few still waiting to be recycled when the producer finished end over there.
        #expect(freed.count.load(ordering: .relaxed) < 10, "\(freed.count.load(ordering: .relaxed)) freed here")
    }
}

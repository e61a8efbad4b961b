import Testing
@testable import MovieCatalog

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
}

import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The sieve narrows folding to the movies that may repeat, so it must never miss one: keys
/// SQLite's natural-key index calls equal hash alike, and every repeated key is a candidate.
@Suite struct RepeatSieveTests {
    /// Titles from letters whose case SQLite's NOCASE folds (ASCII) and letters it does not.
    static func randomTitle(_ rng: inout SeededRandom) -> String {
        let letters: [Character] = ["a", "A", "b", "B", "z", "Z", " ", "é", "É", "ß", "ǅ", "1", "\u{301}"]
        return String((0..<Int.random(in: 1...4, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
    }

    @Test("titles SQLite's NOCASE calls equal hash alike; so do a missing year and year 0", arguments: [1, 2, 3] as [UInt64])
    func hashFollowsNOCASE(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let db = try Database(path: ":memory:")
        var equalPairs = 0, differentHashes = 0, unequalPairs = 0
        for _ in 0..<2_000 {
            let a = Self.randomTitle(&rng)
            // Half the time the same title with letters' case changed, ASCII or not.
            let b = Bool.random(using: &rng) ? Self.randomTitle(&rng)
                : a.map { Bool.random(using: &rng) ? $0.uppercased() : $0.lowercased() }.joined()
            let yearA: Int? = [nil, 0, 1999].randomElement(using: &rng)!, yearB: Int? = [nil, 0, 1999].randomElement(using: &rng)!
            let equal = try db.intScalar("SELECT ? = ? COLLATE NOCASE AND ifnull(?, 0) = ifnull(?, 0)",
                                         [.text(a), .text(b), yearA.map { .integer(Int64($0)) } ?? .null,
                                          yearB.map { .integer(Int64($0)) } ?? .null]) == 1
            let hashA = RepeatSieve.hash(of: Movie(title: a, year: yearA), byIMDbID: false)
            let hashB = RepeatSieve.hash(of: Movie(title: b, year: yearB), byIMDbID: false)
            if equal {
                equalPairs += 1
                #expect(hashA == hashB, "\(a) (\(yearA as Any)) = \(b) (\(yearB as Any))")
            } else {
                unequalPairs += 1
                if hashA != hashB { differentHashes += 1 }
            }
        }
        #expect(equalPairs > 50 && unequalPairs > 50, "the random titles meet both cases")
        #expect(differentHashes == unequalPairs, "no collisions among a few thousand short keys")
    }

    @Test("the IMDb-id key hashes the id alone")
    func hashByID() {
        let a = Movie(title: "Heat", year: 1995, imdbID: "tt0113277"), b = Movie(title: "heat (1995)", year: nil, imdbID: "tt0113277")
        #expect(RepeatSieve.hash(of: a, byIMDbID: true) == RepeatSieve.hash(of: b, byIMDbID: true))
        #expect(RepeatSieve.hash(of: a, byIMDbID: true) != RepeatSieve.hash(of: Movie(title: "Heat", imdbID: "tt0113278"), byIMDbID: true))
    }

    /// Sizes that make the filter grow layers and the candidate list overflow, or not.
    @Test("every repeated key is a candidate; unrepeated ones rarely are", arguments: [
        (capacity: 1 << 22, limit: 1 << 20), (capacity: 1_000, limit: 1 << 20), (capacity: 1_000, limit: 500),
    ])
    func candidatesCoverRepeats(sizes: (capacity: Int, limit: Int)) {
        var rng = SeededRandom(seed: UInt64(sizes.capacity + sizes.limit))
        var sieve = RepeatSieve(capacity: sizes.capacity, candidateLimit: sizes.limit)
        var seen: [UInt64: Int] = [:]
        for _ in 0..<60_000 {
            // About one key in twenty repeats an earlier one.
            let key = Int.random(in: 0..<20, using: &rng) == 0 && !seen.isEmpty
                ? seen.keys.randomElement(using: &rng)! : rng.next()
            let hash = RepeatSieve.hash(of: Movie(title: "movie \(key)", year: 2000), byIMDbID: false)
            sieve.add(hash)
            seen[key, default: 0] += 1
        }
        let repeated = seen.filter { $0.value > 1 }.map { RepeatSieve.hash(of: Movie(title: "movie \($0.key)", year: 2000), byIMDbID: false) }
        let overflowed = sieve.overflowed
        let candidates = sieve.finish()
        if overflowed {
            #expect(sizes.limit < repeated.count, "gives up only past its limit")
            #expect(candidates.isEmpty)
        } else {
            #expect(repeated.allSatisfy { RepeatSieve.isCandidate($0, in: candidates) }, "no repeated key is missed")
            // About 1 % a layer; a filter grown to many layers adds theirs up.
            #expect(candidates.count - repeated.count < seen.count / 12, "few false candidates")
        }
    }

    @Test("a stored movie's key becomes a candidate when an appended key may equal it")
    func storedCandidates() {
        var sieve = RepeatSieve(capacity: 1_000, candidateLimit: 100)
        let stored = RepeatSieve.hash(of: Movie(title: "Alien", year: 1979), byIMDbID: false)
        sieve.add(RepeatSieve.hash(of: Movie(title: "ALIEN", year: 1979), byIMDbID: false))
        #expect(!sieve.mayRepeat)
        #expect(sieve.contains(stored))
        sieve.addCandidate(stored)
        #expect(sieve.mayRepeat)
        #expect(sieve.finish() == [stored])
    }

    @Test("past its candidate limit the sieve gives up narrowing, and releasing its memory keeps that answer")
    func overflowAndRelease() {
        var sieve = RepeatSieve(capacity: 64, candidateLimit: 8)
        for hash in 0..<40 as Range<UInt64> { sieve.add(hash); sieve.add(hash) }
        #expect(sieve.overflowed && sieve.mayRepeat)
        sieve.release()
        #expect(sieve.overflowed && sieve.mayRepeat)
    }
}

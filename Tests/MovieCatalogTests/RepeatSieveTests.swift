import Foundation
import Testing
@testable import MovieCatalog
@testable import MovieDomain
@testable import SQLiteStore
import TestSupport

/// The sieve sends the rows that may repeat a key to the merge, so it must never miss one: keys
/// SQLite's natural-key index calls equal hash alike, and every repeated key is a "maybe".
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

    /// A stored movie's key is made from SQLite's bytes, a row's from its strings: they must agree.
    @Test("a movie's key and hash equal those of its values' bytes; a row's hash follows its values", arguments: [1, 2] as [UInt64])
    func keyOfMovieEqualsKeyOfBytes(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var fromMovie: [UInt8] = [], fromBytes: [UInt8] = []
        for _ in 0..<500 {
            let movie = Movie(title: Self.randomTitle(&rng) + String(repeating: "Long Title ", count: Int.random(in: 0...3, using: &rng)),
                              year: [nil, 0, -1, 1999, Int(Int32.max)].randomElement(using: &rng)!,
                              imdbID: Bool.random(using: &rng) ? "tt\(Int.random(in: 1...9_999_999, using: &rng))" : nil)
            for byIMDbID in [false, true] {
                RepeatSieve.key(of: movie, byIMDbID: byIMDbID, into: &fromMovie)
                var title = movie.title, id = movie.imdbID ?? ""
                title.withUTF8 { t in
                    id.withUTF8 { RepeatSieve.key(title: t, year: movie.year, imdbID: $0, byIMDbID: byIMDbID, into: &fromBytes) }
                }
                #expect(fromMovie == fromBytes, "\(movie.title) \(movie.year as Any) \(byIMDbID)")
                #expect(RepeatSieve.hash(of: movie, byIMDbID: byIMDbID) == RepeatSieve.hash(fromBytes), "the hash without the key's bytes")
                var row = ImportRow(line: 1, movie: movie, present: [.title])
                #expect(row.keyHash(byIMDbID: byIMDbID) == RepeatSieve.hash(fromBytes), "a parsed row's")
                row.title += "x"
                RepeatSieve.key(of: row.movie, byIMDbID: byIMDbID, into: &fromMovie)
                #expect(row.keyHash(byIMDbID: byIMDbID) == RepeatSieve.hash(fromMovie), "a changed row's")
            }
        }
        // The layout itself: folded ASCII, the separator, the year's little-endian bytes.
        RepeatSieve.key(of: Movie(title: "AbÉ", year: 258), byIMDbID: false, into: &fromMovie)
        #expect(fromMovie == Array("abÉ".utf8) + [0xFF, 2, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test("two movies compared in place have the same key exactly when their keys' bytes are equal", arguments: [1, 2, 3] as [UInt64])
    func sameKeyInPlace(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        func variant(_ title: String) -> String {
            // Another ASCII case, a canonically equal spelling (other bytes), a letter more.
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return title.uppercased()
            case 1: return String(title.map { Bool.random(using: &rng) ? Character($0.lowercased()) : $0 })
            case 2: return title.replacing("é", with: "e\u{301}")
            case 3: return title + "x"
            default: return title
            }
        }
        var a: [UInt8] = [], b: [UInt8] = []
        var same = 0, different = 0
        for _ in 0..<2_000 {
            let title = ["Amélie", "ÉTÉ", "Heat", "[x]", "@`{", "Straße"].randomElement(using: &rng)! + Self.randomTitle(&rng)
            let years: [Int?] = [nil, 0, 1999, 2000]
            let x = Movie(title: title, year: years.randomElement(using: &rng)!, imdbID: ["tt0113277", "tt0113278", nil].randomElement(using: &rng)!)
            let y = Movie(title: variant(title), year: Bool.random(using: &rng) ? x.year : years.randomElement(using: &rng)!,
                          imdbID: Bool.random(using: &rng) ? x.imdbID : ["tt0113277", "TT0113277", nil].randomElement(using: &rng)!)
            for byIMDbID in [false, true] {
                RepeatSieve.key(of: x, byIMDbID: byIMDbID, into: &a)
                RepeatSieve.key(of: y, byIMDbID: byIMDbID, into: &b)
                #expect(RepeatSieve.sameKey(x, y, byIMDbID: byIMDbID) == (a == b), "\(x) \(y) \(byIMDbID)")
                if a == b { same += 1 } else { different += 1 }
            }
        }
        #expect(same > 500 && different > 500)
    }

    @Test("the IMDb-id key hashes the id alone")
    func hashByID() {
        let a = Movie(title: "Heat", year: 1995, imdbID: "tt0113277"), b = Movie(title: "heat (1995)", year: nil, imdbID: "tt0113277")
        #expect(RepeatSieve.hash(of: a, byIMDbID: true) == RepeatSieve.hash(of: b, byIMDbID: true))
        #expect(RepeatSieve.hash(of: a, byIMDbID: true) != RepeatSieve.hash(of: Movie(title: "Heat", imdbID: "tt0113278"), byIMDbID: true))
    }

    /// Sizes that make the filter grow layers, or not.
    @Test("every repeated key is a 'maybe seen'; new ones rarely are", arguments: [1 << 22, 1_000])
    func repeatsAreNeverMissed(capacity: Int) {
        var rng = SeededRandom(seed: UInt64(capacity))
        var sieve = RepeatSieve(capacity: capacity)
        var seen = Set<UInt64>(), keys: [UInt64] = []
        var missed = 0, falseMaybes = 0, repeats = 0
        for _ in 0..<60_000 {
            // About one key in twenty repeats an earlier one.
            let key = Int.random(in: 0..<20, using: &rng) == 0 && !keys.isEmpty ? keys.randomElement(using: &rng)! : rng.next()
            let maybe = sieve.insert(RepeatSieve.hash(of: Movie(title: "movie \(key)", year: 2000), byIMDbID: false))
            if seen.contains(key) {
                repeats += 1
                if !maybe { missed += 1 }
            } else {
                if maybe { falseMaybes += 1 }
                seen.insert(key)
                keys.append(key)
            }
        }
        #expect(repeats > 1_000)
        #expect(missed == 0, "no repeated key is missed")
        // About 1 % a layer; a filter grown to many layers adds theirs up.
        #expect(falseMaybes < seen.count / 12, "few new keys are taken for repeats")
    }

    @Test("a sieve that sees everything takes every key, new or not, for a possible repeat")
    func seesEverything() {
        var sieve = RepeatSieve(capacity: 1_000, seesEverything: true)
        #expect((0..<100 as Range<UInt64>).allSatisfy { sieve.insert($0 &* 0x9E37_79B9_7F4A_7C15) })
    }

    @Test("a sieve is sized for the keys expected (at least 65,536, at most 16M in one layer); with none expected (stdin) it starts at 4M")
    func sizedForTheInput() {
        #expect(RepeatSieve(expectedKeys: 100_000).capacities == [100_000])
        #expect(RepeatSieve(expectedKeys: 10).capacities == [RepeatSieve.smallest])
        #expect(RepeatSieve(expectedKeys: nil).capacities == [1 << 22])
        #expect(RepeatSieve(expectedKeys: 10_000_000).capacities == [10_000_000])
        #expect(RepeatSieve(expectedKeys: 100_000_000).capacities == [1 << 24])
        // Sized for its keys, it still tells new keys from seen ones (some 1 % false "maybe").
        var sieve = RepeatSieve(expectedKeys: 100_000)
        var rng = SeededRandom(seed: 7)
        var maybes = 0
        for _ in 0..<100_000 where sieve.insert(UInt64.random(in: .min ... .max, using: &rng)) { maybes += 1 }
        #expect(maybes < 2_000, "\(maybes) of 100,000 new keys taken for repeats")
    }

    @Test("past a full layer a sieve adds one for the keys still to come, or for as many as it holds when that is more; with no projection it doubles, up to 16M a layer",
          arguments: [(1_500, [1_000, 1_500, 2_500]), (100, [1_000, 1_000, 2_000]), (nil, [1_000, 2_000, 4_000])] as [(Int?, [Int])])
    func growsByTheKeysToCome(toCome: Int?, capacities: [Int]) {
        var sieve = RepeatSieve(capacity: 1_000)
        sieve.keysToCome = toCome
        var rng = SeededRandom(seed: 3)
        var inserts = 0
        while sieve.capacities.count < capacities.count && inserts < 100_000 {
            _ = sieve.insert(UInt64.random(in: .min ... .max, using: &rng))
            inserts += 1
            // The projection spent: nothing more is expected once the second layer is made.
            if sieve.capacities.count == 2, toCome != nil { sieve.keysToCome = 0 }
        }
        #expect(sieve.capacities == capacities)
        #expect(RepeatSieve.nextCapacity(after: [1 << 22], keysToCome: 1 << 30) == 1 << 24)
        #expect(RepeatSieve.nextCapacity(after: [1 << 24], keysToCome: nil) == 1 << 24)
    }

    @Test("a file whose kept rows come late starts with a sieve for the rows its size suggests (up to 4M), not for the few its first rows project")
    func keptRowsComingLate() throws {
        // 70,000 rows of some 70 bytes, the last tenth kept: the first 512 kept rows project some
        // 600, the size 80,000.
        let pad = String(repeating: "x", count: 40)
        var lines = ["title,year,shelf,notes"]
        for i in 0..<70_000 { lines.append("Movie \(i),\(1950 + i % 70),\(i < 63_000 ? "other" : "mine"),\(pad)") }
        let csv = lines.joined(separator: "\n") + "\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": csv])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "in.csv") { $0.wheres = try! WhereClause.parse(["shelf=mine"]) }
        #expect(report.appendedRows == 7_000)
        #expect(Importer.estimatedRows(csv.utf8.count) > RepeatSieve.smallest)
        #expect(report.sieveKeys == Importer.estimatedRows(csv.utf8.count))
    }

    @Test("a first layer is no larger than 4M keys, or the rows the file's size suggests when more, whatever its first rows project")
    func firstRowsShortThenLong() {
        for (projected, bySize, first) in [(100_000_000, 800_000, 1 << 22), (100_000_000, 9_000_000, 9_000_000), (5_000_000, 600_000, 1 << 22),
                                           (1_000, 80_000, 80_000), (3_000_000, 370_000, 3_000_000), (4_500_000, 38_700_000, 4_500_000)] {
            #expect(RepeatSieve.firstLayerRows(projected: projected, bySize: bySize) == first, "\(projected) projected, \(bySize) by size")
        }
    }

    @Test("a bulk load's sieve is sized from the input file's size")
    func loadSizesItsSieve() throws {
        var rows = ["title,year"]
        for i in 0..<5_000 { rows.append("Movie \(i),\(1950 + i % 70)") }
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": rows.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, "in.csv")
        #expect(report.appendedRows == 5_000)
        // 5,000 rows: the smallest sieve, not the 4M of stdin's.
        #expect(report.sieveKeys == RepeatSieve.smallest)
    }

    @Test("a bulk load's sieve is sized by the rows its input holds, projected from the bytes its first rows take, not by a fixed row length",
          arguments: [(80_000, 100, false), (100_000, 0, false), (100_000, 0, true)])
    func sizedByTheRowsRead(rows: Int, padding: Int, gzipped: Bool) throws {
        // Rows of some 120 bytes (a 60-byte guess doubles them), or of some 17 (it makes a
        // quarter of them; gzipped, a twentieth).
        let pad = String(repeating: "x", count: padding)
        var lines = ["title,year,notes"]
        for i in 0..<rows { lines.append("Movie \(i),\(1950 + i % 70),\(pad)") }
        let csv = lines.joined(separator: "\n") + "\n"
        let (catalog, dir) = try BulkLoadTests.catalog(["in.csv": csv])
        defer { try? FileManager.default.removeItem(at: dir) }
        if gzipped {
            // Gzip's bytes are read a megabyte ahead of the rows: the projection goes by the ratio.
            let gzip = try Process.run(URL(fileURLWithPath: "/bin/gzip"), arguments: [dir.appendingPathComponent("in.csv").path])
            gzip.waitUntilExit()
            try #require(gzip.terminationStatus == 0)
        }
        let report = try TitleIndexBuilderTests.importAlways(catalog, dir, gzipped ? "in.csv.gz" : "in.csv")
        #expect(report.appendedRows == rows)
        // The first rows' numbers are shorter than the last ones': a little over. Never under the
        // rows the size suggests (up to 4M): there the long rows' 160,000.
        let bySize = min(RepeatSieve.unknownCapacity, Importer.estimatedRows(try Data(contentsOf: dir.appendingPathComponent(gzipped ? "in.csv.gz" : "in.csv")).count))
        #expect(report.sieveKeys >= max(rows, bySize) && report.sieveKeys < max(rows * 5 / 4, bySize + 1), "sized for \(report.sieveKeys) keys")
    }
}

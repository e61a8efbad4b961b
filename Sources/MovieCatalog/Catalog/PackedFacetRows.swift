/// The facet rows of one block of movie_facet_totals packed column by column (schema version 9),
/// so that the counts of a selection read about 14 bytes a movie in Swift where a scan reads each
/// movie's facet row through SQLite (some 2,300 instructions a row).
///
/// The bytes, little-endian: the row count (2 bytes); the block's certifications (a count byte,
/// then each as a length byte and its bytes); a kind byte for each of ratings, minutes and years
/// (1: narrow, 8: wide); then the columns, each for every row in id order: genre bits (8 bytes);
/// ratings (narrow: tenths in a byte, 255 for none; wide: the Double's bits, `noRating` for none);
/// minutes, then years (narrow: 2 bytes, 0xFFFF for none; wide: 8 bytes, Int64.min for none);
/// the certification's index (a byte, 255 for none). Exact: a value the narrow kind cannot give
/// back bit for bit makes its column wide, and a block that fits neither is stored as NULL.
struct PackedFacetRows {
    private var genres: [Int64] = []
    private var ratings: [Double?] = []
    private var minutes: [Int?] = []
    private var years: [Int?] = []
    private var certificationIndexes: [UInt8] = []
    private var certifications: [[UInt8]] = []
    private var fits = true

    /// A NaN that stands for no rating in a wide column (SQLite stores no NaN: it makes it NULL).
    static let noRating: UInt64 = 0x7FF8_DEAD_0000_0001
    static let narrow: UInt8 = 1, wide: UInt8 = 8
    private static let noNarrowNumber: UInt16 = 0xFFFF, noIndex: UInt8 = 255

    /// Appends one movie's facet row (rows in id order).
    mutating func add(genres: Int64, rating: Double?, minutes: Int?, year: Int?, certification: UnsafeBufferPointer<UInt8>?) {
        self.genres.append(genres)
        ratings.append(rating)
        self.minutes.append(minutes)
        years.append(year)
        if minutes == Int.min || year == Int.min || rating?.bitPattern == PackedFacetRows.noRating { fits = false }
        guard let certification else { return certificationIndexes.append(PackedFacetRows.noIndex) }
        if let index = certifications.firstIndex(where: { $0.elementsEqual(certification) }) {
            certificationIndexes.append(UInt8(index))
        } else if certifications.count < Int(PackedFacetRows.noIndex), certification.count <= Int(UInt8.max) {
            certificationIndexes.append(UInt8(certifications.count))
            certifications.append(Array(certification))
        } else {
            fits = false
            certificationIndexes.append(PackedFacetRows.noIndex)
        }
    }

    /// The packed block; nil when a value has no place in it.
    func bytes() -> [UInt8]? {
        guard fits, let count = UInt16(exactly: genres.count) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(16 * genres.count + 64)
        func put(_ value: UInt64, _ width: Int) { for i in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) } }
        put(UInt64(count), 2)
        out.append(UInt8(certifications.count))
        for text in certifications {
            out.append(UInt8(text.count))
            out.append(contentsOf: text)
        }
        let tenths = ratings.map { $0.map(PackedFacetRows.tenths) ?? PackedFacetRows.noIndex }
        let narrowRatings = !tenths.contains(nil)
        let narrowMinutes = minutes.allSatisfy(PackedFacetRows.isNarrow), narrowYears = years.allSatisfy(PackedFacetRows.isNarrow)
        for isNarrow in [narrowRatings, narrowMinutes, narrowYears] { out.append(isNarrow ? PackedFacetRows.narrow : PackedFacetRows.wide) }
        for bits in genres { put(UInt64(bitPattern: bits), 8) }
        if narrowRatings {
            for tenth in tenths { out.append(tenth!) }
        } else {
            for rating in ratings { put(rating?.bitPattern ?? PackedFacetRows.noRating, 8) }
        }
        for (column, isNarrow) in [(minutes, narrowMinutes), (years, narrowYears)] {
            for value in column {
                if isNarrow { put(UInt64(value.map(UInt16.init) ?? PackedFacetRows.noNarrowNumber), 2) } else { put(UInt64(bitPattern: Int64(value ?? Int.min)), 8) }
            }
        }
        out.append(contentsOf: certificationIndexes)
        return out
    }

    /// A rating as whole tenths (0...254) that give it back bit for bit; nil when none do.
    private static func tenths(_ rating: Double) -> UInt8? {
        let scaled = (rating * 10).rounded()
        guard scaled >= 0, scaled < Double(noIndex), (Double(UInt8(scaled)) / 10).bitPattern == rating.bitPattern else { return nil }
        return UInt8(scaled)
    }

    private static func isNarrow(_ value: Int?) -> Bool { value.map { (0..<Int(noNarrowNumber)).contains($0) } ?? true }

    /// Tallies the rows of a packed block, leaving out those with a genre bit of `excluded`; false,
    /// tallying nothing, when `bytes` is not what `bytes()` writes.
    static func tally(_ bytes: UnsafeRawBufferPointer, into tally: inout FacetTally, excluding excluded: Int64) -> Bool {
        guard let block = Layout(bytes) else { return false }
        for row in 0..<block.rows {
            let genres = Int64(bitPattern: block.genres(row))
            guard genres & excluded == 0 else { continue }
            let index = block.certificationIndex(row)
            tally.add(genres: genres, rating: block.rating(row), minutes: block.minutes(row), year: block.year(row),
                      certification: index == noIndex ? nil : block.certifications[Int(index)])
        }
        return true
    }

    /// How many rows a packed block holds, read from `header` (its first bytes, or all of them)
    /// and checked against the block's whole `length`; nil when the header does not fit in
    /// `header` or does not give that length.
    static func rowCount(header: UnsafeRawBufferPointer, length: Int) -> Int? {
        guard let head = Header(header), head.length == length else { return nil }
        return head.rows
    }

    /// A packed block's head: its row count, where its certifications end, its column widths;
    /// nil when the bytes end inside it or it is malformed.
    private struct Header {
        let rows: Int
        let ratingWidth: Int, minuteWidth: Int, yearWidth: Int
        /// Where the first column (the genre bits) starts.
        let columnsStart: Int

        /// The whole block's length: the head, then a column of each width and the certification indexes.
        var length: Int { columnsStart + rows * (8 + ratingWidth + minuteWidth + yearWidth + 1) }

        init?(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count >= 3 else { return nil }
            rows = Int(bytes[0]) | Int(bytes[1]) << 8
            var offset = 3
            for _ in 0..<Int(bytes[2]) {
                guard offset < bytes.count, offset + 1 + Int(bytes[offset]) <= bytes.count else { return nil }
                offset += 1 + Int(bytes[offset])
            }
            guard offset + 3 <= bytes.count else { return nil }
            let kinds = (bytes[offset], bytes[offset + 1], bytes[offset + 2])
            guard [kinds.0, kinds.1, kinds.2].allSatisfy({ $0 == PackedFacetRows.narrow || $0 == PackedFacetRows.wide }) else { return nil }
            ratingWidth = Int(kinds.0)
            minuteWidth = kinds.1 == PackedFacetRows.narrow ? 2 : 8
            yearWidth = kinds.2 == PackedFacetRows.narrow ? 2 : 8
            columnsStart = offset + 3
        }

        /// The block's certifications, in `bytes` (the block, whose head this is).
        func certifications(in bytes: UnsafeRawBufferPointer) -> [UnsafeBufferPointer<UInt8>] {
            var offset = 3, texts: [UnsafeBufferPointer<UInt8>] = []
            for _ in 0..<Int(bytes[2]) {
                texts.append(UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + Int(bytes[offset]))]).assumingMemoryBound(to: UInt8.self))
                offset += 1 + Int(bytes[offset])
            }
            return texts
        }
    }

    /// Where each column of a packed block starts, checked against its length.
    private struct Layout {
        let bytes: UnsafeRawBufferPointer
        let rows: Int
        let certifications: [UnsafeBufferPointer<UInt8>]
        let ratingWidth: Int, minuteWidth: Int, yearWidth: Int
        let genreStart: Int, ratingStart: Int, minuteStart: Int, yearStart: Int, certificationStart: Int

        init?(_ bytes: UnsafeRawBufferPointer) {
            guard let head = Header(bytes), head.length == bytes.count else { return nil }
            self.bytes = bytes
            rows = head.rows
            certifications = head.certifications(in: bytes)
            (ratingWidth, minuteWidth, yearWidth) = (head.ratingWidth, head.minuteWidth, head.yearWidth)
            genreStart = head.columnsStart
            ratingStart = genreStart + 8 * rows
            minuteStart = ratingStart + ratingWidth * rows
            yearStart = minuteStart + minuteWidth * rows
            certificationStart = yearStart + yearWidth * rows
            // Every index names a certification of the block, or none.
            for row in 0..<rows {
                let index = bytes[certificationStart + row]
                guard index == PackedFacetRows.noIndex || Int(index) < certifications.count else { return nil }
            }
        }

        @inline(__always) func genres(_ row: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: genreStart + 8 * row, as: UInt64.self).littleEndian }

        @inline(__always) func rating(_ row: Int) -> Double? {
            if ratingWidth == 1 {
                let tenths = bytes[ratingStart + row]
                return tenths == PackedFacetRows.noIndex ? nil : Double(tenths) / 10
            }
            let bits = bytes.loadUnaligned(fromByteOffset: ratingStart + 8 * row, as: UInt64.self).littleEndian
            return bits == PackedFacetRows.noRating ? nil : Double(bitPattern: bits)
        }

        @inline(__always) func minutes(_ row: Int) -> Int? { number(minuteStart, minuteWidth, row) }
        @inline(__always) func year(_ row: Int) -> Int? { number(yearStart, yearWidth, row) }

        @inline(__always) private func number(_ start: Int, _ width: Int, _ row: Int) -> Int? {
            if width == 2 {
                let value = bytes.loadUnaligned(fromByteOffset: start + 2 * row, as: UInt16.self).littleEndian
                return value == PackedFacetRows.noNarrowNumber ? nil : Int(value)
            }
            let value = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8 * row, as: Int64.self))
            return value == Int64.min ? nil : Int(value)
        }

        @inline(__always) func certificationIndex(_ row: Int) -> UInt8 { bytes[certificationStart + row] }
    }
}

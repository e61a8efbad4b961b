import MovieDomain
import SQLiteStore
/// Finds the closest of a list of words, for "did you mean ...?" hints.
public enum Suggestion {
    /// The candidate nearest to `word` by edit distance, if it is close enough to help.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        // Hyphens and the like are often left out (`scifu` for `sci-fi`): compared without them too.
        func bare(_ text: [Character]) -> [Character] { text.filter { $0.isLetter || $0.isNumber } }
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let distance = min(editDistance(target, other), editDistance(bare(target), bare(other)))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        // About one edit in three characters, at least one: two edits of a short word make
        // another word (`anime` is no typo of `crime`, nor `a` of `war`).
        return best.distance <= max(1, target.count / 3) ? best.candidate : nil
    }

    /// Edit distance where swapping two neighbours is one edit (`inti` is one from `init`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}

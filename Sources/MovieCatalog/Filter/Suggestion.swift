import MovieDomain
import SQLiteStore
/// Finds the closest of a list of words, for "did you mean ...?" hints.
public enum Suggestion {
    /// The candidate nearest to `word` by edit distance, if it is close enough to help.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        // Allow about one edit in three characters, and always at least two.
        return best.distance <= max(2, target.count / 3) ? best.candidate : nil
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

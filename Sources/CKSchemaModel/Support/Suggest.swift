/// "Did you mean" suggestions for misspelt keys, types and names.
public enum Suggest {
    /// The candidate closest to `word` (case-insensitive edit distance), when close enough to be a likely typo.
    /// Ties go to the name first in code-point order, so a Set or a Dictionary's keys (whose
    /// order changes from run to run) give the same suggestion every time.
    public static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        let w = Array(word.lowercased().unicodeScalars)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased().unicodeScalars))
            if let b = best, d > b.1 || (d == b.1 && !precedes(c, b.0)) { continue }
            best = (c, d)
        }
        guard let (name, d) = best else { return nil }
        let allowed = max(1, min(3, w.count / 3))
        if d <= allowed { return name }
        // A word that is the start of a candidate ("index" for "indexes") is a likely slip too.
        if w.count >= 3 {
            let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
            return prefixed.min { $0.count != $1.count ? $0.count < $1.count : precedes($0, $1) }
        }
        return nil
    }

    private static func precedes(_ a: String, _ b: String) -> Bool { a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }

    /// `; did you mean 'x'?` or the empty string.
    public static func phrase<S: Sequence>(for word: String, in candidates: S) -> String where S.Element == String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        // Optimal string alignment: a swap of two neighbours ("titel") counts as one edit.
        var before = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
            }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[b.count]
    }
}

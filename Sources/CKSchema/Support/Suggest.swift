/// "Did you mean" suggestions for misspelt keys, types and names.
public enum Suggest {
    /// The candidate closest to `word` (case-insensitive edit distance), when close enough to be a likely typo.
    public static func closest<S: Sequence>(to word: String, in candidates: S) -> String? where S.Element == String {
        let w = Array(word.lowercased().unicodeScalars)
        var best: (String, Int)?
        for c in candidates {
            let d = distance(w, Array(c.lowercased().unicodeScalars))
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (name, d) = best else { return nil }
        let allowed = max(1, min(3, w.count / 3))
        return d <= allowed ? name : nil
    }

    /// `; did you mean 'x'?` or the empty string.
    public static func phrase<S: Sequence>(for word: String, in candidates: S) -> String where S.Element == String {
        closest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }
}

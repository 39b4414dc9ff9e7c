import CKSchemaSwift

/// The names a pass over every token looks for, found by the token's bytes: the pass asks
/// of each name token whether it is one of a few words, and making a `String` of every name
/// to switch over it was a fifth of a CloudKit-dense scan (Benchmarks/scan, `DENSE=1`).
/// `index(_:_:)` reads a name as `SwiftSource.name(_:)` does (a backtick name without its
/// backticks), so a pass that switches over `words[index]` sees the same names as before.
struct ScanNames {
    /// The words, in the order given.
    let words: [String]
    /// The words' indices by byte length, then first byte: `buckets[length << 8 | first]`, an
    /// array rather than a dictionary, since every identifier of a file is looked up (three
    /// passes of the scan each do, and hashing the key was most of them).
    private let buckets: [[(bytes: [UInt8], index: Int)]]
    /// The longest word's length: a longer token is no word.
    private let maxLength: Int

    init(_ words: [String]) {
        self.words = words
        let longest = words.map(\.utf8.count).max() ?? 0
        var b = [[(bytes: [UInt8], index: Int)]](repeating: [], count: (longest + 1) << 8)
        for (i, w) in words.enumerated() {
            let bytes = Array(w.utf8)
            b[bytes.count << 8 | Int(bytes.first ?? 0)].append((bytes, i))
        }
        buckets = b
        maxLength = longest
    }

    /// The index in `words` of name token `i`'s text, or nil (also for a token that is no name).
    func index(_ s: SwiftSource, _ i: Int) -> Int? {
        guard let bounds = s.nameBounds(i) else { return nil }
        let start = bounds.lowerBound
        let length = bounds.count
        guard length > 0, length <= maxLength else { return nil }
        let bucket = buckets[length << 8 | Int(s.bytes[start])]
        guard !bucket.isEmpty else { return nil }
        return s.bytes.withUnsafeBufferPointer { bytes in
            search: for entry in bucket {
                for k in 1..<max(length, 1) where entry.bytes[k] != bytes[start + k] { continue search }
                return entry.index
            }
            return nil
        }
    }
}

/// Words (keywords, modifiers) looked up by a token's bytes, with no `String` made.
///
/// The declaration reader asks of nearly every identifier whether it begins a declaration;
/// making a `String` of each and hashing it into a `Set` was a measured part of reading a
/// model file (Benchmarks/swift). Here a word is found by its length and first byte, then
/// compared byte for byte with the few words of that shape.
package struct SwiftWordTable<Value: Sendable>: Sendable {
    /// Words longer than this are never in a table (Swift's longest keyword, `precedencegroup`, has 15 bytes).
    static var maxLength: Int { 16 }
    private var buckets: [[(word: [UInt8], value: Value)]]

    package init(_ words: [(String, Value)]) {
        buckets = Array(repeating: [], count: (Self.maxLength + 1) * 256)
        for (word, value) in words {
            let bytes = Array(word.utf8)
            precondition(!bytes.isEmpty && bytes.count <= Self.maxLength, "a word table holds words of 1 to \(Self.maxLength) bytes")
            buckets[bytes.count << 8 | Int(bytes[0])].append((bytes, value))
        }
    }

    /// The value of the word spelt by `bytes[start..<end]`, or nil.
    @inline(__always)
    package func value(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Value? {
        let length = end - start
        guard length > 0, length <= Self.maxLength else { return nil }
        let bucket = buckets[length << 8 | Int(bytes[start])]
        guard !bucket.isEmpty else { return nil }
        search: for entry in bucket {
            var k = 1
            while k < length {
                if entry.word[k] != bytes[start + k] { continue search }
                k += 1
            }
            return entry.value
        }
        return nil
    }
}

extension SwiftSource {
    /// The value `table` gives token `index`'s text when it is an identifier (a backtick name
    /// never is a keyword), or nil.
    @inline(__always)
    package func word<Value>(_ index: Int, in table: SwiftWordTable<Value>) -> Value? {
        guard index >= 0, index < tokens.count else { return nil }
        let t = tokens[index]
        guard t.kind == .identifier else { return nil }
        return table.value(bytes, Int(t.start), Int(t.end))
    }
}

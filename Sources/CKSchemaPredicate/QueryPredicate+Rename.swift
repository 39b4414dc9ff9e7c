extension QueryPredicate {
    /// The predicate text with every key named `from` spelled `to`, the rest byte for byte; nil
    /// when the text does not lex (it is then left as written). A word after a `.` (a key path's
    /// member) or before `(` (a function) is not a key and is kept.
    package static func renamingKey(in text: String, from: String, to: String) -> String? {
        guard let tokens = try? PredicateLexer.tokens(text) else { return nil }
        var scalars = Array(text.unicodeScalars)
        var edits: [Int] = []
        for (i, t) in tokens.enumerated() where t.kind == .word && t.text == from {
            if i > 0, tokens[i - 1].kind == .dot { continue }
            if i + 1 < tokens.count, tokens[i + 1].kind == .open { continue }
            edits.append(t.column - 1)
        }
        guard !edits.isEmpty else { return text }
        let length = from.unicodeScalars.count
        for start in edits.reversed() {
            scalars.replaceSubrange(start..<(start + length), with: Array(to.unicodeScalars))
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }
}

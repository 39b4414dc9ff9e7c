import CKSchemaModel

/// One token of a predicate, with its 1-based column (in Unicode scalars).
struct PredicateToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case word, string, number, op, and, or, bang
        case open, close, brace, braceClose, comma, dot
        /// `%@`, `%K`
        case placeholderValue, placeholderKey
        /// `$name`
        case variable
        case end
    }

    var kind: Kind
    /// Words and operators as written; strings unescaped.
    var text: String
    var column: Int

    /// How the token is named in a message.
    var describe: String {
        switch kind {
        case .end: "the end of the predicate"
        case .string: "the string '\(ControlCharacters.escaped(text))'"
        default: "'\(text)'"
        }
    }
}

/// Splits a predicate into tokens in one pass.
enum PredicateLexer {
    static func tokens(_ text: String) throws(QueryPredicateError) -> [PredicateToken] {
        let s = Array(text.unicodeScalars)
        var out: [PredicateToken] = []
        var i = 0
        func isLetter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" }
        func isDigit(_ c: Unicode.Scalar) -> Bool { c >= "0" && c <= "9" }
        while i < s.count {
            let c = s[i]
            let col = i + 1
            switch c {
            case " ", "\t", "\n", "\r":
                i += 1
            case "(": out.append(.init(kind: .open, text: "(", column: col)); i += 1
            case ")": out.append(.init(kind: .close, text: ")", column: col)); i += 1
            case "{": out.append(.init(kind: .brace, text: "{", column: col)); i += 1
            case "}": out.append(.init(kind: .braceClose, text: "}", column: col)); i += 1
            case "[", "]":
                throw QueryPredicateError(PredicateRules.unsupported, column: col, "CloudKit does not support string options such as [c] or [cd], nor subscripts",
                                     fix: "compare exactly; for case-insensitive words use a searchable field and self CONTAINS")
            case ",": out.append(.init(kind: .comma, text: ",", column: col)); i += 1
            case ".": out.append(.init(kind: .dot, text: ".", column: col)); i += 1
            case "'", "\"":
                var value = ""
                var j = i + 1
                var closed = false
                while j < s.count {
                    let d = s[j]
                    if d == c { closed = true; break }
                    if d == "\\" {
                        guard j + 1 < s.count else { break }
                        let e = s[j + 1]
                        switch e {
                        case "n": value.unicodeScalars.append("\n")
                        case "t": value.unicodeScalars.append("\t")
                        case "r": value.unicodeScalars.append("\r")
                        case "0": value.unicodeScalars.append("\0")
                        default: value.unicodeScalars.append(e)
                        }
                        j += 2
                        continue
                    }
                    value.unicodeScalars.append(d)
                    j += 1
                }
                guard closed else {
                    throw QueryPredicateError(PredicateRules.syntax, column: col, "unbalanced quote: the string opened here is never closed",
                                         fix: "close it with \(c)")
                }
                out.append(.init(kind: .string, text: value, column: col))
                i = j + 1
            case "%":
                guard i + 1 < s.count, s[i + 1] == "@" || s[i + 1] == "K" else {
                    throw QueryPredicateError(PredicateRules.syntax, column: col, "'%' starts a placeholder: %@ for a value, %K for a field name")
                }
                out.append(.init(kind: s[i + 1] == "@" ? .placeholderValue : .placeholderKey, text: "%" + String(s[i + 1]), column: col))
                i += 2
            case "$":
                var j = i + 1
                while j < s.count, isLetter(s[j]) || isDigit(s[j]) { j += 1 }
                out.append(.init(kind: .variable, text: String(String.UnicodeScalarView(s[(i + 1)..<j])), column: col))
                i = max(j, i + 1)
            case "&", "|":
                guard i + 1 < s.count, s[i + 1] == c else {
                    throw QueryPredicateError(PredicateRules.syntax, column: col, "unknown operator '\(c)'", fix: c == "&" ? "write && or AND" : "CloudKit has no OR")
                }
                out.append(.init(kind: c == "&" ? .and : .or, text: "\(c)\(c)", column: col))
                i += 2
            case "=", "<", ">", "!":
                var op = String(c)
                var j = i + 1
                while j < s.count, "=<>!".unicodeScalars.contains(s[j]) { op.unicodeScalars.append(s[j]); j += 1 }
                if op == "!" {
                    out.append(.init(kind: .bang, text: "!", column: col))
                    i += 1
                    continue
                }
                let known: Set<String> = ["=", "==", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"]
                guard known.contains(op) else {
                    throw QueryPredicateError(PredicateRules.syntax, column: col, "unknown operator '\(op)'", fix: "use ==, !=, <, <=, > or >=")
                }
                out.append(.init(kind: .op, text: op, column: col))
                i += op.unicodeScalars.count
            default:
                if isDigit(c) || ((c == "-" || c == "+") && i + 1 < s.count && (isDigit(s[i + 1]) || s[i + 1] == ".")) || (c == "." && i + 1 < s.count && isDigit(s[i + 1])) {
                    var j = i + 1
                    while j < s.count, isDigit(s[j]) || s[j] == "." || s[j] == "e" || s[j] == "E"
                            || ((s[j] == "-" || s[j] == "+") && (s[j - 1] == "e" || s[j - 1] == "E")) { j += 1 }
                    let t = String(String.UnicodeScalarView(s[i..<j]))
                    guard Double(t) != nil else {
                        throw QueryPredicateError(PredicateRules.syntax, column: col, "'\(t)' is not a number")
                    }
                    out.append(.init(kind: .number, text: t, column: col))
                    i = j
                } else if isLetter(c) {
                    var j = i + 1
                    while j < s.count {
                        if isLetter(s[j]) || isDigit(s[j]) { j += 1; continue }
                        // distanceToLocation:fromLocation: is one word, colons included.
                        if s[j] == ":", j + 1 < s.count, isLetter(s[j + 1]) || s[j + 1] == "(" { j += 1; continue }
                        if s[j] == ":", j + 1 == s.count { j += 1; continue }
                        break
                    }
                    out.append(.init(kind: .word, text: String(String.UnicodeScalarView(s[i..<j])), column: col))
                    i = j
                } else {
                    let shown = c.value < 0x20 || c.value == 0x7F ? "U+" + String(c.value, radix: 16, uppercase: true) : String(c)
                    throw QueryPredicateError(PredicateRules.syntax, column: col, "unexpected character '\(shown)' in the predicate")
                }
            }
        }
        out.append(.init(kind: .end, text: "", column: s.count + 1))
        return out
    }
}

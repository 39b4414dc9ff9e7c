import Foundation
import CKSchemaDiagnostics
import CKSchemaModel

/// A lexed Swift file: its bytes, tokens, line table and problems, with the navigation a
/// reader needs (token text, names, balanced brackets, locations). The Swift readers
/// (`SwiftModelReader` here, the scanner of the app's CloudKit calls above) share it.
public struct SwiftSource: Sendable {
    /// The path diagnostics name.
    public let file: String
    public let bytes: [UInt8]
    /// Every token; the last is `.endOfFile`.
    public let tokens: [SwiftToken]
    public let lines: SwiftLineTable
    /// Lexical problems and unbalanced brackets, in file order. A file with any is not valid Swift.
    public let problems: [SwiftLexProblem]
    /// For each `(`, `[`, `{` its closing token's index, for each closing its opening's;
    /// -1 for one that does not balance.
    public let partner: [Int32]

    /// Lexes `data`; `file` names it in locations.
    public init(_ data: Data, file: String) {
        self.init(bytes: [UInt8](data), file: file)
    }

    public init(bytes: [UInt8], file: String) {
        self.file = file
        self.bytes = bytes
        let (tokens, lexProblems) = SwiftLexer.tokenize(bytes)
        self.tokens = tokens
        lines = SwiftLineTable(bytes)
        var problems = lexProblems
        partner = SwiftSource.balance(tokens, bytes, &problems)
        self.problems = problems.sorted { $0.offset < $1.offset }
    }

    /// Pairs brackets with a stack; a closing that does not match its opening is reported
    /// once and left unpaired, so one stray brace does not cascade.
    static func balance(_ tokens: [SwiftToken], _ bytes: [UInt8], _ problems: inout [SwiftLexProblem]) -> [Int32] {
        var partner = [Int32](repeating: -1, count: tokens.count)
        var stack: [Int] = []
        func closing(_ k: SwiftToken.Kind) -> SwiftToken.Kind {
            switch k { case .leftParen: .rightParen; case .leftBracket: .rightBracket; default: .rightBrace }
        }
        func spelling(_ k: SwiftToken.Kind) -> String {
            switch k {
            case .leftParen: "("; case .rightParen: ")"; case .leftBracket: "["; case .rightBracket: "]"
            case .leftBrace: "{"; default: "}"
            }
        }
        var reported = 0
        for (index, t) in tokens.enumerated() {
            if t.isOpening { stack.append(index); continue }
            guard t.isClosing else { continue }
            if let open = stack.last, closing(tokens[open].kind) == t.kind {
                stack.removeLast()
                partner[open] = Int32(index)
                partner[index] = Int32(open)
            } else if let k = stack.lastIndex(where: { closing(tokens[$0].kind) == t.kind }) {
                // Openings left unclosed inside: report the innermost, pair this one.
                let inner = stack[stack.count - 1]
                if reported < 100 { problems.append(SwiftLexProblem(.syntax, at: Int(tokens[inner].start), "'\(spelling(tokens[inner].kind))' is never closed", fix: "add the missing '\(spelling(closing(tokens[inner].kind)))'")); reported += 1 }
                let open = stack[k]
                stack.removeSubrange(k...)
                partner[open] = Int32(index)
                partner[index] = Int32(open)
            } else if reported < 100 {
                problems.append(SwiftLexProblem(.syntax, at: Int(t.start), "'\(spelling(t.kind))' closes nothing", fix: "remove it, or add the opening it belongs to"))
                reported += 1
            }
        }
        if let open = stack.last, reported < 100 {
            problems.append(SwiftLexProblem(.syntax, at: Int(tokens[open].start), "'\(spelling(tokens[open].kind))' is never closed", fix: "add the missing '\(spelling(closing(tokens[open].kind)))'"))
        }
        return partner
    }

    // MARK: Text

    /// The token's text.
    public func text(_ index: Int) -> String {
        let t = tokens[index]
        return String(decoding: bytes[t.range], as: UTF8.self)
    }

    /// Where name token `index`'s text is in `bytes` (`name(_:)`'s: a backtick name without
    /// its backticks, an unterminated one whole); nil when there is no such token or it is no
    /// name. The readers that compare names by their bytes all start here.
    @inlinable
    public func nameBounds(_ index: Int) -> Range<Int>? {
        guard index >= 0, index < tokens.count else { return nil }
        let t = tokens[index]
        let start = Int(t.start), end = Int(t.end)
        switch t.kind {
        case .identifier: return start..<end
        case .backtickIdentifier:
            return end - start >= 2 && !t.flags.contains(.unterminated) ? start + 1..<end - 1 : start..<end
        default: return nil
        }
    }

    /// A name's text: an identifier, or a backtick name without its backticks.
    public func name(_ index: Int) -> String {
        let t = tokens[index]
        if t.kind == .backtickIdentifier, t.end - t.start >= 2, !t.flags.contains(.unterminated) {
            return String(decoding: bytes[Int(t.start) + 1..<Int(t.end) - 1], as: UTF8.self)
        }
        return text(index)
    }

    /// True when token `index` is a name whose text (`name(_:)`'s: a backtick name without its
    /// backticks) is `word`: `isName(index) && name(index) == word` with no `String` made.
    @inlinable
    public func nameIs(_ index: Int, _ word: String) -> Bool {
        guard let bounds = nameBounds(index) else { return false }
        let start = bounds.lowerBound, end = bounds.upperBound
        let answer: Bool? = word.utf8.withContiguousStorageIfAvailable { w in
            // The bytes the two share from the start, then what follows them. Texts equal in
            // bytes are equal. An ASCII byte begins a scalar that decomposes to itself and
            // that no mark reorders across, so where one text goes on with an ASCII byte and
            // the other ends or goes on with another one, their canonical decompositions
            // differ there: the texts are not equal. Anything else is `String`'s to say.
            let a = end - start, b = w.count
            let shared = min(a, b)
            var k = 0
            while k < shared, bytes[start + k] == w[k] { k += 1 }
            if k == shared {
                if a == b { return true }
                return (a > b ? bytes[start + k] : w[k]) < 0x80 ? false : nil
            }
            return bytes[start + k] < 0x80 && w[k] < 0x80 ? false : nil
        } ?? nil
        return answer ?? nameIsCanonically(start, end, word)
    }

    /// `nameIs` when the bytes differ and one side is not ASCII (or the word's bytes are not
    /// contiguous): `String`'s `==` is canonical equivalence (a KELVIN SIGN is a `K`).
    @usableFromInline
    func nameIsCanonically(_ start: Int, _ end: Int, _ word: String) -> Bool {
        String(decoding: bytes[start..<end], as: UTF8.self) == word
    }

    /// True when token `index` is a name (identifier or backtick name).
    ///
    /// This and the other one-token tests below are `@inlinable`: the scan's readers (another
    /// module) ask them at nearly every token, and a call each was a measured part of a
    /// CloudKit-dense scan (Benchmarks/scan, `DENSE=1`).
    @inlinable
    public func isName(_ index: Int) -> Bool {
        index < tokens.count && (tokens[index].kind == .identifier || tokens[index].kind == .backtickIdentifier)
    }

    /// True when token `index` is an identifier, operator or `#` keyword spelt exactly `word`
    /// (a backtick name never is: `` `var` `` is a name, not the keyword).
    @inlinable
    public func `is`(_ index: Int, _ word: String) -> Bool {
        guard index >= 0, index < tokens.count else { return false }
        let t = tokens[index]
        guard t.kind == .identifier || t.kind == .operator || t.kind == .poundKeyword else { return false }
        let len = Int(t.end - t.start)
        guard len == word.utf8.count else { return false }
        var k = Int(t.start)
        for c in word.utf8 { if bytes[k] != c { return false }; k += 1 }
        return true
    }

    /// True when token `index` is the one-character operator `byte` (`=`, `-`): `is(index, "=")`
    /// without walking a `String` (it was 2% of a SwiftData import, Benchmarks/swift).
    @inlinable
    public func isOperator(_ index: Int, _ byte: UInt8) -> Bool {
        guard index >= 0, index < tokens.count else { return false }
        let t = tokens[index]
        return t.kind == .operator && t.end - t.start == 1 && bytes[Int(t.start)] == byte
    }

    /// True when token `index` is of `kind`.
    @inlinable
    public func `is`(_ index: Int, _ kind: SwiftToken.Kind) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == kind
    }

    /// The value of a string literal without interpolations (escapes `\"`, `\\`, `\n`, `\t`,
    /// `\0`, `\r`, `\'`, `\u{...}` resolved), or nil for any other token or an interpolated string.
    public func stringValue(_ index: Int) -> String? {
        let t = tokens[index]
        guard t.kind == .stringLiteral, !t.flags.contains(.interpolated), !t.flags.contains(.unterminated) else { return nil }
        var s = Int(t.start), e = Int(t.end)
        var hashes = 0
        while s < e, bytes[s] == UInt8(ascii: "#") { s += 1; e -= 1; hashes += 1 }
        let quotes = t.flags.contains(.multiline) ? 3 : 1
        s += quotes; e -= quotes
        guard s <= e else { return nil }
        if t.flags.contains(.multiline) {
            // The content starts after the opening line break; the closing line's indentation is stripped.
            if s < e, bytes[s] == 0x0A { s += 1 } else if s + 1 < e, bytes[s] == 0x0D, bytes[s + 1] == 0x0A { s += 2 }
            var k = e
            while k > s, bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09 { k -= 1 }
            let indent = e - k
            var lines = String(decoding: bytes[s..<k], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.prefix(indent).allSatisfy { $0 == " " || $0 == "\t" } ? String(line.dropFirst(indent)) : String(line)
            }
            if lines.last == "" { lines.removeLast() }
            return unescape(lines.joined(separator: "\n"), hashes: hashes)
        }
        // No backslash in the bytes: no escape to resolve (the `String`'s generic search for
        // one cost more than making it).
        guard bytes[s..<e].contains(UInt8(ascii: "\\")) else { return String(decoding: bytes[s..<e], as: UTF8.self) }
        return unescape(String(decoding: bytes[s..<e], as: UTF8.self), hashes: hashes)
    }

    private func unescape(_ raw: String, hashes: Int) -> String? {
        // Most literals hold no backslash: no escape to look for (Foundation's `contains` of a
        // String was most of reading `originalName:` values, Benchmarks/swift).
        guard raw.utf8.contains(UInt8(ascii: "\\")) else { return raw }
        let escape = "\\" + String(repeating: "#", count: hashes)
        guard raw.contains(escape) else { return raw }
        var out = ""
        var rest = Substring(raw)
        while let r = rest.range(of: escape) {
            out += rest[..<r.lowerBound]
            rest = rest[r.upperBound...]
            guard let c = rest.first else { return nil }
            rest = rest.dropFirst()
            switch c {
            case "n": out += "\n"
            case "t": out += "\t"
            case "r": out += "\r"
            case "0": out += "\0"
            case "\"", "'", "\\": out.append(c)
            case "u":
                guard rest.first == "{", let close = rest.firstIndex(of: "}"),
                      let v = UInt32(rest[rest.index(after: rest.startIndex)..<close], radix: 16), let u = Unicode.Scalar(v) else { return nil }
                out.unicodeScalars.append(u)
                rest = rest[rest.index(after: close)...]
            default: return nil
            }
        }
        return out + rest
    }

    // MARK: Navigation

    /// The index of the token that closes the bracket at `index` (or opens the one there),
    /// or nil when it does not balance.
    @inlinable
    public func matching(_ index: Int) -> Int? {
        guard index >= 0, index < partner.count, partner[index] >= 0 else { return nil }
        return Int(partner[index])
    }

    /// The index just past a bracketed group that starts at `index`; `index + 1` when the
    /// token there is not an opening; the end of file when it never closes.
    @inlinable
    public func skipGroup(_ index: Int) -> Int {
        guard index < tokens.count, tokens[index].isOpening else { return index + 1 }
        return matching(index).map { $0 + 1 } ?? tokens.count - 1
    }

    /// The index just past a generic argument clause `<...>` that starts at `index` (an
    /// operator token beginning with `<`), counting angle brackets inside operator tokens
    /// (`>>`, `>?`) and skipping bracketed groups; nil when `index` holds no `<` or the
    /// clause does not close before a `{`, `;` or the end of the file. Returns the index
    /// of the token holding the last `>` and how many of its characters were used.
    public func skipAngles(_ index: Int) -> (last: Int, used: Int)? {
        guard index < tokens.count, tokens[index].kind == .operator, bytes[Int(tokens[index].start)] == UInt8(ascii: "<") else { return nil }
        var depth = 0
        var k = index
        while k < tokens.count - 1 {
            let t = tokens[k]
            switch t.kind {
            case .operator:
                var offset = Int(t.start)
                let end = Int(t.end)
                while offset < end {
                    let c = bytes[offset]
                    if c == UInt8(ascii: "-"), offset + 1 < end, bytes[offset + 1] == UInt8(ascii: ">") { offset += 2; continue }
                    if c == UInt8(ascii: "<") { depth += 1 } else if c == UInt8(ascii: ">") {
                        depth -= 1
                        if depth == 0 { return (k, offset + 1 - Int(t.start)) }
                    } else if c != UInt8(ascii: "?") && c != UInt8(ascii: "!") && c != UInt8(ascii: "&") && c != UInt8(ascii: ".") {
                        return nil   // `a < b == c`: a comparison, not generic arguments
                    }
                    offset += 1
                }
                k += 1
            case .leftParen, .leftBracket: k = skipGroup(k)
            case .leftBrace, .semicolon, .rightParen, .rightBracket, .rightBrace, .endOfFile: return nil
            default: k += 1
            }
        }
        return nil
    }

    /// The 1-based line and column of byte `offset`.
    public func location(ofByte offset: Int) -> SourceLocation {
        let (line, column) = bytes.withUnsafeBufferPointer { lines.location(of: offset, in: $0) }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// Where token `index` begins.
    public func location(_ index: Int) -> SourceLocation { location(ofByte: Int(tokens[index].start)) }

    /// The origin of token `index`, for a model element declared there.
    public func origin(_ index: Int) -> Origin {
        // Built from the line and column: through a `SourceLocation` and `Origin.location`'s
        // setter it cost about 110 instructions more (once per property read).
        let (line, column) = bytes.withUnsafeBufferPointer { lines.location(of: Int(tokens[index].start), in: $0) }
        return Origin(file: file, line: line, column: column)
    }

    /// The problems as diagnostics: invalid UTF-8 as CK003, the rest as `rule`.
    public func diagnostics(rule: RuleInfo) -> [Diagnostic] {
        problems.map { p in
            switch p.kind {
            case .invalidUTF8:
                Diagnostic(rule: InputRules.notUTF8, "the file is not valid UTF-8 (at byte \(p.offset))", at: location(ofByte: p.offset), fix: "save the file as UTF-8")
            case .syntax:
                Diagnostic.error(rule, p.message, at: location(ofByte: p.offset), fix: p.fix)
            }
        }
    }
}

/// The Swift lexer: bytes in, tokens out, in one forward pass that never fails.
///
/// Modelled on swift-syntax's `Lexer` (Sources/SwiftParser/Lexer/Cursor.swift): every byte
/// becomes part of some token (its text or its leading trivia), an unterminated construct
/// is a token flagged `.unterminated` with a problem, and positions are byte offsets (turned
/// into line:column only by `SwiftLineTable`). It covers the whole lexical grammar of The
/// Swift Programming Language, “Lexical Structure”: nested `/* */` comments, `"..."`,
/// multi-line `"""`, raw `#"..."#` strings with any number of `#`, interpolations nested to
/// any depth (strings and comments inside them), regex literals (`/.../` where an expression
/// may begin, `#/.../#`), backtick names, `$0`, `#if` and other `#` keywords, numbers in
/// every base, operators (a postfix `?`/`!` split off as Swift does), and punctuation.
///
/// Linear in the file: each byte is looked at a bounded number of times; nesting of
/// interpolations and comments is counted, never recursed into.
public enum SwiftLexer {
    /// Interpolations nested deeper than this are an error (Swift has no limit; no real file
    /// comes near it, and the bound keeps a crafted file's stack small).
    public static let maxInterpolationDepth = 64

    /// Lexes `bytes`: the tokens (the last is `.endOfFile`) and the problems found.
    public static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>) -> (tokens: [SwiftToken], problems: [SwiftLexProblem]) {
        var cursor = Cursor(bytes)
        cursor.run()
        return (cursor.tokens, cursor.problems)
    }

    /// `tokenize` with the fast paths off (a plain string literal read by the general loop):
    /// the test holds the two to the same tokens and problems.
    static func tokenizeByGeneralPaths(_ bytes: [UInt8]) -> (tokens: [SwiftToken], problems: [SwiftLexProblem]) {
        bytes.withUnsafeBufferPointer { b in
            var cursor = Cursor(b)
            cursor.fastPaths = false
            cursor.run()
            return (cursor.tokens, cursor.problems)
        }
    }

    /// Lexes an array of bytes.
    public static func tokenize(_ bytes: [UInt8]) -> (tokens: [SwiftToken], problems: [SwiftLexProblem]) {
        bytes.withUnsafeBufferPointer { tokenize($0) }
    }

    /// Bytes that may continue an identifier (ASCII letters, digits, `_`; any byte of a
    /// multi-byte UTF-8 scalar, which Swift's identifier grammar admits almost wholly).
    @inline(__always) static func isIdentifierByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c >= 0x80
    }

    @inline(__always) static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c >= 0x80
    }

    /// Swift's ASCII operator characters: `/ = - + ! * % < > & | ^ ~ ?` (and `.` in a dot operator).
    @inline(__always) static func isOperatorByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "/"), UInt8(ascii: "="), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "!"),
             UInt8(ascii: "*"), UInt8(ascii: "%"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"),
             UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "~"), UInt8(ascii: "?"): true
        default: false
        }
    }
}

/// The lexer's state: a position in the bytes and the tokens so far.
struct Cursor {
    let b: UnsafeBufferPointer<UInt8>
    let n: Int
    var i = 0
    var tokens: [SwiftToken] = []
    var problems: [SwiftLexProblem] = []
    /// False for the test's run of the general paths only (`tokenizeByGeneralPaths`).
    var fastPaths = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        b = bytes
        n = bytes.count
        // A token every 4 bytes or fewer: CloudKit-dense code has one per 4.9 bytes
        // (Benchmarks/scan/generate_dense.py) and a model-dense file one per 4.2 (`var p12:
        // String?` is 5 tokens in 21 bytes); past the `n / 5` this was, the array was copied
        // once per file. Pages reserved and never written cost nothing.
        tokens.reserveCapacity(n / 4 + 16)
    }

    @inline(__always) func at(_ k: Int) -> UInt8 { k < n ? b[k] : 0 }

    mutating func problem(_ offset: Int, _ message: String, fix: String? = nil) {
        // A file of nothing but errors must not make an unbounded list.
        if problems.count < 1000 { problems.append(SwiftLexProblem(.syntax, at: offset, message, fix: fix)) }
    }

    mutating func run() {
        var triviaStart = 0
        skipInterpreterLine()
        while true {
            var flags = skipTrivia()
            if i > triviaStart { flags.insert(.spaceBefore) }
            let start = i
            guard i < n else {
                emit(.endOfFile, flags, triviaStart, start)
                return
            }
            let kind = lexToken(&flags)
            emit(kind, flags, triviaStart, start)
            triviaStart = i
        }
    }

    /// A script's first line `#!/usr/bin/swift` (or `#!/usr/bin/env swift`), which Swift
    /// accepts at the very start of a file, is trivia of the first token, as spaces would be:
    /// its `#` is no stray one (CK640), and every offset, line and column stays where it is.
    /// A `#!` anywhere else is still reported. Found on robbiet480/Dispatch's `scripts/*.swift`.
    ///
    /// Source: the Swift compiler's lexer (swiftlang/swift, lib/Parse/Lexer.cpp, `skipHashbang`):
    /// a `#!` line at the very start of a file is skipped, so a script run by `swift FILE` may
    /// begin with one; `swiftc -frontend -parse` accepts Dispatch's scripts.
    mutating func skipInterpreterLine() {
        guard n >= 2, b[0] == UInt8(ascii: "#"), b[1] == UInt8(ascii: "!") else { return }
        while i < n, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
    }

    @inline(__always) mutating func emit(_ kind: SwiftToken.Kind, _ flags: SwiftToken.Flags, _ triviaStart: Int, _ start: Int) {
        tokens.append(SwiftToken(kind: kind, flags: flags, triviaStart: Int32(truncatingIfNeeded: triviaStart),
                                 start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: i)))
    }

    /// Whitespace, line breaks and comments; says whether a line break or comment was among them.
    mutating func skipTrivia() -> SwiftToken.Flags {
        var flags: SwiftToken.Flags = []
        // The position kept in a local between comments (a stored `i` was written back at
        // every byte of the spaces that lead most lines).
        var k = i
        defer { i = k }
        while k < n {
            let c = b[k]
            switch c {
            case 0x20, 0x09, 0x0B, 0x0C, 0x00: k += 1
            case 0x0A, 0x0D: flags.insert(.newlineBefore); k += 1
            case UInt8(ascii: "/"):
                if at(k + 1) == UInt8(ascii: "/") {
                    flags.insert(.commentBefore)
                    while k < n, b[k] != 0x0A, b[k] != 0x0D { k += 1 }
                } else if at(k + 1) == UInt8(ascii: "*") {
                    flags.insert(.commentBefore)
                    i = k
                    if skipBlockComment() { flags.insert(.newlineBefore) }
                    k = i
                } else { return flags }
            default: return flags
            }
        }
        return flags
    }

    /// A `/* */` comment, nested ones counted; true when it spans lines.
    mutating func skipBlockComment() -> Bool {
        let start = i
        var depth = 0
        var newline = false
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: "/") && at(i + 1) == UInt8(ascii: "*") { depth += 1; i += 2; continue }
            if c == UInt8(ascii: "*") && at(i + 1) == UInt8(ascii: "/") {
                depth -= 1; i += 2
                if depth == 0 { return newline }
                continue
            }
            if c == 0x0A || c == 0x0D { newline = true }
            i += 1
        }
        problem(start, "unterminated '/*' comment", fix: "close the comment with '*/' (comments nest: each '/*' needs its own '*/')")
        return newline
    }

    /// The previous token ends an expression, so a `/` after it is division, not a regex.
    var previousEndsExpression: Bool {
        guard let last = tokens.last else { return false }
        switch last.kind {
        case .identifier:
            // After these keywords an expression begins.
            let words: [String] = ["return", "case", "if", "guard", "while", "in", "where", "throw", "try", "await", "else", "is", "as", "switch", "repeat", "some", "any"]
            let text = String(decoding: UnsafeBufferPointer(rebasing: b[Int(last.start)..<Int(last.end)]), as: UTF8.self)
            return !words.contains(text)
        case .backtickIdentifier, .dollarIdentifier, .integerLiteral, .floatLiteral, .stringLiteral, .regexLiteral,
             .rightParen, .rightBracket, .rightBrace: return true
        case .operator:
            // A postfix `?` / `!` ends an expression.
            return last.end - last.start == 1 && (b[Int(last.start)] == UInt8(ascii: "?") || b[Int(last.start)] == UInt8(ascii: "!")) && !last.flags.contains(.spaceBefore)
        default: return false
        }
    }

    mutating func lexToken(_ flags: inout SwiftToken.Flags) -> SwiftToken.Kind {
        let c = b[i]
        switch c {
        case UInt8(ascii: "("): i += 1; return .leftParen
        case UInt8(ascii: ")"): i += 1; return .rightParen
        case UInt8(ascii: "{"): i += 1; return .leftBrace
        case UInt8(ascii: "}"): i += 1; return .rightBrace
        case UInt8(ascii: "["): i += 1; return .leftBracket
        case UInt8(ascii: "]"): i += 1; return .rightBracket
        case UInt8(ascii: ","): i += 1; return .comma
        case UInt8(ascii: ":"): i += 1; return .colon
        case UInt8(ascii: ";"): i += 1; return .semicolon
        case UInt8(ascii: "@"): i += 1; return .at
        case UInt8(ascii: "\\"): i += 1; return .backslash
        case UInt8(ascii: "\""): return lexString(hashes: 0, &flags)
        case UInt8(ascii: "`"): return lexBacktick(&flags)
        case UInt8(ascii: "$"):
            i += 1
            while i < n, SwiftLexer.isIdentifierByte(b[i]) { i += 1 }
            return .dollarIdentifier
        case UInt8(ascii: "#"): return lexPound(&flags)
        case UInt8(ascii: "."):
            if at(i + 1) == UInt8(ascii: ".") {
                // A dot operator: `...`, `..<`.
                i += 1
                while i < n, b[i] == UInt8(ascii: ".") || SwiftLexer.isOperatorByte(b[i]) { i += 1 }
                return .operator
            }
            i += 1
            return .period
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return lexNumber()
        default:
            if SwiftLexer.isIdentifierStart(c) { return lexIdentifier() }
            if SwiftLexer.isOperatorByte(c) { return lexOperator(flags) }
            let start = i
            i += 1
            problem(start, c < 0x20 || c == 0x7F ? "a control character (byte \(c)) where Swift expects a token" : "'\(Character(Unicode.Scalar(c)))' does not begin a Swift token")
            return .unknown
        }
    }

    mutating func lexIdentifier() -> SwiftToken.Kind {
        let start = i
        // The ASCII run in a local first (most names are all ASCII); a multi-byte scalar
        // continues in the loop below, as before.
        var k = i
        while k < n {
            let c = b[k]
            guard (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F else { break }
            k += 1
        }
        i = k
        while i < n, SwiftLexer.isIdentifierByte(b[i]) {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            // A multi-byte scalar: check it is well formed, so that invalid UTF-8 is reported
            // where it is and never hides inside a name.
            guard let len = utf8Length(at: i) else {
                if i == start { i += 1; problems.append(SwiftLexProblem(.invalidUTF8, at: start, "invalid UTF-8 at byte \(start)")); return .unknown }
                return .identifier
            }
            i += len
        }
        return .identifier
    }

    /// The length of a well-formed UTF-8 scalar at `k`, or nil.
    func utf8Length(at k: Int) -> Int? {
        let c = b[k]
        let need: Int, min: UInt32
        var cp: UInt32
        switch c {
        case 0xC2...0xDF: need = 1; min = 0x80; cp = UInt32(c & 0x1F)
        case 0xE0...0xEF: need = 2; min = 0x800; cp = UInt32(c & 0x0F)
        case 0xF0...0xF4: need = 3; min = 0x10000; cp = UInt32(c & 0x07)
        default: return nil
        }
        guard k + need < n else { return nil }
        for j in 1...need {
            let d = b[k + j]
            guard d & 0xC0 == 0x80 else { return nil }
            cp = cp << 6 | UInt32(d & 0x3F)
        }
        if cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) { return nil }
        return need + 1
    }

    mutating func lexNumber() -> SwiftToken.Kind {
        let start = i
        var isFloat = false
        if b[i] == UInt8(ascii: "0"), at(i + 1) == UInt8(ascii: "x") || at(i + 1) == UInt8(ascii: "o") || at(i + 1) == UInt8(ascii: "b") {
            let hex = at(i + 1) == UInt8(ascii: "x")
            i += 2
            while i < n, isHexOrUnderscore(b[i]) { i += 1 }
            if hex {
                if at(i) == UInt8(ascii: "."), isHexOrUnderscore(at(i + 1)) {
                    isFloat = true; i += 1
                    while i < n, isHexOrUnderscore(b[i]) { i += 1 }
                }
                if at(i) == UInt8(ascii: "p") || at(i) == UInt8(ascii: "P") { isFloat = true; lexExponent() }
            }
        } else {
            while i < n, isDigitOrUnderscore(b[i]) { i += 1 }
            // `1.5` is a float; `1.description` and `1..<5` are not.
            if at(i) == UInt8(ascii: "."), at(i + 1) >= UInt8(ascii: "0"), at(i + 1) <= UInt8(ascii: "9") {
                isFloat = true; i += 1
                while i < n, isDigitOrUnderscore(b[i]) { i += 1 }
            }
            if at(i) == UInt8(ascii: "e") || at(i) == UInt8(ascii: "E") { isFloat = true; lexExponent() }
        }
        // Letters straight after a number (`1abc`) are Swift's error too; keep them in the token.
        if i < n, SwiftLexer.isIdentifierStart(b[i]), b[i] < 0x80 {
            while i < n, SwiftLexer.isIdentifierByte(b[i]), b[i] < 0x80 { i += 1 }
            problem(start, "'\(text(start, i))' is not a valid number literal")
        }
        return isFloat ? .floatLiteral : .integerLiteral
    }

    mutating func lexExponent() {
        i += 1
        if at(i) == UInt8(ascii: "+") || at(i) == UInt8(ascii: "-") { i += 1 }
        while i < n, isDigitOrUnderscore(b[i]) { i += 1 }
    }

    @inline(__always) func isDigitOrUnderscore(_ c: UInt8) -> Bool { (c >= 0x30 && c <= 0x39) || c == 0x5F }
    @inline(__always) func isHexOrUnderscore(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || c == 0x5F || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46)
    }

    func text(_ s: Int, _ e: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[s..<min(e, s + 80)]), as: UTF8.self)
    }

    mutating func lexOperator(_ flags: SwiftToken.Flags) -> SwiftToken.Kind {
        let c = b[i]
        let leftBound = !flags.contains(.spaceBefore) && previousCanBind
        // A postfix `?` or `!` is its own token (`String?`, `a?.b`, `x!`), as Swift lexes it.
        if leftBound && (c == UInt8(ascii: "?") || c == UInt8(ascii: "!")) { i += 1; return .operator }
        if c == UInt8(ascii: "/"), !previousEndsExpression || (flags.contains(.spaceBefore) && at(i + 1) != 0x20 && at(i + 1) != 0x3D), lexBareRegex() {
            return .regexLiteral
        }
        while i < n, SwiftLexer.isOperatorByte(b[i]) {
            // `//` and `/*` inside an operator begin a comment, which ends the operator.
            if b[i] == UInt8(ascii: "/"), at(i + 1) == UInt8(ascii: "/") || at(i + 1) == UInt8(ascii: "*") { break }
            i += 1
        }
        return .operator
    }

    /// The previous token can take a postfix operator (a name, literal, closing bracket, `?`).
    var previousCanBind: Bool {
        guard let last = tokens.last else { return false }
        switch last.kind {
        case .identifier, .backtickIdentifier, .dollarIdentifier, .integerLiteral, .floatLiteral, .stringLiteral,
             .regexLiteral, .rightParen, .rightBracket, .rightBrace: return true
        case .operator:
            let k = Int(last.start)
            return last.end - last.start == 1 && (b[k] == UInt8(ascii: "?") || b[k] == UInt8(ascii: "!") || b[k] == UInt8(ascii: ">"))
        default: return false
        }
    }

    /// `/.../` on one line: Swift's rule (SE-0354) is that the literal may not begin or end
    /// with a space and may not span lines; a `/` that does not close on its line is an operator.
    mutating func lexBareRegex() -> Bool {
        let first = at(i + 1)
        if first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D || first == 0 { return false }
        var k = i + 1
        var inClass = 0
        while k < n {
            let c = b[k]
            if c == 0x0A || c == 0x0D { return false }
            if c == UInt8(ascii: "\\") { k += 2; continue }
            if c == UInt8(ascii: "[") { inClass += 1 } else if c == UInt8(ascii: "]"), inClass > 0 { inClass -= 1 }
            else if c == UInt8(ascii: "/"), inClass == 0 {
                if b[k - 1] == 0x20 || b[k - 1] == 0x09 { return false }
                i = k + 1
                return true
            }
            k += 1
        }
        return false
    }

    mutating func lexBacktick(_ flags: inout SwiftToken.Flags) -> SwiftToken.Kind {
        let start = i
        i += 1
        while i < n, b[i] != UInt8(ascii: "`"), b[i] != 0x0A, b[i] != 0x0D { i += 1 }
        if i < n, b[i] == UInt8(ascii: "`") { i += 1; return .backtickIdentifier }
        flags.insert(.unterminated)
        problem(start, "unterminated '`' name", fix: "close the name with '`' on the same line")
        return .backtickIdentifier
    }

    /// `#if`, `#Unique`, raw strings `#"..."#`, extended regexes `#/.../#`, or a stray `#`.
    mutating func lexPound(_ flags: inout SwiftToken.Flags) -> SwiftToken.Kind {
        let start = i
        var hashes = 0
        while at(i + hashes) == UInt8(ascii: "#") { hashes += 1 }
        let next = at(i + hashes)
        if next == UInt8(ascii: "\"") {
            i += hashes
            flags.insert(.raw)
            return lexString(hashes: hashes, &flags, start: start)
        }
        if next == UInt8(ascii: "/") {
            i += hashes
            flags.insert(.raw)
            return lexExtendedRegex(hashes: hashes, &flags, start: start)
        }
        if hashes == 1, SwiftLexer.isIdentifierStart(next) {
            i += 1
            _ = lexIdentifier()
            return .poundKeyword
        }
        i += 1
        problem(start, "'#' must begin a '#' keyword (#if, #Index), a raw string (#\"...\"#) or a regex (#/.../#)")
        return .unknown
    }

    /// `#/.../#` with `hashes` `#`; multi-line when a line break follows the opening.
    mutating func lexExtendedRegex(hashes: Int, _ flags: inout SwiftToken.Flags, start: Int) -> SwiftToken.Kind {
        i += 1
        let multiline = at(i) == 0x0A || at(i) == 0x0D
        if multiline { flags.insert(.multiline) }
        while i < n {
            let c = b[i]
            if c == UInt8(ascii: "\\") { i += 2; continue }
            if c == UInt8(ascii: "/"), closes(at: i + 1, hashes: hashes) { i += 1 + hashes; return .regexLiteral }
            if !multiline && (c == 0x0A || c == 0x0D) { break }
            i += 1
        }
        i = min(i, n)
        flags.insert(.unterminated)
        problem(start, "unterminated regex literal", fix: "close it with '/" + String(repeating: "#", count: hashes) + "'")
        return .regexLiteral
    }

    /// `hashes` `#` characters start at `k`.
    @inline(__always) func closes(at k: Int, hashes: Int) -> Bool {
        guard k + hashes <= n else { return false }
        var j = 0
        while j < hashes { if b[k + j] != UInt8(ascii: "#") { return false }; j += 1 }
        return true
    }

    /// One frame of a string being lexed: the string itself or an interpolation in it.
    enum Frame {
        case string(hashes: Int, multiline: Bool)
        case interpolation(parens: Int)
    }

    /// A string literal from its opening `"` (after any `#`), with every interpolation and
    /// the strings nested in them, to its closing quote. One token; no recursion.
    mutating func lexString(hashes: Int, _ flags: inout SwiftToken.Flags, start: Int? = nil) -> SwiftToken.Kind {
        // A plain one-line string (`"Entry"`: no `#`, no escape, no interpolation, ASCII) read
        // straight to its closing quote, with no stack of frames made; any other byte before
        // the quote leaves it to the general loop below, from the opening quote.
        if fastPaths, hashes == 0, start == nil, at(i + 1) != UInt8(ascii: "\"") || at(i + 2) != UInt8(ascii: "\"") {
            var k = i + 1
            while k < n {
                let c = b[k]
                if c == UInt8(ascii: "\"") { i = k + 1; return .stringLiteral }
                if c == UInt8(ascii: "\\") || c == 0x0A || c == 0x0D || c >= 0x80 { break }
                k += 1
            }
        }
        let start = start ?? i
        var stack: [Frame] = []
        func open(_ h: Int, _ cursor: inout Cursor) -> Frame {
            if cursor.at(cursor.i + 1) == UInt8(ascii: "\""), cursor.at(cursor.i + 2) == UInt8(ascii: "\"") {
                cursor.i += 3
                return .string(hashes: h, multiline: true)
            }
            cursor.i += 1
            return .string(hashes: h, multiline: false)
        }
        let first = open(hashes, &self)
        if case .string(_, true) = first { flags.insert(.multiline) }
        stack.append(first)
        /// Whether the innermost string is single-line (a line break ends it).
        var singleLine: Bool {
            for f in stack.reversed() { if case .string(_, let m) = f { return !m } }
            return false
        }
        while i < n, let top = stack.last {
            let c = b[i]
            switch top {
            case let .string(h, multiline):
                if c == UInt8(ascii: "\"") {
                    if multiline {
                        if at(i + 1) == UInt8(ascii: "\""), at(i + 2) == UInt8(ascii: "\""), closes(at: i + 3, hashes: h) {
                            i += 3 + h; stack.removeLast(); continue
                        }
                    } else if closes(at: i + 1, hashes: h) {
                        i += 1 + h; stack.removeLast(); continue
                    }
                    i += 1
                } else if c == UInt8(ascii: "\\"), closes(at: i + 1, hashes: h) {
                    i += 1 + h
                    if at(i) == UInt8(ascii: "(") {
                        guard stack.count < SwiftLexer.maxInterpolationDepth else {
                            problem(i, "string interpolations nested more than \(SwiftLexer.maxInterpolationDepth) deep")
                            return endUnterminated(&flags, start, report: false)
                        }
                        flags.insert(.interpolated)
                        stack.append(.interpolation(parens: 0))
                        i += 1
                    } else if i < n, b[i] != 0x0A, b[i] != 0x0D || multiline {
                        i += 1   // the escaped character (or, in a multi-line string, the line break)
                    }
                } else if c == 0x0A || c == 0x0D {
                    if !multiline { return endUnterminated(&flags, start, hashes: hashes) }
                    i += 1
                } else if c >= 0x80 {
                    skipScalar()
                } else { i += 1 }
            case let .interpolation(parens):
                switch c {
                case UInt8(ascii: "("): stack[stack.count - 1] = .interpolation(parens: parens + 1); i += 1
                case UInt8(ascii: ")"):
                    if parens == 0 { stack.removeLast() } else { stack[stack.count - 1] = .interpolation(parens: parens - 1) }
                    i += 1
                case UInt8(ascii: "\""), UInt8(ascii: "#"):
                    var h = 0
                    while at(i + h) == UInt8(ascii: "#") { h += 1 }
                    if at(i + h) == UInt8(ascii: "\"") {
                        guard stack.count < SwiftLexer.maxInterpolationDepth else {
                            problem(i, "string interpolations nested more than \(SwiftLexer.maxInterpolationDepth) deep")
                            return endUnterminated(&flags, start, report: false)
                        }
                        i += h
                        stack.append(open(h, &self))
                    } else { i += max(h, 1) }
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "*"):
                    _ = skipBlockComment()
                case UInt8(ascii: "/") where at(i + 1) == UInt8(ascii: "/"):
                    while i < n, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
                case 0x0A, 0x0D:
                    if singleLine { return endUnterminated(&flags, start, hashes: hashes) }
                    i += 1
                case 0x80...0xFF: skipScalar()
                default: i += 1
                }
            }
        }
        if stack.isEmpty { return .stringLiteral }
        return endUnterminated(&flags, start, hashes: hashes, multiline: flags.contains(.multiline))
    }

    /// Past one multi-byte scalar inside a string literal; a byte that begins no well-formed
    /// UTF-8 scalar is an invalid-UTF-8 problem at that byte, as swiftc refuses it (and as an
    /// identifier's is), never read as U+FFFD.
    mutating func skipScalar() {
        guard let len = utf8Length(at: i) else {
            if problems.count < 1000 { problems.append(SwiftLexProblem(.invalidUTF8, at: i, "invalid UTF-8 at byte \(i)")) }
            i += 1
            return
        }
        i += len
    }

    /// An unterminated string: the fix names the closing the literal needs, `"`, `"""` or,
    /// for a raw string opened with `hashes` `#`, `"#` (`"##`, ...).
    mutating func endUnterminated(_ flags: inout SwiftToken.Flags, _ start: Int, report: Bool = true, hashes: Int = 0, multiline: Bool = false) -> SwiftToken.Kind {
        flags.insert(.unterminated)
        if report {
            let pounds = String(repeating: "#", count: hashes)
            if hashes > 0 {
                let close = (multiline ? "\"\"\"" : "\"") + pounds
                problem(start, "unterminated raw string literal", fix: "close the raw string with '\(close)' (as many '#' as it opens with)" + (multiline ? ", on its own line" : ""))
            } else if multiline {
                problem(start, "unterminated multi-line string literal", fix: "close the string with '\"\"\"' on its own line")
            } else {
                problem(start, "unterminated string literal", fix: "close the string with '\"' (a multi-line string with '\"\"\"' on its own line)")
            }
        }
        // The rest of the line stays in the token, so that the next line lexes normally.
        while i < n, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
        return .stringLiteral
    }
}

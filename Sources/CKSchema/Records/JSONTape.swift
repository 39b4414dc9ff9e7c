/// One token of a parsed JSON value: a flat, allocation-free record of where each value is.
///
/// Containers store the index just past their subtree in `end`, so a reader skips a
/// whole value in O(1). Strings store the bytes between their quotes.
struct JSONToken {
    enum Kind: UInt8 { case object, array, string, number, trueValue, falseValue, null }
    var kind: Kind
    /// Strings: has a backslash escape. Numbers: see `isInteger` / `outOfInt64`.
    var flags: UInt8
    /// Byte offset of the first byte (after the opening quote for strings).
    var start: Int32
    /// Strings: offset of the closing quote; numbers and literals: offset past the end;
    /// containers: index of the token after the whole subtree.
    var end: Int32
    /// Containers: number of elements (arrays) or pairs (objects).
    var count: Int32

    static let escaped: UInt8 = 1
    static let integer: UInt8 = 2
    static let overflow: UInt8 = 4
    static let negative: UInt8 = 8
}

/// A JSON syntax error: what and where (byte offset into the parsed bytes).
struct JSONSyntaxError: Error {
    var offset: Int
    var message: String
}

/// A reusable JSON tokenizer over raw bytes. It validates the whole grammar (RFC 8259),
/// UTF-8 inside strings, escapes, and depth, and records a flat token tape. The tape's
/// storage is kept between records, so steady-state parsing allocates nothing.
struct JSONTape {
    /// Deeper nesting is refused: a record needs at most 6 levels.
    static let maxDepth = 64

    var tokens: [JSONToken] = []
    private var stack: [Int32] = []

    init() {
        tokens.reserveCapacity(256)
        stack.reserveCapacity(Self.maxDepth)
    }

    /// Parses exactly one JSON value from `p[0..<n]` (whitespace allowed around it).
    /// Returns nil on success.
    mutating func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> JSONSyntaxError? {
        tokens.removeAll(keepingCapacity: true)
        stack.removeAll(keepingCapacity: true)
        var i = 0
        @inline(__always) func skipWS(_ i: inout Int) {
            while i < n {
                let c = p[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }
        skipWS(&i)
        if i >= n { return JSONSyntaxError(offset: i, message: "empty record") }
        var wantValue = true
        while true {
            if wantValue {
                guard i < n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
                let c = p[i]
                switch c {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if stack.count >= Self.maxDepth {
                        return JSONSyntaxError(offset: i, message: "nesting deeper than \(Self.maxDepth) levels")
                    }
                    let isObject = c == UInt8(ascii: "{")
                    bump()
                    stack.append(Int32(tokens.count))
                    tokens.append(JSONToken(kind: isObject ? .object : .array, flags: 0, start: Int32(i), end: 0, count: 0))
                    i += 1
                    skipWS(&i)
                    guard i < n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
                    if p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        i += 1
                        close()
                        wantValue = false
                        continue
                    }
                    if isObject {
                        if let e = parseKey(p, n, &i) { return e }
                        skipWS(&i)
                    }
                    continue
                case UInt8(ascii: "\""):
                    bump()
                    if let e = parseString(p, n, &i) { return e }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    bump()
                    if let e = parseNumber(p, n, &i) { return e }
                case UInt8(ascii: "t"):
                    bump()
                    if let e = literal(p, n, &i, "true", .trueValue) { return e }
                case UInt8(ascii: "f"):
                    bump()
                    if let e = literal(p, n, &i, "false", .falseValue) { return e }
                case UInt8(ascii: "n"):
                    bump()
                    if let e = literal(p, n, &i, "null", .null) { return e }
                case UInt8(ascii: "N"), UInt8(ascii: "I"):
                    return JSONSyntaxError(offset: i, message: "NaN and Infinity are not JSON numbers; CloudKit cannot store them")
                default:
                    return JSONSyntaxError(offset: i, message: "unexpected \(describe(c)) where a value belongs")
                }
                wantValue = false
            }
            // After a value.
            guard let top = stack.last else {
                skipWS(&i)
                if i < n { return JSONSyntaxError(offset: i, message: "unexpected \(describe(p[i])) after the record") }
                return nil
            }
            skipWS(&i)
            guard i < n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
            let c = p[i]
            let isObject = tokens[Int(top)].kind == .object
            if c == UInt8(ascii: ",") {
                i += 1
                skipWS(&i)
                if isObject {
                    if let e = parseKey(p, n, &i) { return e }
                    skipWS(&i)
                }
                wantValue = true
            } else if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                i += 1
                close()
            } else {
                return JSONSyntaxError(offset: i, message: "expected ',' or '\(isObject ? "}" : "]")' but found \(describe(c))")
            }
        }
    }

    /// Counts one more element in the enclosing array (object pairs are counted at their key).
    @inline(__always) private mutating func bump() {
        if let top = stack.last, tokens[Int(top)].kind == .array { tokens[Int(top)].count += 1 }
    }

    @inline(__always) private mutating func close() {
        let top = Int(stack.removeLast())
        tokens[top].end = Int32(tokens.count)
    }

    /// Parses `"key"` and the `:` after it; the key becomes a string token.
    private mutating func parseKey(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> JSONSyntaxError? {
        guard i < n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
        guard p[i] == UInt8(ascii: "\"") else {
            return JSONSyntaxError(offset: i, message: "expected a quoted key but found \(describe(p[i]))")
        }
        tokens[Int(stack[stack.count - 1])].count += 1
        if let e = parseString(p, n, &i) { return e }
        while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
        guard i < n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
        guard p[i] == UInt8(ascii: ":") else { return JSONSyntaxError(offset: i, message: "expected ':' after the key but found \(describe(p[i]))") }
        i += 1
        return nil
    }

    private mutating func parseString(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> JSONSyntaxError? {
        let open = i
        i += 1
        let start = i
        var flags: UInt8 = 0
        while true {
            guard i < n else { return JSONSyntaxError(offset: open, message: "unterminated string; the record is truncated") }
            let c = p[i]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                flags = JSONToken.escaped
                guard i + 1 < n else { return JSONSyntaxError(offset: i, message: "unterminated string; the record is truncated") }
                let e = p[i + 1]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                case UInt8(ascii: "u"):
                    guard i + 5 < n else { return JSONSyntaxError(offset: i, message: "truncated \\u escape") }
                    for k in 2...5 where JSONTape.hexValue(p[i + k]) < 0 {
                        return JSONSyntaxError(offset: i, message: "invalid \\u escape")
                    }
                    i += 6
                default:
                    return JSONSyntaxError(offset: i, message: "invalid escape '\\\(Character(Unicode.Scalar(e < 0x80 ? e : 0x3F)))'")
                }
                continue
            }
            if c < 0x20 { return JSONSyntaxError(offset: i, message: "control character 0x\(String(c, radix: 16)) inside a string; escape it") }
            if c >= 0x80 {
                let len = JSONTape.utf8SequenceLength(p + i, n - i)
                if len == 0 { return JSONSyntaxError(offset: i, message: "invalid UTF-8 (byte 0x\(String(c, radix: 16, uppercase: true)))") }
                i += len
                continue
            }
            i += 1
        }
        tokens.append(JSONToken(kind: .string, flags: flags, start: Int32(start), end: Int32(i), count: 0))
        i += 1
        return nil
    }

    private mutating func parseNumber(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> JSONSyntaxError? {
        let start = i
        var flags = JSONToken.integer
        if p[i] == UInt8(ascii: "-") {
            flags |= JSONToken.negative
            i += 1
            if i < n, p[i] == UInt8(ascii: "I") {
                return JSONSyntaxError(offset: start, message: "NaN and Infinity are not JSON numbers; CloudKit cannot store them")
            }
        }
        let digitsStart = i
        guard i < n, p[i] >= 0x30, p[i] <= 0x39 else { return JSONSyntaxError(offset: i, message: "a number needs a digit here") }
        if p[i] == 0x30 {
            i += 1
            if i < n, p[i] >= 0x30, p[i] <= 0x39 { return JSONSyntaxError(offset: start, message: "numbers cannot have leading zeros") }
        } else {
            while i < n, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        let intDigits = i - digitsStart
        if i < n, p[i] == UInt8(ascii: ".") {
            flags &= ~JSONToken.integer
            i += 1
            guard i < n, p[i] >= 0x30, p[i] <= 0x39 else { return JSONSyntaxError(offset: i, message: "a number needs a digit after '.'") }
            while i < n, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        if i < n, p[i] == UInt8(ascii: "e") || p[i] == UInt8(ascii: "E") {
            flags &= ~JSONToken.integer
            i += 1
            if i < n, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, p[i] >= 0x30, p[i] <= 0x39 else { return JSONSyntaxError(offset: i, message: "a number needs a digit in its exponent") }
            while i < n, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        if flags & JSONToken.integer != 0, intDigits >= 19 {
            if JSONTape.int64Value(p + start, i - start) == nil { flags |= JSONToken.overflow }
        }
        tokens.append(JSONToken(kind: .number, flags: flags, start: Int32(start), end: Int32(i), count: 0))
        return nil
    }

    private mutating func literal(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, _ word: StaticString, _ kind: JSONToken.Kind) -> JSONSyntaxError? {
        let w = word.utf8Start
        let len = word.utf8CodeUnitCount
        guard i + len <= n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
        for k in 0..<len where p[i + k] != w[k] {
            return JSONSyntaxError(offset: i, message: "invalid literal; expected '\(word)'")
        }
        tokens.append(JSONToken(kind: kind, flags: 0, start: Int32(i), end: Int32(i + len), count: 0))
        i += len
        return nil
    }

    private func describe(_ c: UInt8) -> String {
        if c >= 0x21, c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte 0x\(String(c, radix: 16, uppercase: true))"
    }

    // MARK: - Byte helpers shared by the checker

    @inline(__always) static func hexValue(_ c: UInt8) -> Int {
        switch c {
        case 0x30...0x39: Int(c) - 0x30
        case 0x41...0x46: Int(c) - 0x41 + 10
        case 0x61...0x66: Int(c) - 0x61 + 10
        default: -1
        }
    }

    /// The length of the valid UTF-8 sequence at `p` (which starts with a byte >= 0x80), or 0.
    static func utf8SequenceLength(_ p: UnsafePointer<UInt8>, _ avail: Int) -> Int {
        let c = p[0]
        var need = 0
        var minValue: UInt32 = 0
        var v: UInt32 = 0
        if c & 0xE0 == 0xC0 { need = 1; minValue = 0x80; v = UInt32(c & 0x1F) }
        else if c & 0xF0 == 0xE0 { need = 2; minValue = 0x800; v = UInt32(c & 0x0F) }
        else if c & 0xF8 == 0xF0 { need = 3; minValue = 0x10000; v = UInt32(c & 0x07) }
        else { return 0 }
        guard avail > need else { return 0 }
        for k in 1...need {
            let b = p[k]
            guard b & 0xC0 == 0x80 else { return 0 }
            v = (v << 6) | UInt32(b & 0x3F)
        }
        if v < minValue || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) { return 0 }
        return need + 1
    }

    /// Parses a JSON integer's text as Int64; nil when it does not fit.
    static func int64Value(_ p: UnsafePointer<UInt8>, _ n: Int) -> Int64? {
        var i = 0
        var negative = false
        if n > 0, p[0] == UInt8(ascii: "-") { negative = true; i = 1 }
        var v: Int64 = 0
        while i < n {
            let d = Int64(p[i] &- 0x30)
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            if o1 { return nil }
            let (s, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            if o2 { return nil }
            v = s
            i += 1
        }
        return v
    }
}

import CKSchemaModel

/// The tokenizer's fast path: the common line (no escape, nothing malformed) read without
/// a bounds check, an error message or a grown tape. It reads a copy of the line followed by
/// `padding` zero bytes, so every scan stops at the line's end by itself: a NUL is no JSON
/// outside a string and a control byte inside one, and an eight-byte load that starts at or
/// before the end stays inside the copy. Whatever it does not expect (an escape, a syntax
/// error, a NUL, nesting at the limit, a tape about to grow) makes it give up, and
/// `parseGeneral` reads the line again from the start: the errors, their messages and their
/// places come from the general path only. Where it does not give up it leaves the tape
/// the general path leaves, token for token (`JSONTapeFastPathTests`, Fuzz/FuzzRecords).
extension JSONTape {
    /// Longer lines are read by the general path alone (the copy stays small; a record
    /// that long is over CloudKit's 1 MB anyway).
    static let fastLimit = 1 << 20
    /// Zero bytes after the copy: at least the widest load (eight bytes) past the end.
    static let padding = 16

    enum FastParse {
        /// The fast path gave up; nothing it wrote is kept.
        case fallback
        /// The tape is complete. `needsMeaning`: `meaningError` must look at it (keys whose
        /// hashes met, or an object of more keys than are hashed).
        case parsed(needsMeaning: Bool)
    }

    private static let quote = UInt8(ascii: "\"")

    /// What differs between `parse` (the fast path, falling back as `validate` reads a line) on
    /// `fast` and `parseGeneral` on `general` for `p[0..<n]`: the error (offset and message),
    /// or the first token that is not the same; nil when nothing does. The differential test
    /// (`JSONTapeFastPathTests`) and the fuzz target (`FuzzRecords`) both ask it.
    static func disagreement(_ p: UnsafePointer<UInt8>, _ n: Int, fast: inout JSONTape, general: inout JSONTape) -> String? {
        let a = fast.parse(p, n).map { "\($0.offset): \($0.message)" }
        let b = general.parseGeneral(p, n).map { "\($0.offset): \($0.message)" }
        guard a == b else { return "the fast path says \(a ?? "nothing is wrong"), the general path \(b ?? "nothing is wrong")" }
        guard a == nil else { return nil }
        let x = fast.tokens, y = general.tokens
        guard x.count == y.count else { return "the fast path leaves \(x.count) tokens, the general path \(y.count)" }
        for k in 0..<x.count {
            let s = x[k], t = y[k]
            guard s.kind == t.kind, s.flags == t.flags, s.start == t.start, s.end == t.end, s.count == t.count else {
                return "token \(k) differs: \(s) against \(t)"
            }
        }
        return nil
    }

    /// Reads the value in `q[0..<n]`, where `q[n..<n + padding]` are zero bytes.
    mutating func parseFast(_ q: UnsafePointer<UInt8>, _ n: Int) -> FastParse {
        let tk = storage.base
        let cap = storage.capacity
        let stack = storage.stack
        let hashes = storage.keyHashes
        var count = 0
        var depth = 0
        // The innermost open container's token (-1 at the top level) and whether it is an
        // array, kept in registers rather than read back from the stack for every value.
        var top = -1
        var inArray = false
        // The key hashes of the innermost open object (`noteKey`).
        var row = hashes
        var atKey = false
        var needsMeaning = false
        var i = 0
        Self.skipSpaces(q, &i)
        while true {
            if atKey {
                // A key: counted, noted among the object's earlier keys as the general path
                // does (the same `maybeDuplicate` marks), then its colon.
                guard q[i] == Self.quote, count < cap else { return .fallback }
                let end = Self.plainStringEnd(q, n, i + 1)
                guard end >= 0 else { return .fallback }
                tk[top].count += 1
                if Self.noteKey(q, i + 1, end, flags: 0, keys: Int(tk[top].count), object: tk + top, row: row) { needsMeaning = true }
                tk[count] = JSONToken(kind: .string, flags: 0, start: Self.offset(i + 1), end: Self.offset(end), count: 0)
                count += 1
                i = end + 1
                Self.skipSpaces(q, &i)
                guard q[i] == UInt8(ascii: ":") else { return .fallback }
                i += 1
                Self.skipSpaces(q, &i)
            }
            // A value.
            guard count < cap else { return .fallback }
            if inArray { tk[top].count += 1 }
            let c = q[i]
            switch c {
            case Self.quote:
                let end = Self.plainStringEnd(q, n, i + 1)
                guard end >= 0 else { return .fallback }
                tk[count] = JSONToken(kind: .string, flags: 0, start: Self.offset(i + 1), end: Self.offset(end), count: 0)
                count += 1
                i = end + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < Self.maxDepth else { return .fallback }
                let isObject = c == UInt8(ascii: "{")
                stack[depth] = Self.offset(count)
                depth += 1
                tk[count] = JSONToken(kind: isObject ? .object : .array, flags: 0, start: Self.offset(i), end: 0, count: 0)
                top = count
                count += 1
                inArray = !isObject
                row = hashes + (depth - 1) * Self.hashedKeys
                i += 1
                Self.skipSpaces(q, &i)
                // Not empty: its first key or element. Empty: closed below like any other.
                if q[i] != (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    atKey = isObject
                    continue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard let token = Self.plainNumber(q, &i) else { return .fallback }
                tk[count] = token
                count += 1
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                var token = JSONToken(kind: .null, flags: 0, start: 0, end: 0, count: 0)
                let failed = c == UInt8(ascii: "t") ? literal(q, n, &i, "true", .trueValue, &token)
                    : c == UInt8(ascii: "f") ? literal(q, n, &i, "false", .falseValue, &token)
                    : literal(q, n, &i, "null", .null, &token)
                guard failed == nil else { return .fallback }
                tk[count] = token
                count += 1
            default:
                return .fallback
            }
            // After a value: a comma, or the end of its container (and maybe of more).
            while true {
                Self.skipSpaces(q, &i)
                guard depth > 0 else {
                    guard i == n else { return .fallback }
                    self.count = count
                    return .parsed(needsMeaning: needsMeaning)
                }
                let c = q[i]
                if c == UInt8(ascii: ",") {
                    i += 1
                    Self.skipSpaces(q, &i)
                    atKey = !inArray
                    break
                }
                guard c == (inArray ? UInt8(ascii: "]") : UInt8(ascii: "}")) else { return .fallback }
                i += 1
                depth -= 1
                tk[top].end = Self.offset(count)
                top = depth > 0 ? Int(stack[depth - 1]) : -1
                inArray = top >= 0 && tk[top].kind == .array
                row = hashes + max(depth - 1, 0) * Self.hashedKeys
            }
        }
    }

    /// An offset into the line, or a token index, as the tape's `Int32`. Exact without a
    /// check: the fast path reads only lines of at most `fastLimit` (1 MB) bytes, so every
    /// offset is at most `fastLimit + padding` and every token index below that too (a
    /// token takes at least one byte). The checked conversion it replaces cost a compare
    /// and a branch per stored field.
    @inline(__always)
    private static func offset(_ x: Int) -> Int32 { Int32(truncatingIfNeeded: x) }

    /// The number at `i` (RFC 8259's grammar, its digits eight at a time), with the flags the
    /// general path's `parseNumber` gives it; `i` is then past it. Nil for anything that is no
    /// number (`-`, `01`, `1.`, `1e`, `-Infinity`): the general path says what.
    @inline(__always)
    static func plainNumber(_ q: UnsafePointer<UInt8>, _ i: inout Int) -> JSONToken? {
        let start = i
        var j = i
        var flags = JSONToken.integer
        if q[j] == UInt8(ascii: "-") { flags |= JSONToken.negative; j += 1 }
        let digits = j
        j = digitsEnd(q, j)
        let intDigits = j - digits
        guard intDigits > 0, q[digits] != UInt8(ascii: "0") || intDigits == 1 else { return nil }
        if q[j] == UInt8(ascii: ".") {
            flags &= ~JSONToken.integer
            let fraction = j + 1
            j = digitsEnd(q, fraction)
            guard j > fraction else { return nil }
        }
        if q[j] | 0x20 == UInt8(ascii: "e") {
            flags &= ~JSONToken.integer
            j += 1
            if q[j] == UInt8(ascii: "+") || q[j] == UInt8(ascii: "-") { j += 1 }
            let exponent = j
            j = digitsEnd(q, exponent)
            guard j > exponent else { return nil }
        }
        if flags & JSONToken.integer != 0, intDigits >= 19, int64Value(q + start, j - start) == nil { flags |= JSONToken.overflow }
        i = j
        return JSONToken(kind: .number, flags: flags, start: offset(start), end: offset(j), count: 0)
    }

    /// The offset of the first byte at or after `from` that is no ASCII digit, eight bytes at
    /// a time (the padding's zero bytes end every run).
    @inline(__always)
    private static func digitsEnd(_ q: UnsafePointer<UInt8>, _ from: Int) -> Int {
        let raw = UnsafeRawPointer(q)
        var j = from
        while true {
            // A digit byte xor '0' is 0...9; adding 0x76 to the low seven bits of any larger
            // byte sets its high bit, and no sum carries into the next byte.
            let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)) ^ 0x3030_3030_3030_3030
            let other = (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
            if other == 0 { j += 8; continue }
            return j + other.trailingZeroBitCount >> 3
        }
    }

    /// JSON's whitespace (space, tab, newline, carriage return) as bits of a 64-bit mask.
    private static let spaceBits: UInt64 = 1 << 0x20 | 1 << 0x09 | 1 << 0x0A | 1 << 0x0D

    /// Skips whitespace; stops at anything else, the padding's zero bytes included.
    @inline(__always)
    static func skipSpaces(_ q: UnsafePointer<UInt8>, _ i: inout Int) {
        while true {
            let c = q[i]
            guard c <= 0x20, (UInt64(1) << UInt64(c)) & spaceBits != 0 else { return }
            i += 1
        }
    }

    /// The offset of the closing quote of the string whose contents start at `from`, eight
    /// bytes at a time; -1 when it holds an escape, a control byte (the padding's NUL
    /// included, when the line ends inside it) or invalid UTF-8.
    @inline(__always)
    static func plainStringEnd(_ q: UnsafePointer<UInt8>, _ n: Int, _ from: Int) -> Int {
        let raw = UnsafeRawPointer(q)
        var j = from
        while true {
            // j <= n here: the zero byte at n is special, so no step of eight passes it.
            let special = specialBytes(raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
            if special == 0 { j += 8; continue }
            j += special.trailingZeroBitCount >> 3
            let c = q[j]
            if c == quote { return j }
            guard c >= 0x80 else { return -1 }
            let len = utf8SequenceLength(q + j, n - j)
            if len == 0 { return -1 }
            j += len
        }
    }
}

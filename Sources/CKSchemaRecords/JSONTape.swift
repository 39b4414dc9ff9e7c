import Foundation
import CKSchemaModel

/// One token of a parsed JSON value: a flat, allocation-free record of where each value is.
///
/// Containers store the index just past their subtree in `end`, so a reader skips a
/// whole value in O(1). Strings store the bytes between their quotes.
package struct JSONToken {
    package enum Kind: UInt8 { case object, array, string, number, trueValue, falseValue, null }
    package var kind: Kind
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
    /// Objects: two of its keys may be the same (their hashes met, a key is escaped, or there
    /// are more keys than `JSONTape.hashedKeys`); `meaningError` compares them exactly.
    static let maybeDuplicate: UInt8 = 16
}

/// A JSON syntax error: what and where (byte offset into the parsed bytes).
package struct JSONSyntaxError: Error {
    package var offset: Int
    package var message: String
}

/// Token storage owned by one tape: raw memory, grown by doubling, never shrunk, so
/// steady-state parsing neither allocates nor pays for copy-on-write checks.
final class TokenStorage {
    var base: UnsafeMutablePointer<JSONToken>
    var capacity: Int
    /// Open containers while parsing (token indexes).
    let stack = UnsafeMutablePointer<Int32>.allocate(capacity: JSONTape.maxDepth + 1)
    /// The hashes of the keys read so far in each open object: `hashedKeys` per depth.
    let keyHashes = UnsafeMutablePointer<UInt64>.allocate(capacity: (JSONTape.maxDepth + 1) * JSONTape.hashedKeys)

    /// The fast path's copy of the line, followed by `JSONTape.padding` zero bytes; it grows
    /// to the longest line the fast path reads (at most `JSONTape.fastLimit`).
    private var copy: UnsafeMutablePointer<UInt8>
    private var copyCapacity = 4096

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
        copy = .allocate(capacity: copyCapacity)
    }

    /// `p[0..<n]` copied, with `JSONTape.padding` zero bytes after it.
    func padded(_ p: UnsafePointer<UInt8>, _ n: Int) -> UnsafePointer<UInt8> {
        let needed = n + JSONTape.padding
        if needed > copyCapacity {
            copy.deallocate()
            copyCapacity = max(needed, copyCapacity * 2)
            copy = .allocate(capacity: copyCapacity)
        }
        copy.update(from: p, count: n)
        (copy + n).update(repeating: 0, count: JSONTape.padding)
        return UnsafePointer(copy)
    }

    func grow() {
        let bigger = UnsafeMutablePointer<JSONToken>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: base, count: capacity)
        base.deallocate()
        base = bigger
        capacity *= 2
    }

    deinit {
        base.deallocate()
        copy.deallocate()
        stack.deallocate()
        keyHashes.deallocate()
    }
}

/// A reusable JSON tokenizer over raw bytes. It validates the whole grammar (RFC 8259),
/// UTF-8 inside strings, escapes, and depth, and records a flat token tape. The tape's
/// storage is kept between records, so steady-state parsing allocates nothing.
struct JSONTape {
    /// Deeper nesting is refused: a record needs at most 6 levels.
    static let maxDepth = 64
    /// Keys of one object whose hashes are kept and compared while parsing; an object with
    /// more keys is checked after the parse (`meaningError`'s set of keys).
    static let hashedKeys = 32

    let storage = TokenStorage(capacity: 256)
    /// The number of tokens of the last parse (set only by the two paths below).
    var count = 0
    /// Whether the last `parse` was done by the fast path (tests read it).
    private(set) var lastParseWasFast = false

    init() {}

    /// The tokens of the last successful parse (valid until the next parse).
    var tokens: UnsafeBufferPointer<JSONToken> { UnsafeBufferPointer(start: storage.base, count: count) }

    /// Parses exactly one JSON value from `p[0..<n]` (whitespace allowed around it).
    /// Returns nil on success. The fast path (`parseFast`, JSONTape+Fast.swift) reads a
    /// padded copy of the line and gives up on anything unusual; the general path then reads
    /// the line again and says what is wrong. Both leave the same tape.
    mutating func parse(_ p: UnsafePointer<UInt8>, _ n: Int) -> JSONSyntaxError? {
        if n <= Self.fastLimit {
            let q = storage.padded(p, n)
            if case .parsed(let needsMeaning) = parseFast(q, n) {
                lastParseWasFast = true
                return needsMeaning ? Self.meaningError(tokens, q, n) : nil
            }
        }
        lastParseWasFast = false
        return parseGeneral(p, n)
    }

    /// The general path, and the reference the fast path is held to: every line the fast
    /// path gives up on, with its errors' messages and places.
    mutating func parseGeneral(_ p: UnsafePointer<UInt8>, _ n: Int) -> JSONSyntaxError? {
        var tk = storage.base
        var cap = storage.capacity
        var count = 0
        var depth = 0
        let stack = storage.stack
        let hashes = storage.keyHashes
        // Set when the finished tape needs `meaningError`'s exact pass: an escaped string (a
        // lone surrogate?) or an object marked `maybeDuplicate`. Most records need neither.
        var needsMeaning = false
        defer { self.count = count }
        var i = 0
        @inline(__always) func skipWS(_ i: inout Int) {
            while i < n {
                let c = p[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }
        @inline(__always) func push(_ t: JSONToken) {
            if count == cap {
                storage.grow()
                tk = storage.base
                cap = storage.capacity
            }
            tk[count] = t
            count += 1
        }
        let truncated = "unexpected end of input; the record is truncated"
        skipWS(&i)
        if i >= n { return JSONSyntaxError(offset: i, message: "empty record") }
        var wantValue = true
        while true {
            if wantValue {
                guard i < n else { return JSONSyntaxError(offset: i, message: truncated) }
                let c = p[i]
                // Count the element in an enclosing array (object pairs count at their key).
                if depth > 0 {
                    let top = Int(stack[depth - 1])
                    if tk[top].kind == .array { tk[top].count += 1 }
                }
                switch c {
                case UInt8(ascii: "\""):
                    let open = i
                    guard let (end, flags) = Self.scanString(p, n, &i) else { return stringError(p, n, open) }
                    if flags != 0 { needsMeaning = true }
                    push(JSONToken(kind: .string, flags: flags, start: Int32(open + 1), end: Int32(end), count: 0))
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth >= Self.maxDepth {
                        return JSONSyntaxError(offset: i, message: "nesting deeper than \(Self.maxDepth) levels")
                    }
                    let isObject = c == UInt8(ascii: "{")
                    stack[depth] = Int32(count)
                    depth += 1
                    push(JSONToken(kind: isObject ? .object : .array, flags: 0, start: Int32(i), end: 0, count: 0))
                    i += 1
                    skipWS(&i)
                    guard i < n else { return JSONSyntaxError(offset: i, message: truncated) }
                    if p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        i += 1
                        depth -= 1
                        tk[Int(stack[depth])].end = Int32(count)
                        wantValue = false
                        continue
                    }
                    if isObject {
                        guard p[i] == UInt8(ascii: "\"") else { return JSONSyntaxError(offset: i, message: "expected a quoted key but found \(describe(p[i]))") }
                        tk[count - 1].count = 1
                        let open = i
                        guard let (end, flags) = Self.scanString(p, n, &i) else { return stringError(p, n, open) }
                        if Self.noteKey(p, open + 1, end, flags: flags, keys: 1, object: tk + (count - 1), row: hashes + (depth - 1) * Self.hashedKeys) {
                            needsMeaning = true
                        }
                        push(JSONToken(kind: .string, flags: flags, start: Int32(open + 1), end: Int32(end), count: 0))
                        skipWS(&i)
                        guard i < n else { return JSONSyntaxError(offset: i, message: truncated) }
                        guard p[i] == UInt8(ascii: ":") else { return JSONSyntaxError(offset: i, message: "expected ':' after the key but found \(describe(p[i]))") }
                        i += 1
                        skipWS(&i)
                    }
                    continue
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    var token = JSONToken(kind: .number, flags: 0, start: 0, end: 0, count: 0)
                    if let e = parseNumber(p, n, &i, &token) { return e }
                    push(token)
                case UInt8(ascii: "t"):
                    var token = JSONToken(kind: .trueValue, flags: 0, start: 0, end: 0, count: 0)
                    if let e = literal(p, n, &i, "true", .trueValue, &token) { return e }
                    push(token)
                case UInt8(ascii: "f"):
                    var token = JSONToken(kind: .falseValue, flags: 0, start: 0, end: 0, count: 0)
                    if let e = literal(p, n, &i, "false", .falseValue, &token) { return e }
                    push(token)
                case UInt8(ascii: "n"):
                    var token = JSONToken(kind: .null, flags: 0, start: 0, end: 0, count: 0)
                    if let e = literal(p, n, &i, "null", .null, &token) { return e }
                    push(token)
                case UInt8(ascii: "N"), UInt8(ascii: "I"):
                    return JSONSyntaxError(offset: i, message: "NaN and Infinity are not JSON numbers; CloudKit cannot store them")
                default:
                    return JSONSyntaxError(offset: i, message: "unexpected \(describe(c)) where a value belongs")
                }
                wantValue = false
            }
            // After a value.
            guard depth > 0 else {
                skipWS(&i)
                if i < n { return JSONSyntaxError(offset: i, message: "unexpected \(describe(p[i])) after the record") }
                return needsMeaning ? Self.meaningError(UnsafeBufferPointer(start: tk, count: count), p, n) : nil
            }
            skipWS(&i)
            guard i < n else { return JSONSyntaxError(offset: i, message: truncated) }
            let c = p[i]
            let top = Int(stack[depth - 1])
            let isObject = tk[top].kind == .object
            if c == UInt8(ascii: ",") {
                i += 1
                skipWS(&i)
                if isObject {
                    // The key is read here and again after '{' above, on purpose: folding the
                    // two into one local function that calls `push` made validate 1.9x slower
                    // (the captured counters move to the heap); measured 2026-11-30.
                    guard i < n else { return JSONSyntaxError(offset: i, message: truncated) }
                    guard p[i] == UInt8(ascii: "\"") else { return JSONSyntaxError(offset: i, message: "expected a quoted key but found \(describe(p[i]))") }
                    tk[top].count += 1
                    let open = i
                    guard let (end, flags) = Self.scanString(p, n, &i) else { return stringError(p, n, open) }
                    if Self.noteKey(p, open + 1, end, flags: flags, keys: Int(tk[top].count), object: tk + top, row: hashes + (depth - 1) * Self.hashedKeys) {
                        needsMeaning = true
                    }
                    push(JSONToken(kind: .string, flags: flags, start: Int32(open + 1), end: Int32(end), count: 0))
                    skipWS(&i)
                    guard i < n else { return JSONSyntaxError(offset: i, message: truncated) }
                    guard p[i] == UInt8(ascii: ":") else { return JSONSyntaxError(offset: i, message: "expected ':' after the key but found \(describe(p[i]))") }
                    i += 1
                    skipWS(&i)
                }
                wantValue = true
            } else if c == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                i += 1
                depth -= 1
                tk[top].end = Int32(count)
            } else {
                return JSONSyntaxError(offset: i, message: "expected ',' or '\(isObject ? "}" : "]")' but found \(describe(c))")
            }
        }
    }

    /// What the grammar allows and a record may not hold, found over the finished tape, so
    /// that `validate` and `records import` (which share this reader) refuse the same lines
    /// with the same code: a key given twice in one object (RFC 8259 leaves its meaning open;
    /// one reader kept the first value, the store kept both, and CloudKit's JSON has none),
    /// and an escape that is a lone surrogate (`"a\ud800b"` is no Unicode text; the store
    /// could not keep it). Nil when there is neither.
    static func meaningError(_ tk: UnsafeBufferPointer<JSONToken>, _ p: UnsafePointer<UInt8>, _ n: Int) -> JSONSyntaxError? {
        let bytes = UnsafeRawBufferPointer(start: p, count: n)
        func text(_ t: JSONToken) -> [UInt8]? {
            guard t.flags & JSONToken.escaped != 0 else { return Array(bytes[Int(t.start)..<Int(t.end)]) }
            var out: [UInt8] = []
            var i = Int(t.start)
            do { _ = try JSONString.decode(UnsafeRawBufferPointer(rebasing: bytes[..<Int(t.end)]), &i, into: &out, strict: true) } catch { return nil }
            return out
        }
        for (index, t) in tk.enumerated() {
            if t.kind == .string, t.flags & JSONToken.escaped != 0, text(t) == nil {
                return JSONSyntaxError(offset: Int(t.start) - 1, message: "a string holds a lone surrogate escape (\\uD800-\\uDFFF without its pair), which is not text CloudKit can store")
            }
            guard t.kind == .object, t.count > 1, t.flags & JSONToken.maybeDuplicate != 0 else { continue }
            // Most objects are small and their keys plain: compare the keys' bytes pairwise, in
            // place (a Set of copied keys for every object made validate 4x slower).
            if t.count <= 32 {
                var plain = true
                var k = index + 1
                while k < Int(t.end) {
                    if tk[k].flags & JSONToken.escaped != 0 { plain = false; break }
                    k = RecordChecker.skip(tk, k + 1)
                }
                if plain {
                    var a = index + 1
                    while a < Int(t.end) {
                        let ka = tk[a], la = Int(ka.end - ka.start)
                        var b = RecordChecker.skip(tk, a + 1)
                        while b < Int(t.end) {
                            let kb = tk[b]
                            if Int(kb.end - kb.start) == la, memcmp(p + Int(ka.start), p + Int(kb.start), la) == 0 {
                                let shown = String(decoding: UnsafeRawBufferPointer(start: p + Int(kb.start), count: min(la, 64)), as: UTF8.self)
                                return JSONSyntaxError(offset: Int(kb.start) - 1, message: "the key '\(shown)' appears twice in one object; give each key once")
                            }
                            b = RecordChecker.skip(tk, b + 1)
                        }
                        a = RecordChecker.skip(tk, a + 1)
                    }
                    continue
                }
            }
            var seen = Set<[UInt8]>()
            var k = index + 1
            while k < Int(t.end) {
                let key = tk[k]
                if let name = text(key), !seen.insert(name).inserted {
                    let shown = String(decoding: name.prefix(64), as: UTF8.self)
                    return JSONSyntaxError(offset: Int(key.start) - 1, message: "the key '\(shown)' appears twice in one object; give each key once")
                }
                k = RecordChecker.skip(tk, k + 1)
            }
        }
        return nil
    }

    /// Keeps the hash of an object's `keys`-th key, `p[start..<end]` (`flags`: its string's
    /// flags), in `row` beside those of the object's earlier keys, and marks the object
    /// (`object`) `maybeDuplicate` when the key is escaped, when its hash meets an earlier
    /// key's, or when the object has more keys than are hashed. Returns whether it marked it:
    /// the finished tape then needs `meaningError`'s exact check. Both paths note every key
    /// here, while parsing: comparing the keys' bytes after the parse cost validate 15%.
    @inline(__always)
    static func noteKey(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, flags: UInt8, keys: Int,
                        object: UnsafeMutablePointer<JSONToken>, row: UnsafeMutablePointer<UInt64>) -> Bool {
        if flags != 0 || keys > hashedKeys {
            object.pointee.flags |= JSONToken.maybeDuplicate
            return true
        }
        guard object.pointee.flags & JSONToken.maybeDuplicate == 0 else { return false }
        let h = keyHash(p, start, end)
        row[keys - 1] = h
        var k = 0
        while k < keys - 1 {
            if row[k] == h {
                object.pointee.flags |= JSONToken.maybeDuplicate
                return true
            }
            k += 1
        }
        return false
    }

    /// A hash of the key `p[start..<end]` (its raw bytes, escapes undecoded), cheap enough to
    /// take for every key: its length and its first and last eight bytes, which are the whole
    /// key up to 16 bytes. Equal keys have equal hashes; `meaningError` confirms a match.
    @inline(__always)
    static func keyHash(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        let length = end - start
        let raw = UnsafeRawPointer(p)
        var first: UInt64 = 0, last: UInt64 = 0
        if length >= 8 {
            first = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            last = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self)
        } else if end >= 8 {
            // The eight bytes ending at the key's end hold it in their top bytes.
            first = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) >> UInt64(8 * (8 - length))
        } else {
            var k = start
            while k < end { first = first << 8 | UInt64(p[k]); k += 1 }
        }
        return (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &+ UInt64(length)) &* 0xC2B2_AE3D_27D4_EB4F
    }

    /// The high bit set in each of the eight bytes `raw` (as loaded, in memory order) that is
    /// '"', '\\', a control byte or non-ASCII: the bytes a string scan must stop at. Borrows
    /// can only mark bytes above a true hit, so the lowest mark is a real one.
    @inline(__always)
    static func specialBytes(_ raw: UInt64) -> UInt64 {
        let v = UInt64(littleEndian: raw)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let q = v ^ (ones &* 0x22)
        let b = v ^ (ones &* 0x5C)
        return (((q &- ones) & ~q) | ((b &- ones) & ~b) | (v &- (ones &* 0x20)) | v) & highs
    }

    /// Scans the string whose opening quote is at `i`; on success `i` is past the closing
    /// quote and the result is the closing quote's offset and the flags. Nil when the string
    /// is malformed (`stringError` then says how). Eight bytes at a time while they are plain.
    @inline(__always)
    static func scanString(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int) -> (Int, UInt8)? {
        var j = i + 1
        var flags: UInt8 = 0
        let raw = UnsafeRawPointer(p)
        while true {
            while j + 8 <= n {
                let special = specialBytes(raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
                if special == 0 { j += 8; continue }
                j += special.trailingZeroBitCount >> 3
                break
            }
            guard j < n else { return nil }
            let c = p[j]
            if c == UInt8(ascii: "\"") { i = j + 1; return (j, flags) }
            if c == UInt8(ascii: "\\") {
                flags = JSONToken.escaped
                guard j + 1 < n else { return nil }
                let e = p[j + 1]
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    j += 2
                case UInt8(ascii: "u"):
                    guard j + 5 < n else { return nil }
                    for k in 2...5 where JSONString.hexValue(p[j + k]) < 0 { return nil }
                    j += 6
                default:
                    return nil
                }
                continue
            }
            if c < 0x20 { return nil }
            if c >= 0x80 {
                let len = utf8SequenceLength(p + j, n - j)
                if len == 0 { return nil }
                j += len
                continue
            }
            j += 1
        }
    }

    /// Says what is wrong with the string opening at `open` (the slow path, on errors only).
    private func stringError(_ p: UnsafePointer<UInt8>, _ n: Int, _ open: Int) -> JSONSyntaxError {
        var i = open + 1
        while i < n {
            let c = p[i]
            if c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\") {
                guard i + 1 < n else { break }
                let e = p[i + 1]
                if e == UInt8(ascii: "u") {
                    if i + 5 >= n { return JSONSyntaxError(offset: i, message: "truncated \\u escape") }
                    for k in 2...5 where JSONString.hexValue(p[i + k]) < 0 { return JSONSyntaxError(offset: i, message: "invalid \\u escape") }
                    i += 6
                    continue
                }
                if !"\"\\/bfnrt".utf8.contains(e) {
                    return JSONSyntaxError(offset: i, message: "invalid escape sequence in a string")
                }
                i += 2
                continue
            }
            if c < 0x20 { return JSONSyntaxError(offset: i, message: "an unescaped control character inside a string; escape it") }
            if c >= 0x80 {
                let len = JSONTape.utf8SequenceLength(p + i, n - i)
                if len == 0 { return JSONSyntaxError(offset: i, message: "invalid UTF-8 inside a string; the file must be UTF-8") }
                i += len
                continue
            }
            i += 1
        }
        return JSONSyntaxError(offset: open, message: "unterminated string; the record is truncated")
    }

    @inline(__always)
    /// Reads a number into `token` (the caller pushes it): no closure over the tape's
    /// counters, whose captured boxes cost a dynamic exclusivity check per value once the
    /// library was split into modules (Benchmarks/RESULTS.md, issue 18).
    private func parseNumber(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, _ token: inout JSONToken) -> JSONSyntaxError? {
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
        token = JSONToken(kind: .number, flags: flags, start: Int32(start), end: Int32(i), count: 0)
        return nil
    }

    /// Reads `word` at `i` into `token` (the caller pushes it). Both paths use it.
    @inline(__always)
    func literal(_ p: UnsafePointer<UInt8>, _ n: Int, _ i: inout Int, _ word: StaticString, _ kind: JSONToken.Kind, _ token: inout JSONToken) -> JSONSyntaxError? {
        let w = word.utf8Start
        let len = word.utf8CodeUnitCount
        guard i + len <= n else { return JSONSyntaxError(offset: i, message: "unexpected end of input; the record is truncated") }
        for k in 0..<len where p[i + k] != w[k] {
            return JSONSyntaxError(offset: i, message: "invalid literal; expected '\(word)'")
        }
        token = JSONToken(kind: kind, flags: 0, start: Int32(i), end: Int32(i + len), count: 0)
        i += len
        return nil
    }

    /// Names an unexpected byte without quoting record content (it may be part of an
    /// encrypted field's value): structural characters by themselves, others by class.
    private func describe(_ c: UInt8) -> String {
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""):
            return "'\(Character(Unicode.Scalar(c)))'"
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return "a digit"
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): return "a letter"
        case 0x80...: return "a non-ASCII character"
        case ..<0x20: return "a control character"
        default: return "a punctuation character"
        }
    }

    // MARK: - Byte helpers shared by the checker

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

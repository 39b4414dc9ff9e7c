import Foundation

/// The one JSON value of the library: reports (JSON, SARIF, `migrate status`), the JSON
/// Schemas it exports, the store (records' fields, NDJSON lines, the stored schema) and
/// records export. Objects keep their key order, so output is stable: Foundation's encoders
/// promise no order, and CI diffs and tests need one.
///
/// One writer (`write(to:pretty:)`) and one escaper (`quote`) serve every JSON output. A
/// small hand-written parser reads it back (`parse`), because the store reads millions of
/// fields and must not be slower than Python's `json`. `records import` does not parse:
/// it builds its values from the token tape `validate` already produced (`JSONTape`).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Keys are written in the order given.
    case object([(String, JSONValue)])

    /// Structural equality; an integer equals the double of the same value.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// A string value or null.
    public static func optional(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

    /// An integer from a count or a position (Int is 64 bits on every platform Swift 6 targets).
    public static func int(_ i: Int) -> JSONValue { .int(Int64(i)) }

    // MARK: Reading members

    /// The first value of `key` in an object (nil for a missing key or a non-object).
    package subscript(key: String) -> JSONValue? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    package var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    package var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o }; return nil }
    package var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
    package var int64Value: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d): Int64(exactly: d)
        default: nil
        }
    }
    package var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    package var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }

    /// What the value is, for messages.
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    // MARK: Writing

    /// Compact (one line) or pretty (two-space indent) text.
    public func rendered(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out, pretty: pretty)
        return String(decoding: out, as: UTF8.self)
    }

    /// Compact text (the store's columns and NDJSON lines).
    package var text: String { rendered() }

    /// Appends the value's UTF-8 text to `out`: the one JSON writer.
    package func write(to out: inout [UInt8], pretty: Bool = false, indent: Int = 0) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): Self.writeInteger(i, to: &out)
        case .double(let d): Self.writeDouble(d, to: &out)
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(&out, indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(&out, indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(&out, indent + 1) }
                Self.quote(k, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                v.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(&out, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int) {
        out.append(0x0A)
        for _ in 0..<indent { out.append(0x20); out.append(0x20) }
    }

    /// An integer's decimal digits, written from its magnitude (`Int64.min` has none as an
    /// `Int64`, so the magnitude is a `UInt64`): the text `String(i)` gives, without a `String`.
    private static func writeInteger(_ i: Int64, to out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var m = i.magnitude
        guard m >= 10 else { out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var n = 20
            while m > 0 {
                n -= 1
                digits[n] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[n..<20]))
        }
    }

    /// A whole double keeps a `.0` (it reads back as a double); infinity and NaN, which JSON
    /// cannot hold, are written as null.
    private static func writeDouble(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else { out.append(contentsOf: "null".utf8); return }
        if d == d.rounded(), abs(d) < 1e15 {
            writeInteger(Int64(d), to: &out)
            out.append(UInt8(ascii: ".")); out.append(UInt8(ascii: "0"))
        } else {
            out.append(contentsOf: "\(d)".utf8)
        }
    }

    // MARK: The escaper

    /// Appends `s` as a JSON string literal to `out`: the one JSON escaper.
    ///
    /// `"`, `\` and the C0 controls are escaped as JSON requires (`\n`, `\r`, `\t`, else
    /// `\u00XX`). So are DEL, the C1 controls, the line and paragraph separators, bidi
    /// overrides and the other invisible format characters (`ControlCharacters.needsEscape`),
    /// and the BOM, U+FFFE and U+FFFF: valid JSON either way, but a terminal or a YAML reader
    /// would act on them raw (YAML reads U+FFFE and U+FFFF only escaped; found by FuzzFmt).
    ///
    /// The GitHub runner acts on the legacy `##[command]` anywhere in a line of a log, and a
    /// JSON or SARIF report printed in a step is such a line (`##[stop-commands]` in a field
    /// name would switch commands off): the second `#` of every `##[` is `\u0023`, so the
    /// output never holds `##[` and still decodes to the original (issue 35). A `::` needs
    /// nothing: a runner reads it only at the start of a line, and every JSON string begins
    /// with its quote.
    package static func quote(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Fast path: printable ASCII without quote, backslash or `#` needs no escape (most
        // text), copied from the string's contiguous UTF-8 in one append.
        let copied = s.utf8.withContiguousStorageIfAvailable { buf -> Bool in
            guard isPlain(buf) else { return false }
            out.append(contentsOf: buf)
            return true
        } ?? false
        if !copied {
            var previous: Unicode.Scalar = "\0"
            var scalars = s.unicodeScalars.makeIterator()
            var next = scalars.next()
            while let c = next {
                next = scalars.next()
                if c == "#", previous == "#", next == "[" {
                    out.append(contentsOf: "\\u0023".utf8)
                    previous = "\0"   // an escaped `#` begins no `##[`
                    continue
                }
                if let escape = escape(c) { out.append(contentsOf: escape.utf8) } else { UTF8.encode(c) { out.append($0) } }
                previous = c
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `s` as a JSON string literal to text being built (`quote(_:into:)` for bytes).
    public static func quote(_ s: String, into out: inout String) {
        if isPlain(s) {
            out += "\""
            out += s
            out += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count + 8)
        quote(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// True when every byte of `s` is printable ASCII other than `"`, `\` and `#`: written as
    /// it is. One loop over the string's contiguous UTF-8 (a native string's), which costs
    /// less than `allSatisfy` over its `utf8` view (4.65% of `lint --format json`, callgrind;
    /// Benchmarks/RESULTS.md).
    private static func isPlain(_ s: String) -> Bool {
        s.utf8.withContiguousStorageIfAvailable(isPlain) ?? s.utf8.allSatisfy(plain)
    }

    @inline(__always) private static func plain(_ b: UInt8) -> Bool { b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C && b != 0x23 }

    /// `isPlain` over bytes, eight at a time: a word is plain when none of its bytes is below
    /// 0x20, at or above 0x7F, or one of `"` `\` `#` (the classic has-zero-byte test on the
    /// word XORed with each; every step is wrapping arithmetic, no trap).
    private static func isPlain(_ buf: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = buf.count
        var i = 0
        if n >= 8, let base = UnsafeRawPointer(buf.baseAddress) {
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            @inline(__always) func hasZero(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
            while i + 8 <= n {
                let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // High bit set (>= 0x80), or DEL (0x7F: 0x7F + 1 sets the high bit), or a byte
                // below 0x20 (0x20 subtracted borrows into the high bit of a byte below it).
                if w & highs != 0 || (w &+ ones) & highs != 0 || hasZero(w & 0xE0E0_E0E0_E0E0_E0E0)
                    || hasZero(w ^ 0x2222_2222_2222_2222) || hasZero(w ^ 0x5C5C_5C5C_5C5C_5C5C) || hasZero(w ^ 0x2323_2323_2323_2323) {
                    return false
                }
                i += 8
            }
        }
        while i < n {
            if !plain(buf[i]) { return false }
            i += 1
        }
        return true
    }

    /// The escape of one scalar, or nil when it is written as it is.
    private static func escape(_ c: Unicode.Scalar) -> String? {
        switch c {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let v = c.value
            guard v < 0x20 || v == 0xFEFF || v == 0xFFFE || v == 0xFFFF || ControlCharacters.needsEscape(c) else { return nil }
            guard v > 0xFFFF else { return hex4(v) }
            // A format character beyond the BMP (U+E0001, ...) as its surrogate pair: `\u`
            // takes exactly four digits.
            let u = v - 0x10000
            return hex4(0xD800 + (u >> 10)) + hex4(0xDC00 + (u & 0x3FF))
        }
    }

    private static func hex4(_ v: UInt32) -> String {
        let digits = String(v, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    // MARK: Parsing

    /// A JSON syntax error at a byte offset, or (`parse(_:boundedNumbers:)`) a number out of range.
    package struct ParseError: Error {
        package var message: String
        package var offset: Int
        /// The members the error is inside, innermost first (gathered as the parser unwinds,
        /// so a value read without error costs nothing): `memberPath` spells them.
        package var members: [Member] = []
        /// A number out of range, as the text writes it (nil for a syntax error).
        package var number: String?

        /// One step of the path to a value: an object's key or a list's index.
        package enum Member: Sendable, Hashable {
            case key(String)
            case index(Int)
        }

        /// The memberwise initializer, for the layers above.
        package init(message: String, offset: Int) {
            self.message = message
            self.offset = offset
        }

        /// The path to the value, as a reviewer reads it: `version`, `steps[2].index`; empty
        /// at the top level.
        package var memberPath: String {
            var out = ""
            for member in members.reversed() {
                switch member {
                case .key(let key): out += out.isEmpty ? key : "." + key
                case .index(let index): out += "[\(index)]"
                }
            }
            return out
        }

        /// The error inside `member` of the value around it.
        func inside(_ member: Member) -> ParseError {
            var e = self
            e.members.append(member)
            return e
        }
    }

    /// Parses one JSON value that fills `text` (surrounding whitespace allowed).
    package static func parse(_ text: String) throws(ParseError) -> JSONValue {
        try parse(bytes: Array(text.utf8), boundedNumbers: false)
    }

    /// Parses one JSON value that fills `data`. With `boundedNumbers`, a number no 64-bit
    /// integer or finite double holds (an integer beyond 64 bits, `1e400`) is an error at its
    /// place (`number`, `memberPath`) where it would be read as a rounded or infinite double:
    /// a plan file's numbers are integers that fit (issue 35 point 10).
    package static func parse(_ data: Data, boundedNumbers: Bool = false) throws(ParseError) -> JSONValue {
        try parse(bytes: data, boundedNumbers: boundedNumbers)
    }

    private static func parse(bytes: some ContiguousBytes, boundedNumbers: Bool) throws(ParseError) -> JSONValue {
        let result: Result<JSONValue, ParseError> = bytes.withUnsafeBytes { buf in
            do throws(ParseError) { return .success(try parse(buf, boundedNumbers: boundedNumbers)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    package static func parse(_ bytes: UnsafeRawBufferPointer, boundedNumbers: Bool = false) throws(ParseError) -> JSONValue {
        var p = Parser(bytes: bytes, boundedNumbers: boundedNumbers)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i != bytes.count { throw ParseError(message: "unexpected text after the JSON value", offset: p.i) }
        return v
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        let boundedNumbers: Bool
        var i = 0

        init(bytes: UnsafeRawBufferPointer, boundedNumbers: Bool) {
            self.bytes = bytes
            self.boundedNumbers = boundedNumbers
        }

        mutating func skipSpace() {
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }

        func fail(_ m: String) -> ParseError { ParseError(message: m, offset: i) }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 512 else { throw fail("nesting is too deep") }
            guard i < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        mutating func object(depth: Int) throws(ParseError) -> JSONValue {
            i += 1
            var pairs: [(String, JSONValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                let k = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
                i += 1
                skipSpace()
                let v: JSONValue
                do throws(ParseError) { v = try value(depth: depth + 1) } catch { throw error.inside(.key(k)) }
                pairs.append((k, v))
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of input in an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                throw fail("expected ',' or '}'")
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> JSONValue {
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                do throws(ParseError) { items.append(try value(depth: depth + 1)) } catch { throw error.inside(.index(items.count)) }
                skipSpace()
                guard i < bytes.count else { throw fail("unexpected end of input in a list") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw fail("expected ',' or ']'")
            }
        }

        mutating func literal(_ word: String) throws(ParseError) {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count else { throw fail("unexpected end of input") }
            for k in 0..<w.count where bytes[i + k] != w[k] { throw fail("invalid literal") }
            i += w.count
        }

        mutating func number() throws(ParseError) -> JSONValue {
            let start = i
            var isInt = true
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
            let digitsStart = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > digitsStart else { throw fail("invalid value") }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                isInt = false
                i += 1
                let f = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                guard i > f else { throw fail("invalid number") }
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                isInt = false
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                let e = i
                while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
                guard i > e else { throw fail("invalid number") }
            }
            let text = UnsafeRawBufferPointer(rebasing: bytes[start..<i])
            guard let v = JSONValue.number(text, isInteger: isInt) else { throw fail("invalid number") }
            // A double where an integer was written did not fit in 64 bits.
            if boundedNumbers, case .double(let d) = v, isInt || !d.isFinite {
                var e = ParseError(message: "a number out of range", offset: start)
                e.number = String(decoding: text, as: UTF8.self)
                throw e
            }
            return v
        }

        mutating func string() throws(ParseError) -> String {
            i += 1
            let start = i
            // Fast path: no escapes.
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") {
                    let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                    i += 1
                    return s
                }
                if c == UInt8(ascii: "\\") { break }
                if c < 0x20 { throw fail("control character in a string") }
                i += 1
            }
            var out = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
            do throws(JSONString.EscapeError) {
                if try JSONString.decode(bytes, &i, into: &out, strict: true) { i += 1; return String(decoding: out, as: UTF8.self) }
            } catch {
                throw ParseError(message: error.message, offset: error.offset)
            }
            throw fail("unterminated string")
        }
    }

    /// The value of a number's text (grammar already checked): an integer when it has no
    /// fraction or exponent and fits in Int64, else a double; nil when it is not a number.
    /// The parser and `records import`'s reading of the token tape share it, so that the two
    /// cannot store one number differently.
    package static func number(_ text: UnsafeRawBufferPointer, isInteger: Bool) -> JSONValue? {
        let negative = text.first == UInt8(ascii: "-")
        if isInteger, text.count <= 18 {
            var v: Int64 = 0
            for k in (negative ? 1 : 0)..<text.count { v = v * 10 + Int64(text[k] &- 0x30) }
            return .int(negative ? -v : v)
        }
        let s = String(decoding: text, as: UTF8.self)
        if isInteger, let v = Int64(s) { return .int(v) }
        return Double(s).map { .double($0) }
    }
}

extension JSONValue {
    /// A Codable value's JSON as the one writer writes it: `JSONEncoder` gives the field names
    /// Codable chose, the value is read back and written pretty, keys sorted, by `write`.
    /// `diff --format json` and plan files are written this way, so every JSON the tool
    /// writes has one escaper and one layout.
    public static func prettyData<T: Encodable>(_ value: T) -> Data? {
        guard let compact = try? JSONEncoder().encode(value) else { return nil }
        let parsed: JSONValue? = compact.withUnsafeBytes { buf in try? parse(buf) }
        guard let parsed else { return nil }
        var out: [UInt8] = []
        parsed.sortedKeys().write(to: &out, pretty: true)
        out.append(0x0A)
        return Data(out)
    }

    /// The same value with every object's keys in code-point order.
    package func sortedKeys() -> JSONValue {
        switch self {
        case .array(let items): .array(items.map { $0.sortedKeys() })
        case .object(let pairs): .object(pairs.sorted { $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }.map { ($0.0, $0.1.sortedKeys()) })
        default: self
        }
    }
}

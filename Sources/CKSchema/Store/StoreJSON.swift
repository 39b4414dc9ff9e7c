import Foundation

/// A JSON value as the store reads and writes it: records' fields, NDJSON lines, the stored
/// schema. Objects keep their key order so that output is stable. A small hand-written parser,
/// because record import reads millions of lines and must not be slower than Python's `json`.
enum StoreJSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([StoreJSON])
    case object([(String, StoreJSON)])

    static func == (a: StoreJSON, b: StoreJSON) -> Bool {
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

    subscript(key: String) -> StoreJSON? {
        if case .object(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
        return nil
    }

    var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    var objectValue: [(String, StoreJSON)]? { if case .object(let o) = self { return o }; return nil }
    var arrayValue: [StoreJSON]? { if case .array(let a) = self { return a }; return nil }
    var int64Value: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d): Int64(exactly: d)
        default: nil
        }
    }
    var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }
    var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }

    /// What the value is, for messages.
    var kindName: String {
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

    /// Compact JSON text.
    var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d.isFinite {
                if d == d.rounded(), abs(d) < 1e15 { out.append(contentsOf: String(Int64(d)).utf8); out.append(contentsOf: ".0".utf8) }
                else { out.append(contentsOf: "\(d)".utf8) }
            } else { out.append(contentsOf: "null".utf8) }
        case .string(let s): Self.writeString(s, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                v.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let o):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in o.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                v.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func writeString(_ s: String, to out: inout [UInt8]) {
        if s.utf8.contains(where: { $0 >= 0x7F }) {
            // DEL, C1 controls, line separators and bidi overrides as \u escapes (see JSONText.quote).
            var text = ""
            JSONText.quote(s, into: &text)
            out.append(contentsOf: text.utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: Parsing

    /// A JSON syntax error at a byte offset.
    struct ParseError: Error {
        var message: String
        var offset: Int
    }

    /// Parses one JSON value that fills `text` (surrounding whitespace allowed).
    static func parse(_ text: String) throws(ParseError) -> StoreJSON {
        let bytes = Array(text.utf8)
        let result: Result<StoreJSON, ParseError> = bytes.withUnsafeBytes { buf in
            do throws(ParseError) { return .success(try parse(buf)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> StoreJSON {
        var p = Parser(bytes: bytes)
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        if p.i != bytes.count { throw ParseError(message: "unexpected text after the JSON value", offset: p.i) }
        return v
    }

    private struct Parser {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { break }
            }
        }

        func fail(_ m: String) -> ParseError { ParseError(message: m, offset: i) }

        mutating func value(depth: Int) throws(ParseError) -> StoreJSON {
            guard depth < 512 else { throw fail("nesting is too deep") }
            guard i < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var pairs: [(String, StoreJSON)] = []
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
                    let v = try value(depth: depth + 1)
                    pairs.append((k, v))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of input in an object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(pairs) }
                    throw fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [StoreJSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unexpected end of input in a list") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default:
                return try number()
            }
        }

        mutating func literal(_ word: String) throws(ParseError) {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count else { throw fail("unexpected end of input") }
            for k in 0..<w.count where bytes[i + k] != w[k] { throw fail("invalid literal") }
            i += w.count
        }

        mutating func number() throws(ParseError) -> StoreJSON {
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
            if isInt, i - start <= 18 {
                var v: Int64 = 0
                var k = bytes[start] == UInt8(ascii: "-") ? start + 1 : start
                while k < i { v = v * 10 + Int64(bytes[k] - 0x30); k += 1 }
                return .int(bytes[start] == UInt8(ascii: "-") ? -v : v)
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            if isInt, let v = Int64(text) { return .int(v) }
            guard let d = Double(text) else { throw fail("invalid number") }
            return .double(d)
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
}

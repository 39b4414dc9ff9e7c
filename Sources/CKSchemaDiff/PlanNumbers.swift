/// A number in a plan file's JSON that no member of a plan can hold: an integer beyond
/// 64 bits (`"version": 99999999999999999999`) or a number beyond a double's range
/// (`"version": 1e400`). Foundation's reader either refuses the whole file ("The given data
/// was not valid JSON") or gives a rounded or infinite value, so the plan reader looks for
/// them first and names the member and its place (issue 35 point 10).
struct PlanNumber: Sendable, Hashable {
    /// Where the number sits, as a reviewer reads it: `version`, `steps[2].index`.
    var path: String
    /// The number as the file writes it.
    var text: String
    /// 1-based line and column (UTF-8 bytes) of its first character.
    var line: Int
    var column: Int

    /// The first out-of-range number in `bytes`, or nil when there is none (or when the
    /// text is not JSON at all: the plan reader says so on its own). Nesting is bounded
    /// (512 levels, as `JSONValue.parse`): deeper text is left to the plan reader.
    static func firstOutOfRange(in bytes: [UInt8]) -> PlanNumber? {
        var scan = Scan(bytes: bytes)
        scan.space()
        _ = scan.value(path: "", depth: 0)
        guard let (path, start, end) = scan.found else { return nil }
        var line = 1, lineStart = 0
        for k in 0..<start where bytes[k] == 0x0A { line += 1; lineStart = k + 1 }
        return PlanNumber(path: path, text: String(decoding: bytes[start..<end], as: UTF8.self), line: line, column: start - lineStart + 1)
    }

    /// A syntax walk that records the path of each value and stops at the first bad number.
    private struct Scan {
        let bytes: [UInt8]
        var i = 0
        var found: (path: String, start: Int, end: Int)?

        mutating func space() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        /// False when the walk stops (a syntax error, too deep, or a bad number found).
        mutating func value(path: String, depth: Int) -> Bool {
            guard depth < 512, i < bytes.count else { return false }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1; space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return true }
                while true {
                    space()
                    guard let key = string() else { return false }
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return false }
                    i += 1; space()
                    guard value(path: path.isEmpty ? key : path + "." + key, depth: depth + 1) else { return false }
                    space()
                    guard i < bytes.count else { return false }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return true }
                    return false
                }
            case UInt8(ascii: "["):
                i += 1; space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return true }
                var n = 0
                while true {
                    space()
                    guard value(path: path + "[\(n)]", depth: depth + 1) else { return false }
                    n += 1
                    space()
                    guard i < bytes.count else { return false }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return true }
                    return false
                }
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                while i < bytes.count, bytes[i] >= UInt8(ascii: "a"), bytes[i] <= UInt8(ascii: "z") { i += 1 }
                return true
            default: return number(path: path)
            }
        }

        /// A string's text (escapes kept as written: keys of a plan are plain ASCII).
        mutating func string() -> String? {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
            i += 1
            let start = i
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
                if bytes[i] == UInt8(ascii: "\\") { i += 1 }
                i += 1
            }
            guard i < bytes.count else { return nil }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            i += 1
            return text
        }

        mutating func number(path: String) -> Bool {
            let start = i
            var isInteger = true
            while i < bytes.count {
                let c = bytes[i]
                if c >= 0x30 && c <= 0x39 || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") { i += 1; continue }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") { isInteger = false; i += 1; continue }
                break
            }
            guard i > start else { return false }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            let digits = text.utf8.drop { $0 == UInt8(ascii: "-") }
            let outOfRange: Bool
            if isInteger {
                // Syntax first: only `-?[0-9]+` is an integer that can be too large.
                guard !digits.isEmpty, digits.count == text.utf8.count - (text.hasPrefix("-") ? 1 : 0),
                      digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
                outOfRange = Int64(text) == nil
            } else {
                guard let d = Double(text) else { return false }
                outOfRange = !d.isFinite
            }
            if outOfRange {
                found = (path, start, i)
                return false
            }
            return true
        }
    }
}

import Foundation

/// A JSON value written with a stable key order, for documented, versioned output.
/// (Foundation's encoders do not promise an order; CI diffs and tests need one.)
public indirect enum JSONText: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONText])
    /// Keys are written in the order given.
    case object([(String, JSONText)])

    public static func == (a: JSONText, b: JSONText) -> Bool { a.rendered() == b.rendered() }

    /// A string value or null.
    public static func optional(_ s: String?) -> JSONText { s.map { .string($0) } ?? .null }

    /// Compact (one line) or pretty (two-space indent) text.
    public func rendered(pretty: Bool = false) -> String {
        var out = ""
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? (d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : String(d)) : "null"
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                item.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            out += "{"
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                Self.quote(k, into: &out)
                out += pretty ? ": " : ":"
                v.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string literal.
    public static func quote(_ s: String, into out: inout String) {
        // Fast path: printable ASCII without quote or backslash needs no escape (most text).
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            out += "\""
            out += s
            out += "\""
            return
        }
        out += "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls, DEL, C1, line separators, bidi overrides and the BOM as \u escapes:
                // valid JSON either way, but a terminal or a YAML reader would act on them raw.
                // U+FFFE and U+FFFF too: YAML reads them only escaped (found by FuzzFmt).
                if c.value < 0x20 || c.value == 0xFEFF || c.value == 0xFFFE || c.value == 0xFFFF || ControlCharacters.needsEscape(c) {
                    out += String(format: "\\u%04x", c.value)
                } else { out.unicodeScalars.append(c) }
            }
        }
        out += "\""
    }
}

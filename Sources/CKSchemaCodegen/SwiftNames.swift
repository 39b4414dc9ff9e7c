import Foundation

/// How a schema name becomes a Swift identifier (docs/codegen.md, "Names").
///
/// A name that is already an identifier keeps its spelling (`CD_title` stays `CD_title`);
/// every other byte becomes `_` (`cloudkit.share` is `cloudkit_share`); a leading digit gets a
/// leading `_`; a keyword is written in backticks (`` `default` ``); a name Swift cannot
/// declare even in backticks, or one that a generated member already uses, gets a trailing
/// `_`. Two names of one scope that map to one identifier are a CK951 error, never an overwrite.
package enum SwiftNames {
    /// Swift's keywords, which an identifier may be only in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
    ]
    /// Names that cannot be declared as a member even in backticks.
    static let undeclarable: Set<String> = ["self", "Self", "init", "deinit", "subscript", "Type", "Protocol", "Any", "_"]

    /// The identifier for `name`, with `reserved` names (and `also`) taking a trailing `_`.
    package static func identifier(_ name: String, reserved: Set<String> = [], also: String? = nil) -> String {
        if isPlainIdentifier(name) {
            // The common case: the name is its own identifier, and no copy is made.
            return undeclarable.contains(name) || reserved.contains(name) || name == also ? name + "_" : name
        }
        var out = ""
        for (i, u) in name.unicodeScalars.enumerated() {
            let letter = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || u == "_"
            let digit = u >= "0" && u <= "9"
            if i == 0, digit { out.append("_") }
            out.unicodeScalars.append(letter || digit ? u : "_")
        }
        if out.isEmpty { out = "_" }
        if undeclarable.contains(out) || reserved.contains(out) || out == also { out += "_" }
        return out
    }

    /// True when `name` is ASCII letters, digits and `_`, not starting with a digit.
    private static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { return false }
        return name.utf8.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
        }
    }

    /// True when `text` needs nothing escaped or replaced: printable ASCII without `"` or `\\`.
    private static func isPlainText(_ text: String, quotes: Bool) -> Bool {
        text.utf8.allSatisfy { b in b >= 0x20 && b < 0x7F && !(quotes && (b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\"))) }
    }

    /// The identifier as written in source: in backticks when it is a keyword.
    package static func spelled(_ identifier: String) -> String {
        keywords.contains(identifier) ? "`\(identifier)`" : identifier
    }

    /// `summit-trips` -> `summitTrips`: a subscription ID or query name as a function name.
    package static func camelCased(_ name: String) -> String {
        var out = ""
        var upper = false
        for u in name.unicodeScalars {
            let alnum = (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "_"
            if !alnum { upper = !out.isEmpty; continue }
            out += upper ? String(u).uppercased() : String(u)
            upper = false
        }
        return identifier(out)
    }

    /// A Swift string literal of `text`: quotes, backslashes and every control character escaped.
    package static func literal(_ text: String) -> String {
        if isPlainText(text, quotes: true) { return "\"" + text + "\"" }
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || u.value == 0x7F || (u.value >= 0x80 && u.value < 0xA0) || u.value == 0x2028 || u.value == 0x2029 {
                    out += "\\u{" + String(u.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// An NSPredicate format string that means `predicate` literally: `%` doubled.
    package static func predicateFormat(_ predicate: String) -> String {
        literal(predicate.replacingOccurrences(of: "%", with: "%%"))
    }

    /// Text for a `///` comment: one line, no control characters.
    package static func comment(_ text: String) -> String {
        if isPlainText(text, quotes: false) { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}

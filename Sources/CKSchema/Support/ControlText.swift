/// Control characters in untrusted text (a file's names, another tool's output, a user's
/// argument) shown as `\u{1b}`, so none can move a terminal's cursor, rewrite a CI log line
/// or hide text (bidirectional overrides, zero-width characters).
public enum ControlText {
    /// C0 and C1 controls, DEL, and format characters (Unicode category Cf).
    public static func isControl(_ u: Unicode.Scalar) -> Bool {
        u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) || u.properties.generalCategory == .format
    }

    /// `\u{1b}` for one scalar.
    public static func escape(_ u: Unicode.Scalar) -> String { "\\u{" + String(u.value, radix: 16) + "}" }

    /// The text with every control character escaped; `newline` replaces line breaks when given.
    public static func escaped(_ s: String, newline: String? = nil) -> String {
        var out = ""
        for u in s.unicodeScalars {
            if u == "\n", let newline { out += newline } else if isControl(u) { out += escape(u) } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}

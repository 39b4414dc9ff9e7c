/// Text from files (names, paths, values) shown on a terminal or in a CI log: control
/// characters are escaped so that no ESC/OSC sequence reaches the terminal and no newline
/// starts a line the reader did not write (`::error file=...` forges a GitHub annotation).
///
/// Escaped: C0 controls (newline and tab included) and DEL as `\n`, `\t`, `\u{1B}`; C1
/// controls (U+0080-U+009F, NEL among them); the line and paragraph separators U+2028 and
/// U+2029; and the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069),
/// which reorder what a reader sees, and the other invisible format characters (Unicode
/// category Cf: zero-width spaces and joiners). A backslash stays as it is: the output is for
/// reading, not for parsing back (JSON and SARIF escape by construction). One home for every
/// output that shows untrusted text: text, github, markdown, usage errors, cktool's output.
///
/// CI log commands are neutralised too: the GitHub runner executes `::command` at the start
/// of a line and the legacy `##[command]` anywhere in one (`##[stop-commands]` in a field
/// name would turn off command processing for the step), and Azure Pipelines reads `##vso[`.
/// So the second character of every `::` and `##[` is escaped (`:\u{3A}`, `#\u{23}[`):
/// no text from a file can form one, whatever the format and wherever the line starts.
public enum ControlCharacters {
    /// The text with every control character escaped, for one line of output; `newline`,
    /// when given, replaces each line break instead (`<br>` in a Markdown cell).
    public static func escaped(_ s: String, newline: String? = nil) -> String {
        // Fast path: printable ASCII without a log command (almost every name and message).
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), !hasLogCommand(s) { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        var previous: Unicode.Scalar?
        let scalars = Array(s.unicodeScalars)
        for (i, u) in scalars.enumerated() {
            if u == "\n", let newline { out += newline } else if needsEscape(u) { out += escape(u) }
            else if u == ":", previous == ":" { out += escape(u) }
            else if u == "#", previous == "#", i + 1 < scalars.count, scalars[i + 1] == "[" { out += escape(u) }
            else { out.unicodeScalars.append(u) }
            // An escaped character starts no command: `:::` is `:\u{3A}:`.
            previous = out.unicodeScalars.last == u ? u : nil
        }
        return out
    }

    /// True when `s` holds `::` or `##[`, which a CI runner could take for a command.
    static func hasLogCommand(_ s: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for b in s.utf8 {
            if b == 0x3A, previous == 0x3A { return true }
            if b == 0x5B, previous == 0x23, beforePrevious == 0x23 { return true }
            (beforePrevious, previous) = (previous, b)
        }
        return false
    }

    /// The text escaped as `escaped` does, but keeping its newlines: for a block of several
    /// lines the tool wrote itself around names from files.
    public static func escapedKeepingNewlines(_ s: String) -> String {
        if s.utf8.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A }), !hasLogCommand(s) { return s }
        return s.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    /// True when `u` would act on a terminal or a log rather than show.
    public static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x20 || v == 0x7F || (v >= 0x80 && v <= 0x9F) || v == 0x2028 || v == 0x2029 { return true }
        return v > 0x7F && u.properties.generalCategory == .format
    }

    /// How one escaped scalar is shown: `\n`, `\t`, `\u{1B}`.
    public static func escape(_ u: Unicode.Scalar) -> String {
        switch u {
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
        }
    }
}

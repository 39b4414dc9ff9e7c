import CKSchemaModel
import Foundation

/// `--format markdown`: a summary line and one table row per diagnostic, for a GitHub
/// job summary (`$GITHUB_STEP_SUMMARY`) or a pull-request comment.
extension DiagnosticRenderer {
    /// The whole Markdown report: `**ckschema lint**: 1 error, 2 warnings` (with a verdict,
    /// `**ckschema check**: failed (validate): 1 error`) and a table.
    func markdown(_ diagnostics: [Diagnostic]) -> String {
        let s = Self.summary(diagnostics)
        var out = "**ckschema \(Markdown.cell(command))**: " + (verdict.map { Markdown.cell($0) + ": " } ?? "")
            + Markdown.counts(errors: s.errors, warnings: s.warnings, notes: s.notes) + "\n"
        guard !diagnostics.isEmpty else { return out }
        out += "\n| Location | Severity | Code | Message |\n|---|---|---|---|\n"
        for d in diagnostics {
            let place = d.location.map { "\($0.file):\($0.line):\($0.column)" } ?? ""
            var message = d.message
            if let fix = d.fix { message += " (fix: \(fix))" }
            out += "| " + [Markdown.code(place), d.severity.rawValue, Markdown.code(d.code), Markdown.cell(message)].joined(separator: " | ") + " |\n"
        }
        return out
    }
}

/// Escaping for Markdown table cells: text from schema files is untrusted, so a `|`
/// cannot split a cell, a newline cannot end the table, and a control character never
/// reaches the log raw.
public enum Markdown {
    /// `1 error, 2 warnings`, or `no findings`.
    public static func counts(errors: Int, warnings: Int, notes: Int) -> String {
        var parts: [String] = []
        if errors > 0 { parts.append("\(errors) error" + (errors == 1 ? "" : "s")) }
        if warnings > 0 { parts.append("\(warnings) warning" + (warnings == 1 ? "" : "s")) }
        if notes > 0 { parts.append("\(notes) note" + (notes == 1 ? "" : "s")) }
        return parts.isEmpty ? "no findings" : parts.joined(separator: ", ")
    }

    /// A table cell: `|` and Markdown's inline markers escaped, control characters as `\u{..}`.
    public static func cell(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "|", "\\", "`", "*", "_", "[", "]", "<", ">": out += "\\" + String(u)
            case "\n": out += "<br>"
            default: if ControlCharacters.needsEscape(u) { out += ControlCharacters.escape(u) } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    /// A cell in code style; a backtick or `|` inside cannot end it (code spans keep
    /// backslashes, so those characters are replaced, and control characters escaped).
    public static func code(_ s: String) -> String {
        if s.isEmpty { return "" }
        let out = ControlCharacters.escaped(s).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'")
        return "`" + out + "`"
    }
}

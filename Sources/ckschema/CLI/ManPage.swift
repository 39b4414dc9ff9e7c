import CKSchema
import Foundation

/// `ckschema man`: a roff man page (section 1) from the same text `--help` prints:
/// each command's usage, summary, help and its declared options; a group's subcommands, then
/// a section for each that takes something, with its usage and the options it declares.
enum ManPage {
    static func render(commands: [any Command.Type]) -> String {
        var s = """
        .TH CKSCHEMA 1 "" "ckschema \(roff(CKSchemaVersion.current))" "User Commands"
        .SH NAME
        ckschema \\- a CloudKit container's schema as code
        .SH SYNOPSIS
        .B ckschema
        .I command
        [\\fIoptions\\fR]
        .br
        .B ckschema
        \\-\\-help | \\-\\-version
        .SH DESCRIPTION
        ckschema keeps a CloudKit container's schema as code: record types, fields, indexes,
        encryption, zones and grants live as YAML in Schemas/. It lints them with CloudKit's
        rules, diffs development against production, plans the promotion, validates records
        and applies migrations to a local store. ckschema.yaml at the repository root names
        the defaults, so the commands need no arguments in a configured repository.
        .SH COMMANDS

        """
        for c in commands {
            s += ".SS \(roffQuote("ckschema " + c.name))\n"
            s += ".nf\n\(roffLines(c.usage))\n.fi\n.PP\n\(roffLines(c.summary))\n"
            s += ".PP\n.nf\n\(roffLines(c.help))\n.fi\n"
            for sub in c.subcommands {
                s += ".TP\n.B \(roff(c.name + " " + sub.synopsis))\n\(roffLines(sub.summary))\n"
            }
            guard !c.subcommands.isEmpty else {
                s += options(c.options)
                continue
            }
            for sub in c.subcommands where !sub.options.isEmpty || !sub.arguments.isEmpty {
                s += ".SS \(roffQuote("ckschema \(c.name) \(sub.name)"))\n"
                s += ".nf\n\(roffLines(Usage.subcommand(c.name, sub)))\n.fi\n.PP\n\(roffLines(sub.summary))\n"
                s += options(sub.options)
            }
        }
        s += """
        .SH EXIT STATUS
        .TP
        .B 0
        clean: nothing at or above the failing severity
        .TP
        .B 1
        findings at or above \\-\\-fail\\-on
        .TP
        .B 2
        the tool could not do its job: bad arguments, an unreadable or malformed file
        .SH FILES
        .TP
        .I ckschema.yaml
        the repository's configuration, found from the current folder upwards
        .SH SEE ALSO
        .BR xcrun (1),
        cktool; docs/rules.md and docs/schema-format.md in the ckschema repository

        """
        return s
    }

    /// One `.TP` entry an option: its synopsis, then its help.
    static func options(_ options: [OptionSpec]) -> String {
        options.map { ".TP\n.B \(roff($0.synopsis))\n\(roffLines($0.helpText))\n" }.joined()
    }

    /// Text safe inside a roff line: backslashes and dashes escaped.
    static func roff(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default:
                // Roff has no escape for them: a control character is dropped.
                if ControlCharacters.needsEscape(u) && u != "\t" { continue }
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// Lines of text: each escaped, and a line starting with `.` or `'` guarded with `\&`.
    static func roffLines(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let l = roff(String(line))
            if l.isEmpty { return "" }
            return l.hasPrefix(".") || l.hasPrefix("'") ? "\\&" + l : l
        }.joined(separator: "\n")
    }

    static func roffQuote(_ s: String) -> String { "\"" + roff(s).replacingOccurrences(of: "\"", with: "\\(dq") + "\"" }
}

import Foundation
import CKSchemaModel

/// The report formats every command offers (`--format`).
public enum OutputFormat: String, Sendable, CaseIterable {
    case text, json, github, sarif
    /// A summary line and a table, for job summaries and PR comments (DiagnosticRenderer+Markdown.swift).
    case markdown
}

/// Turns diagnostics into the text of one output format. Pure: it returns strings,
/// the executable decides where they go.
public struct DiagnosticRenderer: Sendable {
    public var format: OutputFormat
    /// Text format only: print the source line and a caret under the column.
    public var showSource: Bool
    /// The command that produced the diagnostics, for the JSON and SARIF envelopes.
    public var command: String
    /// SARIF only: the file a result without a location points at (GitHub requires one).
    public var fallbackFile: String = "ckschema.yaml"
    /// The run's verdict (`passed`, `failed (validate)`), which the Markdown summary line
    /// starts with, for a command that concludes (check, promote --check).
    public var verdict: String?
    /// JSON and SARIF only: what the command did besides its findings, as members of the
    /// report (`"push": {...}`, after `command`) and of the SARIF run's property bag
    /// (`runs[0].properties`); docs/output.md lists each command's. Empty for most commands.
    public var properties: [(String, JSONValue)] = []

    /// What the rules say of a code (name, summary, source), for SARIF's rule list and
    /// GitHub annotation titles. The rule catalog sits above Diagnostics, so the caller
    /// passes it (`RuleCatalog.info`); without it, codes are shown alone.
    public var ruleInfo: @Sendable (String) -> RuleInfo?

    public init(format: OutputFormat, command: String, showSource: Bool = false,
                rules: @escaping @Sendable (String) -> RuleInfo? = { _ in nil }) {
        self.format = format
        self.command = command
        self.showSource = showSource
        self.ruleInfo = rules
    }

    /// The whole report for a finished run.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        var cache = SourceLines()
        let sorted = diagnostics.sortedByLocation().map { checked($0, cache: &cache) }
        switch format {
        case .text:
            return sorted.map { text($0, cache: &cache) }.joined()
        case .json: return json(sorted).rendered(pretty: true) + "\n"
        case .github: return sorted.map(github).joined()
        case .sarif: return sarif(sorted).rendered(pretty: true) + "\n"
        case .markdown: return markdown(sorted)
        }
    }

    /// One diagnostic in the text format, for streaming commands.
    public func renderText(_ d: Diagnostic) -> String {
        var cache = SourceLines()
        return text(checked(d, cache: &cache), cache: &cache)
    }

    /// `d` with its fix-it checked against the file when it names the text it replaces
    /// (`FixIt.verified(against:)`): a fix-it whose text the file does not hold there is
    /// dropped, so no format offers a change that would not apply.
    func checked(_ d: Diagnostic, cache: inout SourceLines) -> Diagnostic {
        guard let f = d.fixIt, f.expected != nil else { return d }
        var d = d
        d.fixIt = cache.line(f.start.line, of: f.start.file).flatMap { f.verified(against: $0) }
        return d
    }

    /// `path:line:col: error: message [CK101]`, then the source line and caret (with a
    /// fix-it's replacement under it, as clang shows one), then the fix as a
    /// `path:line:col: note: ...` line of its own, which Xcode and editors attach to the error.
    func text(_ d: Diagnostic, cache: inout SourceLines) -> String {
        // Names, paths and values come from files: no control character reaches the terminal.
        let esc = { (s: String) in ControlCharacters.escaped(s) }
        var out = Self.place(d.location, esc) + "\(d.severity.rawValue): \(esc(d.message)) [\(d.code)]\n"
        // Never the source line of a record file (CK4xx): it would print field values,
        // encrypted ones included (docs/records.md, "Encrypted fields").
        if showSource, !d.code.hasPrefix("CK4"), let l = d.location, let src = cache.line(l.line, of: l.file) {
            // Escaped as the message is; the caret counts the escaped characters before the column.
            // A fix-it on the caret's line underlines what it replaces (`^~~~`, quotes included)
            // and shows its replacement under it, where it goes.
            let fixIt = d.fixIt.flatMap { f in f.start.file == l.file && f.start.line == l.line && f.start.column >= l.column ? f : nil }
            let chars = Array(src)
            func width(_ ch: Character) -> Int { ch == "\t" ? 1 : esc(String(ch)).count }
            func lead(to column: Int) -> String {
                chars.prefix(max(0, column - 1)).map { $0 == "\t" ? "\t" : String(repeating: " ", count: width($0)) }.joined()
            }
            var marks = "^"
            if let f = fixIt, l.column <= chars.count {
                let covered = chars[(l.column - 1)..<min(chars.count, f.endColumn - 1)].map(width).reduce(0, +)
                marks += String(repeating: "~", count: max(0, covered - 1))
            }
            out += src.split(separator: "\t", omittingEmptySubsequences: false).map { esc(String($0)) }.joined(separator: "\t") + "\n"
            out += lead(to: l.column) + marks + "\n"
            if let f = fixIt { out += lead(to: f.start.column) + esc(f.replacement) + "\n" }
        }
        if let note = d.noteMessage { out += Self.place(d.noteLocation, esc) + "note: \(esc(note))\n" }
        return out
    }

    /// `path:line:col: `, or `ckschema: ` for a finding with no place.
    static func place(_ l: SourceLocation?, _ esc: (String) -> String) -> String {
        guard let l else { return "ckschema: " }
        return "\(esc(l.file)):\(l.line):\(l.column): "
    }

    /// Counts by severity.
    public static func summary(_ diagnostics: [Diagnostic]) -> (errors: Int, warnings: Int, notes: Int) {
        var e = 0, w = 0, n = 0
        for d in diagnostics {
            switch d.severity { case .error: e += 1; case .warning: w += 1; case .note: n += 1 }
        }
        return (e, w, n)
    }

    /// The JSON object of one diagnostic (also used by commands with richer JSON reports).
    public static func jsonObject(_ d: Diagnostic) -> JSONValue {
        .object([
            ("code", .string(d.code)),
            ("severity", .string(d.severity.rawValue)),
            ("file", .optional(d.location?.file)),
            ("line", d.location.map { .int($0.line) } ?? .null),
            ("column", d.location.map { .int($0.column) } ?? .null),
            ("message", .string(d.message)),
            ("fix", .optional(d.fix)),
        ] + (d.fixIt.map { [("fixIt", fixItObject($0))] } ?? []))
    }

    /// A fix-it in JSON (present only on a diagnostic that has one, docs/output.md).
    public static func fixItObject(_ f: FixIt) -> JSONValue {
        .object([
            ("file", .string(f.start.file)),
            ("line", .int(f.start.line)),
            ("column", .int(f.start.column)),
            ("endLine", .int(f.start.line)),
            ("endColumn", .int(f.endColumn)),
            ("replacement", .string(f.replacement)),
        ])
    }

    /// The versioned JSON report (docs/output.md).
    func json(_ diagnostics: [Diagnostic]) -> JSONValue {
        let s = Self.summary(diagnostics)
        var members: [(String, JSONValue)] = [
            ("version", .int(1)),
            ("tool", .object([("name", .string("ckschema")), ("version", .string(CKSchemaVersion.current))])),
            ("command", .string(command)),
        ]
        members += properties
        members.append(("diagnostics", .array(diagnostics.map(Self.jsonObject))))
        members.append(("summary", .object([("errors", .int(s.errors)), ("warnings", .int(s.warnings)), ("notes", .int(s.notes))])))
        return .object(members)
    }

    /// A GitHub Actions workflow command: `::error file=...,line=...,col=...,title=CK101::message`.
    func github(_ d: Diagnostic) -> String {
        let level = d.severity == .error ? "error" : d.severity == .warning ? "warning" : "notice"
        // Control characters are escaped before the workflow-command escaping, so that no
        // ESC sequence reaches the log and the only line breaks are the `%0A` of the fix.
        let esc = { (s: String) in ControlCharacters.escaped(s) }
        var props: [String] = []
        if let l = d.location {
            props.append("file=" + Self.escapeProperty(esc(l.file)))
            props.append("line=\(l.line)")
            props.append("col=\(l.column)")
        }
        props.append("title=" + Self.escapeProperty("\(d.code) \(ruleInfo(d.code)?.name ?? "")".trimmingCharacters(in: .whitespaces)))
        var message = esc(d.message)
        if let fix = d.fix { message += "\nfix: " + esc(fix) }
        return "::\(level) " + props.joined(separator: ",") + "::" + Self.escapeData(message) + "\n"
    }

    static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// SARIF 2.1.0, as GitHub code scanning loads it.
    func sarif(_ diagnostics: [Diagnostic]) -> JSONValue {
        let codes = Array(Set(diagnostics.map(\.code))).sorted()
        let rules: [JSONValue] = codes.map { code in
            let info = ruleInfo(code)
            var pairs: [(String, JSONValue)] = [("id", .string(code))]
            if let info {
                pairs.append(("name", .string(info.name)))
                pairs.append(("shortDescription", .object([("text", .string(info.summary))])))
                pairs.append(("defaultConfiguration", .object([("level", .string(Self.sarifLevel(info.defaultSeverity)))])))
                // No helpUri: the project has no published address to point at, and a
                // placeholder URL is worse than none. The help text names the local doc.
                var help = "See docs/rules.md, section \(code)."
                if !info.source.isEmpty { help = "Source: \(info.source). " + help }
                pairs.append(("help", .object([("text", .string(help))])))
            }
            return .object(pairs)
        }
        let results: [JSONValue] = diagnostics.map { d in
            var text = d.message
            if let fix = d.fix { text += " Fix: " + fix }
            var pairs: [(String, JSONValue)] = [
                ("ruleId", .string(d.code)),
                ("ruleIndex", .int(codes.firstIndex(of: d.code) ?? 0)),
                ("level", .string(Self.sarifLevel(d.severity))),
                ("message", .object([("text", .string(text))])),
            ]
            // GitHub's upload rejects a result without a location: one that has no file of
            // its own (a store, an argument) points at the configuration file, line 1.
            do {
                let l = d.location ?? SourceLocation(file: fallbackFile, line: 1, column: 1)
                pairs.append(("locations", .array([.object([
                    ("physicalLocation", .object([
                        ("artifactLocation", .object([("uri", .string(Self.sarifURI(l.file)))])),
                        ("region", .object([("startLine", .int(l.line)), ("startColumn", .int(l.column))])),
                    ])),
                ])])))
            }
            // SARIF 2.1.0 §3.55: a fix is a set of artifact changes, each a list of
            // replacements of a deleted region by inserted content.
            if let f = d.fixIt {
                pairs.append(("fixes", .array([.object([
                    ("description", .object([("text", .string("replace with '\(f.replacement)'"))])),
                    ("artifactChanges", .array([.object([
                        ("artifactLocation", .object([("uri", .string(Self.sarifURI(f.start.file)))])),
                        ("replacements", .array([.object([
                            ("deletedRegion", .object([("startLine", .int(f.start.line)), ("startColumn", .int(f.start.column)),
                                                       ("endLine", .int(f.start.line)), ("endColumn", .int(f.endColumn))])),
                            ("insertedContent", .object([("text", .string(f.replacement))])),
                        ])])),
                    ])])),
                ])])))
            }
            return .object(pairs)
        }
        var run: [(String, JSONValue)] = [
            ("tool", .object([("driver", .object([
                ("name", .string("ckschema")),
                ("version", .string(CKSchemaVersion.current)),
                ("rules", .array(rules)),
            ]))])),
            // Columns here count Unicode scalars, as in every format (SARIF's default is UTF-16).
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
        ]
        // SARIF 2.1.0 §3.8: a property bag holds what the format has no member for.
        if !properties.isEmpty { run.append(("properties", .object(properties))) }
        return .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object(run)])),
        ])
    }

    static func sarifLevel(_ s: Severity) -> String {
        switch s { case .error: "error"; case .warning: "warning"; case .note: "note" }
    }

    /// A relative path with forward slashes, as code scanning wants it.
    static func sarifURI(_ path: String) -> String {
        var p = path.replacingOccurrences(of: "\\", with: "/")
        if p.hasPrefix("./") { p.removeFirst(2) }
        return p.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0)
        }.joined(separator: "/")
    }
}

/// Source lines read once per file, for the caret display.
package struct SourceLines {
    private var files: [String: [Substring]] = [:]

    package init() {}

    package mutating func line(_ n: Int, of file: String) -> String? {
        if files[file] == nil {
            guard let data = FileManager.default.contents(atPath: file), data.count < 64 * 1024 * 1024 else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            files[file] = text.split(separator: "\n", omittingEmptySubsequences: false)
        }
        guard let lines = files[file], n >= 1, n <= lines.count else { return nil }
        let l = lines[n - 1]
        return String(l.hasSuffix("\r") ? l.dropLast() : l)
    }
}

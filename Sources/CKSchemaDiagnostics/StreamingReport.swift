import CKSchemaModel
import Foundation

/// A JSON or SARIF report written while diagnostics arrive, so that memory does not grow with
/// their number (`validate` over millions of failing records held 1.2-2.4 KB per error and
/// exceeded 6 GB).
///
/// JSON streams: the header, each diagnostic as it comes (in input order), then the summary;
/// the document is the one `DiagnosticRenderer` writes for the same diagnostics in the same
/// order. SARIF cannot stream (its rule list precedes the results), so it keeps at most
/// `sarifLimit` results, GitHub code scanning's own limit per run, and says in a final
/// note result how many it left out. Markdown (a table for a job summary) is kept the same way.
public struct StreamingReport: Sendable {
    /// GitHub code scanning accepts at most 25,000 results per SARIF run.
    public static let sarifLimit = 25_000

    public let renderer: DiagnosticRenderer
    private var count = 0
    private var errors = 0, warnings = 0, notes = 0
    private var kept: [Diagnostic] = []
    private var dropped = 0
    private let limit: Int
    /// Lines of the files whose fix-its are checked before they are written.
    private var sources = SourceLines()

    /// - Parameter rules: the rule catalog's lookup, for SARIF's rule list (`RuleCatalog.info`).
    public init(format: OutputFormat, command: String, sarifLimit: Int = StreamingReport.sarifLimit,
                rules: @escaping @Sendable (String) -> RuleInfo? = { _ in nil }) {
        renderer = DiagnosticRenderer(format: format, command: command, rules: rules)
        limit = sarifLimit
    }

    /// The text that opens the report (empty for SARIF, written whole at the end).
    public func begin() -> String {
        guard renderer.format == .json else { return "" }
        let doc = renderer.json([]).rendered(pretty: true)
        return String(doc[..<doc.range(of: "\"diagnostics\": []")!.upperBound].dropLast())
    }

    /// The text for one more diagnostic (empty for SARIF, which keeps it until `end`).
    public mutating func add(_ d: Diagnostic) -> String {
        let d = renderer.checked(d, cache: &sources)
        switch d.severity { case .error: errors += 1; case .warning: warnings += 1; case .note: notes += 1 }
        count += 1
        guard renderer.format == .json else {
            if kept.count < limit { kept.append(d) } else { dropped += 1 }
            return ""
        }
        // `DiagnosticRenderer.jsonObject(d)` at the array's depth, written directly: building
        // and re-indenting a JSONValue per diagnostic cost 50 µs each (5 s per 100,000).
        var out = count == 1 ? "\n    {\n" : ",\n    {\n"
        func member(_ key: String, _ value: String?, last: Bool = false) {
            out += "      \"" + key + "\": "
            if let value { JSONValue.quote(value, into: &out) } else { out += "null" }
            out += last ? "\n" : ",\n"
        }
        member("code", d.code)
        member("severity", d.severity.rawValue)
        member("file", d.location?.file)
        out += "      \"line\": " + (d.location.map { String($0.line) } ?? "null") + ",\n"
        out += "      \"column\": " + (d.location.map { String($0.column) } ?? "null") + ",\n"
        member("message", d.message)
        member("fix", d.fix, last: d.fixIt == nil)
        if let f = d.fixIt {
            // Rare (a reader's exact fix), so built as a value and indented to this depth.
            out += "      \"fixIt\": " + DiagnosticRenderer.fixItObject(f).rendered(pretty: true).replacingOccurrences(of: "\n", with: "\n      ") + "\n"
        }
        out += "    }"
        return out
    }

    /// The text that closes the report: the summary (JSON), or the whole document (SARIF).
    public func end() -> String {
        let summary = JSONValue.object([("errors", .int(errors)), ("warnings", .int(warnings)), ("notes", .int(notes))])
        if renderer.format == .json {
            let doc = JSONValue.object([("summary", summary)]).rendered(pretty: true)
            // `{\n  "summary": ...\n}`: the closing of the array, then the summary member.
            return (count == 0 ? "]" : "\n  ]") + ",\n" + doc.dropFirst(2) + "\n"
        }
        var results = kept
        if dropped > 0 {
            results.append(Diagnostic(rule: SecurityRules.reportCapped, renderer.format == .sarif
                                        ? "the SARIF report holds the first \(limit) results, GitHub code scanning's limit per run; \(dropped) more were left out (use --format json or text for all of them)"
                                        : "the Markdown report holds the first \(limit) results, to keep a job summary readable; \(dropped) more were left out (use --format json or text for all of them)", at: nil))
        }
        return renderer.render(results)
    }
}

/// Diagnostics written while they arrive, in each output format's streaming policy: text
/// and GitHub lines go out as found, JSON as a document written piece by piece, SARIF and
/// Markdown keep at most `StreamingReport.sarifLimit` results and come whole at the end.
/// Output is handed to `write` in chunks (every 32 KB or 0.2 s), so memory stays flat
/// however many diagnostics there are. It never shows a source line: a record's line would
/// print field values, encrypted ones too.
public struct DiagnosticStream {
    private let renderer: DiagnosticRenderer
    private var report: StreamingReport
    private let write: (String) -> Void
    private var buffer = ""
    private var lastFlush = ContinuousClock.now

    /// - Parameters:
    ///   - rules: the rule catalog's lookup (`RuleCatalog.info`).
    ///   - write: receives each chunk of the report, in order.
    public init(format: OutputFormat, command: String, rules: @escaping @Sendable (String) -> RuleInfo? = { _ in nil },
                write: @escaping (String) -> Void) {
        renderer = DiagnosticRenderer(format: format, command: command, showSource: false, rules: rules)
        report = StreamingReport(format: format, command: command, rules: rules)
        self.write = write
        buffer = report.begin()
    }

    /// Adds one diagnostic; writes the buffer when it is large or old enough.
    public mutating func add(_ d: Diagnostic) {
        switch renderer.format {
        case .text: buffer += renderer.renderText(d)
        case .github: buffer += renderer.render([d])
        case .json, .sarif, .markdown: buffer += report.add(d)
        }
        if buffer.utf8.count > 32 * 1024 || ContinuousClock.now - lastFlush > .milliseconds(200) { flush() }
    }

    /// Writes what is buffered, then what closes the report (JSON's summary, the whole SARIF or Markdown).
    public mutating func finish() {
        switch renderer.format {
        case .json, .sarif, .markdown: buffer += report.end()
        case .text, .github: break
        }
        flush()
    }

    private mutating func flush() {
        if !buffer.isEmpty { write(buffer) }
        buffer = ""
        lastFlush = ContinuousClock.now
    }
}

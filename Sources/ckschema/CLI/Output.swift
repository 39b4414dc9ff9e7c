import CKSchema
import Foundation

/// Where the command writes: stdout for reports, stderr for progress and failures.
struct Output {
    var out = FileHandle.standardOutput
    var err = FileHandle.standardError
    /// The `--format` the running command was given and the name its reports carry (`migrate
    /// status`), once its arguments parsed: an input error (exit 2) is then also that
    /// command's JSON or SARIF report on standard output (`CLI.run`, docs/output.md).
    var reportFormat: OutputFormat?
    var reportCommand: String?
    /// Whether anything was written to standard output yet (an input error's report is
    /// written only on an empty one: it never follows half a document).
    let stdoutUsed = Flag()

    /// A flag that copies of an `Output` share.
    final class Flag { var isSet = false }

    func write(_ s: String) {
        if !s.isEmpty { stdoutUsed.isSet = true }
        out.write(Data(s.utf8))
    }
    func error(_ s: String) { err.write(Data(s.utf8)) }

    /// True when stdout is a terminal (source lines and carets are shown then).
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
    static var stderrIsTerminal: Bool { isatty(2) == 1 && ProcessInfo.processInfo.environment["CI"] == nil }

    /// Renders diagnostics in the chosen format; in text format also a summary line.
    func report(_ diagnostics: [Diagnostic], format: OutputFormat, command: String) {
        let renderer = DiagnosticRenderer(format: format, command: command, showSource: format == .text && Self.stdoutIsTerminal, rules: RuleCatalog.info)
        write(renderer.render(diagnostics))
        if format == .text, !diagnostics.isEmpty { write(Self.counts(diagnostics) + "\n") }
    }

    /// Renders diagnostics, then, in text format, one closing line that says what ran and
    /// how it ended, also when there is nothing to report, so a CI log shows the gate ran:
    /// `ckschema check: passed (lint, promote): 0 errors, 0 warnings`.
    /// The diagnostics, then (text) the closing line, which names the steps that failed
    /// before those that passed: `ckschema check: failed (validate): 1 error, 0 warnings;
    /// passed: lint, promote, migrations`. The Markdown summary starts with the same verdict.
    func conclude(_ diagnostics: [Diagnostic], format: OutputFormat, command: String, failed: Bool, steps: [String] = [], failedSteps: [String] = [],
                  properties: [(String, JSONValue)] = []) {
        var renderer = DiagnosticRenderer(format: format, command: command, showSource: format == .text && Self.stdoutIsTerminal, rules: RuleCatalog.info)
        renderer.properties = properties
        let passed = steps.filter { !failedSteps.contains($0) }
        let verdict: String
        if failed && !failedSteps.isEmpty {
            verdict = "failed (" + failedSteps.joined(separator: ", ") + ")"
        } else {
            verdict = (failed ? "failed" : "passed") + (steps.isEmpty ? "" : " (" + steps.joined(separator: ", ") + ")")
        }
        renderer.verdict = verdict
        write(renderer.render(diagnostics))
        guard format == .text else { return }
        let rest = failed && !failedSteps.isEmpty && !passed.isEmpty ? "; passed: " + passed.joined(separator: ", ") : ""
        write("ckschema \(command): \(verdict): \(Self.counts(diagnostics, always: true))\(rest)\n")
    }

    /// `2 errors, 1 warning` (with `always`, zero counts of errors and warnings are shown).
    static func counts(_ diagnostics: [Diagnostic], always: Bool = false) -> String {
        let s = DiagnosticRenderer.summary(diagnostics)
        func n(_ count: Int, _ word: String) -> String { "\(count) \(word)" + (count == 1 ? "" : "s") }
        var parts: [String] = []
        if always || s.errors > 0 { parts.append(n(s.errors, "error")) }
        if always || s.warnings > 0 { parts.append(n(s.warnings, "warning")) }
        if s.notes > 0 { parts.append(n(s.notes, "note")) }
        return parts.joined(separator: ", ")
    }

    /// The exit code for a finished check.
    static func exitCode(for diagnostics: [Diagnostic], failOn: Severity) -> ExitCode {
        diagnostics.contains(atLeast: failOn) ? .findings : .success
    }
}

extension Output {
    /// Runs `body` with a sink that writes the lines it is given in 64 KB chunks.
    @discardableResult
    func streaming<T>(_ body: ((String) throws -> Void) throws -> T) rethrows -> T {
        var buffer = ""
        defer { write(buffer) }
        return try body { line in
            buffer += line
            if buffer.utf8.count >= 1 << 16 {
                write(buffer)
                buffer = ""
            }
        }
    }

    /// Writes `text` to a file (as `InputFile.write`: a device or FIFO such as `-o /dev/null`
    /// in place, a regular file replaced atomically), or to standard output when `path` is nil
    /// or `-`.
    func write(_ text: String, to path: String?) throws(InputError) {
        guard let path, path != "-" else {
            write(text)
            return
        }
        // Written from the string's own bytes: a large schema's text is not copied again.
        var text = text
        var failure: InputError?
        text.withUTF8 { bytes in
            let data = bytes.baseAddress.map { Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: bytes.count, deallocator: .none) } ?? Data()
            do throws(InputError) { try InputFile.write(data, to: path) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes what `body` gives its sink, a piece at a time, to a file (an `OutputFile`: a
    /// device or FIFO in place, a regular file through a temporary one renamed into place once
    /// `body` returned, so a failure leaves no half-written file), or to standard output when
    /// `path` is nil or `-`. The text is never held whole.
    func write(to path: String?, _ body: ((UnsafeRawBufferPointer) throws(InputError) -> Void) throws(InputError) -> Void) throws(InputError) {
        guard let path, path != "-" else {
            try body { bytes in
                guard !bytes.isEmpty else { return }
                stdoutUsed.isSet = true
                out.write(Data(bytes))
            }
            return
        }
        let file = try OutputFile(path: path)
        do throws(InputError) {
            try body { bytes throws(InputError) in try file.write(bytes) }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }
}

import CKSchema
import Foundation

/// The exit codes of the CI contract.
enum ExitCode: Int32 {
    /// Nothing at or above the failing severity.
    case success = 0
    /// The check ran and found problems.
    case findings = 1
    /// The tool could not do its job: bad arguments, unreadable or malformed input.
    case failure = 2

    /// The worse of two outcomes.
    func worst(_ other: ExitCode) -> ExitCode { rawValue >= other.rawValue ? self : other }
}

/// One subcommand: its name, help and options, and what it does.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// `ckschema lint [SCHEMA] [--format F]`
    static var usage: String { get }
    /// The rest of `--help`: what it does, its options, an example.
    static var help: String { get }
    static var options: [OptionSpec] { get }
    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode
    /// The words a command takes first (`migrate new|apply|...`), for completions.
    static var subcommands: [String] { get }
}

extension Command {
    static var subcommands: [String] { [] }
}

/// Options that every reporting command shares.
enum CommonOptions {
    static let format = OptionSpec(name: "format", short: nil, takesValue: true, help: "report format",
                                   values: OutputFormat.allCases.map(\.rawValue), defaultValue: "text")
    static let failOn = OptionSpec(name: "fail-on", short: nil, takesValue: true, help: "lowest severity that fails the run",
                                   values: ["warning", "error"], defaultValue: "error, or lint.failOn")
    static let config = OptionSpec(name: "config", short: nil, takesValue: true, help: "use this ckschema.yaml instead of searching for one",
                                   valueName: "PATH", isPath: true)
    static let report: [OptionSpec] = [format, failOn, config]

    static func outputFormat(_ args: ParsedArguments) throws(UsageError) -> OutputFormat {
        guard let v = args.value("format") else { return .text }
        guard let f = OutputFormat(rawValue: v) else {
            throw UsageError("'\(v)' is not an output format; use text, json, github, sarif or markdown")
        }
        return f
    }

    static func failOn(_ args: ParsedArguments, config: Configuration?) throws(UsageError) -> Severity {
        guard let v = args.value("fail-on") else { return config?.failOn ?? .error }
        guard let s = Severity(rawValue: v), s != .note else { throw UsageError("'\(v)' is not a severity for --fail-on; use warning or error") }
        return s
    }

    /// The configuration named by `--config`, else the nearest `ckschema.yaml`, else nil.
    static func configuration(_ args: ParsedArguments) throws(InputError) -> Configuration? {
        let config: Configuration?
        if let p = args.value("config") { config = try Configuration.load(path: p) } else { config = try Configuration.find() }
        if let config {
            let unknown = RuleCatalog.unknownCodes(in: config)
            if !unknown.isEmpty { throw InputError(unknown) }
        }
        return config
    }
}

/// Where the command writes: stdout for reports, stderr for progress and failures.
struct Output {
    var out = FileHandle.standardOutput
    var err = FileHandle.standardError

    func write(_ s: String) { out.write(Data(s.utf8)) }
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
    func conclude(_ diagnostics: [Diagnostic], format: OutputFormat, command: String, failed: Bool, steps: [String] = []) {
        let renderer = DiagnosticRenderer(format: format, command: command, showSource: format == .text && Self.stdoutIsTerminal, rules: RuleCatalog.info)
        write(renderer.render(diagnostics))
        guard format == .text else { return }
        let ran = steps.isEmpty ? "" : " (" + steps.joined(separator: ", ") + ")"
        write("ckschema \(command): \(failed ? "failed" : "passed")\(ran): \(Self.counts(diagnostics, always: true))\n")
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

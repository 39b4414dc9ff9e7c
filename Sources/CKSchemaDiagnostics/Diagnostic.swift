import CKSchemaModel

/// One finding, shared by every command: lint, import, diff, promote, validate, migrate.
///
/// Prints as `path:line:col: error: message [CK101]`, the form Xcode and editors pick up.
public struct Diagnostic: Sendable, Hashable, Codable {
    /// Stable rule code (`CK101`); see `docs/rules.md`.
    public var code: String
    public var severity: Severity
    /// Where it is; nil only when no file is involved (an argument, a store).
    public var location: SourceLocation?
    /// What is wrong, in one sentence.
    public var message: String
    /// What to do about it, when there is something to do.
    public var fix: String?

    public init(code: String, severity: Severity, location: SourceLocation?, message: String, fix: String? = nil) {
        self.code = code
        self.severity = severity
        self.location = location
        self.message = message
        self.fix = fix
    }

    /// A finding of `rule`: its code, at its default severity. Every rule reports this way, so
    /// a code and the severity `docs/rules.md` gives it cannot come apart.
    public init(rule: RuleInfo, _ message: String, at location: SourceLocation?, fix: String? = nil) {
        self.init(code: rule.code, severity: rule.defaultSeverity, location: location, message: message, fix: fix)
    }

    /// A finding of `rule` as an error, whatever its default: for code that reports a rule
    /// passed to it (a reader's grammar rule, a data step's) where the failure stops the job.
    public static func error(_ rule: RuleInfo, _ message: String, at location: SourceLocation?, fix: String? = nil) -> Diagnostic {
        Diagnostic(code: rule.code, severity: .error, location: location, message: message, fix: fix)
    }
}

/// The tool could not do its job: unreadable or malformed input. The executable exits 2.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public init(_ diagnostic: Diagnostic) { self.diagnostics = [diagnostic] }

    public var description: String { diagnostics.map(\.message).joined(separator: "\n") }
}

extension Array where Element == Diagnostic {
    /// True when any diagnostic is at or above `severity`.
    public func contains(atLeast severity: Severity) -> Bool { contains { $0.severity >= severity } }

    /// Sorted by file, line, column, then code: the order every renderer uses.
    public func sortedByLocation() -> [Diagnostic] {
        sorted { a, b in
            let la = a.location, lb = b.location
            if la?.file != lb?.file { return (la?.file ?? "") < (lb?.file ?? "") }
            if la?.line != lb?.line { return (la?.line ?? 0) < (lb?.line ?? 0) }
            if la?.column != lb?.column { return (la?.column ?? 0) < (lb?.column ?? 0) }
            return a.code < b.code
        }
    }
}

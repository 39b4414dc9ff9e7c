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
    /// What to do about it, when there is something to do. Text output prints it as a
    /// `path:line:col: note: ...` line at `noteLocation` (docs/output.md).
    public var fix: String?
    /// The fix as an exact text change, when the reporter knows the range and the text
    /// (a misspelt type with one did-you-mean); JSON's `fixIt` and SARIF's `fixes`.
    public var fixIt: FixIt?

    public init(code: String, severity: Severity, location: SourceLocation?, message: String, fix: String? = nil, fixIt: FixIt? = nil) {
        self.code = code
        self.severity = severity
        self.location = location
        // Every quoted text is clipped here, whoever quotes it (a YAML value, a record's value,
        // a name, a path): a crafted input's megabyte-long value is not a megabyte-long line.
        self.message = Self.clippingQuotes(message)
        self.fix = fix.map { Self.clippingQuotes($0) }
        self.fixIt = fixIt
    }

    /// A finding of `rule`: its code, at its default severity. Every rule reports this way, so
    /// a code and the severity `docs/rules.md` gives it cannot come apart.
    public init(rule: RuleInfo, _ message: String, at location: SourceLocation?, fix: String? = nil, fixIt: FixIt? = nil) {
        self.init(code: rule.code, severity: rule.defaultSeverity, location: location, message: message, fix: fix, fixIt: fixIt)
    }

    /// A finding of `rule` as an error, whatever its default: for code that reports a rule
    /// passed to it (a reader's grammar rule, a data step's) where the failure stops the job.
    public static func error(_ rule: RuleInfo, _ message: String, at location: SourceLocation?, fix: String? = nil) -> Diagnostic {
        Diagnostic(code: rule.code, severity: .error, location: location, message: message, fix: fix)
    }

    /// Where the fix's `note:` line points: the text the fix-it replaces, else the finding's
    /// own place (a fix has no place of its own).
    public var noteLocation: SourceLocation? { fixIt?.start ?? location }

    /// What the `note:` line says: the fix, else the fix-it's change in words.
    public var noteMessage: String? { fix ?? fixIt.map { "replace with '\($0.replacement)'" } }
}

/// An exact text change that carries out a fix, as clang's fix-its and SARIF's `fixes` are:
/// replace the characters of one line from `start` up to `endColumn` (exclusive, 1-based,
/// counted in Unicode scalars like every column) with `replacement`.
///
/// Made only where the reporter knows both exactly: the range from the reader's own marks
/// and the text from one answer (CloudKit's type for a Swift type, the one close spelling).
public struct FixIt: Sendable, Hashable, Codable {
    public var start: SourceLocation
    public var endColumn: Int
    public var replacement: String
    /// The name the range must hold, for a reporter that knows a name and its place but not
    /// how the file spells it (a rule over the model, which may come from YAML or `.ckdb`).
    /// The renderer keeps such a fix-it only where the file holds exactly that name there,
    /// as a word of its own or inside quotes without escapes (`verified(against:)`).
    public var expected: String?

    public init(start: SourceLocation, endColumn: Int, replacement: String, expected: String? = nil) {
        precondition(endColumn >= start.column, "a fix-it's range ends before it starts")
        self.start = start
        self.endColumn = endColumn
        self.replacement = replacement
        self.expected = expected
    }

    /// Replaces `length` characters at `start`.
    public init(replacing length: Int, at start: SourceLocation, with replacement: String) {
        self.init(start: start, endColumn: start.column + length, replacement: replacement)
    }

    /// Replaces the name `name` written at `start`, once the renderer has seen it there.
    public init(renaming name: String, at start: SourceLocation, to replacement: String) {
        self.init(start: start, endColumn: start.column + name.unicodeScalars.count, replacement: replacement, expected: name)
    }

    /// This fix-it as it applies to `line` (the text of its line), or nil when the file does
    /// not hold `expected` at `start`: the name must stand there as a word (no letter, digit
    /// or `_` touching it), or inside a pair of quotes that it fills, which the range then
    /// leaves alone. A fix-it without `expected` is exact already and returned as it is.
    public func verified(against line: String) -> FixIt? {
        guard let expected else { return self }
        let chars = Array(line.unicodeScalars), name = Array(expected.unicodeScalars)
        func isWord(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" }
        // A name with quotes or a backslash in it would be spelt with escapes; a replacement
        // that is not a plain word might need quotes the range does not have.
        guard !name.isEmpty, !name.contains(where: { "\"'\\".unicodeScalars.contains($0) }),
              replacement.unicodeScalars.allSatisfy(isWord), var i = Optional(start.column - 1), i >= 0, i < chars.count
        else { return nil }
        var quote: Unicode.Scalar?
        if chars[i] == "\"" || chars[i] == "'" { quote = chars[i]; i += 1 }
        guard i + name.count <= chars.count, Array(chars[i..<(i + name.count)]) == name else { return nil }
        let after: Unicode.Scalar? = i + name.count < chars.count ? chars[i + name.count] : nil
        if let quote {
            guard after == quote else { return nil }
        } else {
            if let after, isWord(after) { return nil }
            if i > 0, isWord(chars[i - 1]) { return nil }
        }
        let at = SourceLocation(file: start.file, line: start.line, column: i + 1)
        return FixIt(start: at, endColumn: i + 1 + name.count, replacement: replacement)
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

extension Diagnostic {
    /// At most this many characters of source text are quoted in a message.
    public static let quoteLimit = 200

    /// At most this many characters (Unicode scalars) of each `'...'` quote in any message or
    /// fix: every diagnostic passes through `clippingQuotes` (issue 35 point 10). Above
    /// `quoteLimit`, so that a name at CloudKit's 255-character limit is quoted whole.
    public static let messageQuoteLimit = 300

    /// `text` with the inside of each single-quoted span longer than `messageQuoteLimit`
    /// clipped, with an ellipsis. A quote opens at the start or after a space or one of
    /// `(["=:,`, so an apostrophe in a word ("the file's") opens nothing; an unclosed quote
    /// runs to the end. Short texts (nearly all) are returned at once.
    public static func clippingQuotes(_ text: String) -> String {
        let limit = messageQuoteLimit
        guard text.utf8.count > limit + 2 else { return text }
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > limit + 2 else { return text }
        func opens(_ before: Unicode.Scalar) -> Bool { " ([\"=:,\t".unicodeScalars.contains(before) }
        var out = String.UnicodeScalarView()
        var clipped = false
        var i = 0
        while i < scalars.count {
            let u = scalars[i]
            out.append(u)
            i += 1
            guard u == "'", i == 1 || opens(scalars[i - 2]) else { continue }
            var end = i
            while end < scalars.count, scalars[end] != "'" { end += 1 }
            if end - i > limit {
                out.append(contentsOf: scalars[i..<(i + limit)])
                out.append("…")
                clipped = true
            } else {
                out.append(contentsOf: scalars[i..<end])
            }
            if end < scalars.count { out.append("'"); end += 1 }
            i = end
        }
        return clipped ? String(out) : text
    }

    /// Source text quoted in a message, clipped to `limit` characters (Unicode scalars)
    /// with an ellipsis, so a crafted input's 300,000-deep type is not a megabyte-long line.
    public static func clipped(_ text: String, limit: Int = quoteLimit) -> String {
        guard text.utf8.count > limit else { return text }
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(limit))) + "…"
    }
}
